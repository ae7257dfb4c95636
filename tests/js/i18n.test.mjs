// i18n.js: the language picked, the strings loaded with English as the fallback, {name}
// parameters filled, plural forms chosen by the language's rules.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { installBrowser, overrides } from './browser.mjs';

installBrowser();
const { LANGS, lang, pickLang, setLang, t } = await import('../../src/taash/web/i18n.js');

beforeEach(() => {
  installBrowser();
  overrides.clear();
});

test('before any language is loaded a key stands for itself', () => {
  assert.equal(t('deal_no', { n: 3 }), 'deal_no');
  assert.equal(lang(), 'en');
});

test('English: parameters filled, an unknown parameter left as written, an unknown key kept', async () => {
  await setLang('en');
  assert.equal(t('deal_no', { n: 3 }), 'Deal 3');
  assert.equal(t('deal_of', { n: 2, m: 5 }), 'Deal 2 of 5');
  assert.equal(t('card', { rank: 'Ace' }), 'Ace of {suit}');
  assert.equal(t('no_such_key_anywhere'), 'no_such_key_anywhere');
  assert.equal(globalThis.document.documentElement.lang, 'en');
  assert.equal(globalThis.document.documentElement.dir, 'ltr');
  assert.equal(localStorage.getItem('taash.lang'), 'en');
});

test('English plurals: one and other', async () => {
  await setLang('en');
  assert.equal(t('n_cards', { n: 1 }), '1 card');
  assert.equal(t('n_cards', { n: 0 }), '0 cards');
  assert.equal(t('n_cards', { n: 7 }), '7 cards');
});

test('Russian plurals: one, few and many by the number\'s ending', async () => {
  await setLang('ru');
  assert.equal(lang(), 'ru');
  assert.equal(t('n_cards', { n: 1 }), '1 карта');
  assert.equal(t('n_cards', { n: 21 }), '21 карта');
  assert.equal(t('n_cards', { n: 3 }), '3 карты');
  assert.equal(t('n_cards', { n: 5 }), '5 карт');
  assert.equal(t('n_cards', { n: 11 }), '11 карт');
  assert.equal(t('deal_no', { n: 4 }), 'Раздача 4');
});

test('Urdu is written right to left', async () => {
  await setLang('ur');
  assert.equal(globalThis.document.documentElement.lang, 'ur');
  assert.equal(globalThis.document.documentElement.dir, 'rtl');
});

test('a key missing from a translation falls back to English', async () => {
  const ru = JSON.parse(JSON.stringify(await (await fetch('/assets/i18n/ru.json')).json()));
  delete ru.deal_no;
  delete ru.n_cards_few;
  overrides.set('i18n/ru.json', JSON.stringify(ru));
  await setLang('ru');
  assert.equal(t('deal_no', { n: 4 }), 'Deal 4');
  // a missing plural form takes the language's _other form before any English
  assert.equal(t('n_cards', { n: 3 }), ru.n_cards_other.replace('{n}', '3'));
});

test('a language whose file cannot be fetched, or that the page does not know, is English', async () => {
  overrides.set('i18n/hi.json', null);
  await setLang('hi');
  assert.equal(lang(), 'en');
  assert.equal(globalThis.document.documentElement.dir, 'ltr');
  assert.equal(t('deal_no', { n: 1 }), 'Deal 1');
  await setLang('xx');
  assert.equal(lang(), 'en');
});

test('pickLang: the saved choice, else the browser\'s first known language, else English', () => {
  assert.deepEqual(LANGS.map((l) => l.code), ['en', 'ur', 'hi', 'ru']);
  installBrowser({ languages: ['de-DE', 'ru-RU', 'hi'] });
  assert.equal(pickLang(), 'ru');
  localStorage.setItem('taash.lang', 'ur');
  assert.equal(pickLang(), 'ur');
  localStorage.setItem('taash.lang', 'zz');
  assert.equal(pickLang(), 'ru');
  installBrowser({ languages: ['de', 'fr'] });
  assert.equal(pickLang(), 'en');
});
