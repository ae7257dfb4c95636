// Just enough of a browser for the page's pure logic under `node --test`: storage, a
// document element for the language, and a fetch that serves the page's own files
// (src/taash/web, as the server does under /assets/).  Nothing here draws anything.
import { readFile } from 'node:fs/promises';

export const WEB = new URL('../../src/taash/web/', import.meta.url);

/** localStorage / sessionStorage over a Map. */
export class MemoryStorage {
  constructor() { this.items = new Map(); }
  getItem(k) { return this.items.has(k) ? this.items.get(k) : null; }
  setItem(k, v) { this.items.set(k, String(v)); }
  removeItem(k) { this.items.delete(k); }
  clear() { this.items.clear(); }
}

/** Storage that refuses every call, as in some private modes. */
export const brokenStorage = {
  getItem() { throw new Error('denied'); },
  setItem() { throw new Error('denied'); },
  removeItem() { throw new Error('denied'); },
};

/** Files served instead of the real ones (path under /assets/ -> text), or null for a 404. */
export const overrides = new Map();

async function serve(url) {
  const path = String(url).replace(/^\/assets\//, '');
  if (overrides.has(path)) {
    const text = overrides.get(path);
    return text === null ? new Response('', { status: 404 }) : new Response(text);
  }
  try {
    return new Response(await readFile(new URL(path, WEB), 'utf8'));
  } catch {
    return new Response('', { status: 404 });
  }
}

/** Put the stand-ins on globalThis (each test file runs in its own process). */
export function installBrowser({ languages = ['en-GB'] } = {}) {
  globalThis.localStorage = new MemoryStorage();
  globalThis.sessionStorage = new MemoryStorage();
  globalThis.document = { documentElement: {} };
  Object.defineProperty(globalThis, 'navigator', {
    value: { languages, language: languages[0] }, configurable: true, writable: true,
  });
  globalThis.fetch = serve;
}

/** The page's words in `code`, loaded through the real i18n.js. */
export async function useLang(code) {
  const { setLang } = await import('../../src/taash/web/i18n.js');
  await setLang(code);
}
