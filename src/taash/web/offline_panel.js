// The "Make available offline" control (issue 46), on the home screen and in the settings:
// it states the download's size before anything is downloaded, shows the download's progress
// (bytes and percent, an accessible progress bar), can cancel it, says when offline play is
// ready and removes the files.  Both controls show one download (`store`).  The download
// itself (offline_files.js) is loaded only when the player asks, or when this browser already
// holds offline files, so a visitor who never asks downloads nothing of it.
import { lang, t } from './i18n.js';
import { h, fill, toast } from './ui.js';

const PREFIX = 'taash-offline-'; // offline_files.js's caches
const WANTED = 'taash.offline';

const store = {
  state: { phase: 'idle' },
  views: new Set(),
  started: false,
  set(next) {
    this.state = { ...this.state, ...next };
    for (const v of this.views) v(this.state);
  },
};
let files = null; // offline_files.js, once loaded
let aborter = null;

async function lib() {
  files = files || await import('./offline_files.js');
  return files;
}

function mb(bytes) {
  const n = new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return t('offline_mb', { size: n.format(bytes / 1e6) });
}

/** What this browser holds, looked at once per page: nothing (no network asked), ready files
 * (a newer build is then fetched by itself), or a download cut short (it goes on). */
async function look() {
  if (store.started) return;
  store.started = true;
  let keys = [];
  let asked = false;
  try {
    keys = 'caches' in window ? (await caches.keys()).filter((k) => k.startsWith(PREFIX)) : [];
    asked = localStorage.getItem(WANTED) === 'wanted';
  } catch { /* no caches here (an insecure page, private mode) */ }
  if (!('caches' in window) || !window.isSecureContext) {
    store.set({ phase: 'unavailable' });
    return;
  }
  if (!keys.length && !asked) {
    store.set({ phase: 'none' });
    return;
  }
  const f = await lib();
  const { ready, partial } = await f.held();
  if (ready) store.set({ phase: 'ready', ready });
  if (!asked && partial) await f.dropPartial();
  if (!asked && !ready) {
    store.set({ phase: 'none' });
    return;
  }
  let list;
  try {
    list = await f.listing();
  } catch (e) {
    // no network: the ready files serve; a download cut short waits for the player
    if (!ready) store.set({ phase: 'error', error: e.message });
    return;
  }
  if (!ready || ready.version !== list.version) start(list);
}

async function ask() {
  store.set({ phase: 'checking' });
  try {
    const list = await (await lib()).listing();
    store.set({ phase: 'confirm', list });
  } catch (e) {
    store.set(e.code === 'unavailable' ? { phase: 'unavailable' } : { phase: 'error', error: e.message });
  }
}

async function start(list) {
  const f = await lib();
  aborter = new AbortController();
  const mine = aborter;
  store.set({ phase: 'downloading', list, done: 0, total: list.download_bytes,
    update: store.state.phase === 'ready' });
  try {
    const ready = await f.download(list, { signal: mine.signal,
      progress: ({ done, total }) => { if (aborter === mine) store.set({ done, total }); } });
    if (aborter === mine) store.set({ phase: 'ready', ready });
  } catch (e) {
    if (aborter !== mine || e.name === 'AbortError') return;
    // a new build's files that did not all come: the ready ones still serve (and the next
    // visit online tries again)
    const { ready } = store.state.update ? await f.held() : {};
    store.set(ready ? { phase: 'ready', ready } : { phase: 'error', error: e.message });
  }
}

async function cancel() {
  if (aborter) aborter.abort();
  aborter = null;
  const f = await lib();
  await f.dropPartial();
  const { ready } = await f.held();
  store.set(ready ? { phase: 'ready', ready } : { phase: 'none' });
}

async function remove() {
  if (aborter) aborter.abort();
  aborter = null;
  await (await lib()).removeAll();
  store.set({ phase: 'none' });
  toast(t('offline_removed'));
}

async function retry() {
  const { list } = store.state;
  if (list) start(list);
  else ask();
}

/** The control; `where` ('home' or 'settings') names it for the page's tests and styles. */
export function offlinePanel(where) {
  const body = h('div', { class: 'offline-body', 'aria-live': 'polite' });
  const el = h(where === 'home' ? 'section' : 'div', { class: where === 'home' ? 'panel offline-files' : 'offline-files',
    'data-offline': where },
  h(where === 'home' ? 'h2' : 'h3', null, t('offline_play')), body);
  let shown = null;
  let bar = null;
  let said = null;
  const btn = (action, words, onclick, primary) => h('button', { class: primary ? 'btn primary' : 'btn', type: 'button',
    'data-action': action, onclick }, words);
  const progress = (s) => {
    const percent = s.total ? Math.floor((100 * s.done) / s.total) : 0;
    const words = t('offline_progress', { done: mb(s.done), total: mb(s.total), percent });
    bar.setAttribute('aria-valuenow', String(percent));
    bar.setAttribute('aria-valuetext', words);
    bar.firstChild.style.width = `${percent}%`;
    said.textContent = words;
  };
  const view = (s) => {
    el.dataset.offlineState = s.phase;
    if (s.phase === shown && s.phase === 'downloading') {
      progress(s);
      return;
    }
    shown = s.phase;
    if (s.phase === 'none') {
      fill(body, h('p', { class: 'sub' }, t('offline_about')),
        btn('offline-make', t('offline_make'), ask, true));
    } else if (s.phase === 'checking' || s.phase === 'idle') {
      fill(body, h('p', { class: 'sub' }, t('loading')));
    } else if (s.phase === 'confirm') {
      fill(body, h('p', { 'data-offline-size': String(s.list.download_bytes) },
        t('offline_size', { size: mb(s.list.download_bytes), stored: mb(s.list.bytes) })),
      h('div', { class: 'row' }, btn('offline-start', t('offline_start'), () => start(s.list), true),
        btn('offline-not-now', t('offline_not_now'), () => store.set({ phase: 'none' }))));
    } else if (s.phase === 'downloading') {
      bar = h('div', { class: 'offline-bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '100',
        'aria-label': t('offline_files_label'), 'data-offline-progress': '' }, h('span', { class: 'offline-fill' }));
      said = h('p', { class: 'sub', 'data-offline-bytes': '' });
      fill(body, h('p', null, t(s.update ? 'offline_updating' : 'offline_downloading')), bar, said,
        btn('offline-cancel', t('offline_cancel'), cancel));
      progress(s);
    } else if (s.phase === 'ready') {
      fill(body, h('p', { 'data-offline-ready': s.ready.version },
        t('offline_ready', { size: mb(s.ready.bytes) })),
      h('div', { class: 'row' },
        h('a', { class: 'btn primary', href: '/offline', 'data-action': 'offline-play' }, t('play_offline')),
        btn('offline-remove', t('offline_remove'), remove)));
    } else if (s.phase === 'error') {
      fill(body, h('p', { class: 'error', role: 'alert' }, t('offline_failed', { why: s.error })),
        h('div', { class: 'row' }, btn('offline-retry', t('try_again'), retry, true),
          btn('offline-remove', t('offline_remove'), remove)));
    } else {
      fill(body, h('p', { class: 'sub' }, t('offline_unavailable')));
    }
  };
  store.views.add(view);
  view(store.state);
  look();
  return { el, destroy: () => store.views.delete(view) };
}
