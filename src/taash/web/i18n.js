// UI strings: /assets/i18n/<lang>.json, English as the fallback for any missing key.
// Urdu is written right to left: the page gets dir="rtl" and lang="ur".

export const LANGS = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'ur', name: 'اردو', dir: 'rtl' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
];

let strings = {};
let fallback = {};
let current = 'en';
let plural = new Intl.PluralRules('en');

async function fetchLang(code) {
  const res = await fetch(`/assets/i18n/${code}.json`);
  if (!res.ok) throw new Error(`no translation ${code}`);
  return res.json();
}

export function pickLang() {
  let saved = null;
  try { saved = localStorage.getItem('taash.lang'); } catch { /* ignore */ }
  if (saved && LANGS.some((l) => l.code === saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGS.some((x) => x.code === code)) return code;
  }
  return 'en';
}

export async function setLang(code) {
  const chosen = LANGS.find((l) => l.code === code) || LANGS[0];
  const [en, other] = await Promise.all([
    Object.keys(fallback).length ? fallback : fetchLang('en'),
    chosen.code === 'en' ? null : fetchLang(chosen.code).catch(() => null),
  ]);
  fallback = en;
  strings = other || en;
  current = other ? chosen.code : 'en';
  plural = new Intl.PluralRules(current);
  const root = document.documentElement;
  root.lang = current;
  root.dir = other || chosen.code === 'en' ? chosen.dir : 'ltr';
  try { localStorage.setItem('taash.lang', current); } catch { /* ignore */ }
}

export function lang() {
  return current;
}

/** Whether the page has words for `key` (in this language or in English). */
export function hasWord(key) {
  return key in strings || key in fallback;
}

/** t('key', {name: 'x'}) fills {name}; a key with _one/_few/_many/_other forms takes {n}. */
export function t(key, params) {
  let s;
  if (params && typeof params.n === 'number') {
    const form = `${key}_${plural.select(params.n)}`;
    s = strings[form] ?? strings[`${key}_other`] ?? fallback[`${key}_${new Intl.PluralRules('en').select(params.n)}`];
  }
  s = s ?? strings[key] ?? fallback[key] ?? key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return s;
}
