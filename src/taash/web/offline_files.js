// "Make available offline" (issue 46): downloads what offline play needs (Pyodide's core,
// taash's zip, the engine's worker and the page's own files, as /assets/offline.json lists
// them) into a cache named after the list's version, for the service worker (sw.js) to answer
// with.  Each file is checked against its SHA-256 before it is kept, and the cache is marked
// ready only by its last entry, once every file is in: a download cut short (a reload, a lost
// connection) is never taken for a ready one, and goes on from the files it already has.  A
// new build (a new version) is downloaded beside the old files, which go once it is ready.
// Loaded only when a player asks, or when this browser already has offline files.
export const OFFLINE = 'taash-offline-';
export const READY = '/assets/offline/ready';
const WANTED = 'taash.offline'; // 'wanted' while a download the player asked for has not ended
// (offline_panel.js reads it to go on after a reload)

function want(yes) {
  try {
    if (yes) localStorage.setItem(WANTED, 'wanted');
    else localStorage.removeItem(WANTED);
  } catch { /* no storage: a reload forgets the download */ }
}

/** What this browser holds without asking the network: the ready files' list (its version
 * and sizes) or null, and whether a download was cut short. */
export async function held() {
  if (!('caches' in globalThis)) return { ready: null, partial: false };
  let ready = null;
  let partial = false;
  for (const name of await caches.keys()) {
    if (!name.startsWith(OFFLINE)) continue;
    const mark = await (await caches.open(name)).match(READY);
    if (mark) ready = await mark.json();
    else partial = true;
  }
  return { ready, partial };
}

/** The list of files from the server; a clear Error when it has none. */
export async function listing() {
  const res = await fetch('/assets/offline.json', { cache: 'no-store' });
  if (res.status === 404) throw Object.assign(new Error('not built'), { code: 'unavailable' });
  if (!res.ok) throw new Error(`/assets/offline.json: ${res.status}`);
  return res.json();
}

async function hex(buf) {
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', buf));
  return Array.from(sum, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One file, its bytes counted as they come (`step(got)`), checked, and put in `cache`. */
async function fetchOne(cache, file, version, signal, step) {
  const res = await fetch(`${file.url}?offline=${version}`, { signal, credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${file.url}: ${res.status}`);
  const chunks = [];
  let got = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    got += value.byteLength;
    step(got);
  }
  const body = await new Blob(chunks).arrayBuffer();
  if (got !== file.bytes || await hex(body) !== file.sha256) {
    throw new Error(`${file.url} came damaged (its size or SHA-256 is not the list's)`);
  }
  const type = res.headers.get('content-type') || 'application/octet-stream';
  await cache.put(file.url, new Response(body, { headers: { 'Content-Type': type } }));
}

/** Downloads every file of `list` not yet in its cache; `progress({done, total})` in bytes on
 * the wire (a file's share counted as its bytes come).  Resolves once the cache is marked
 * ready and older versions are gone; rejects (AbortError when `signal` aborts) otherwise. */
export async function download(list, { signal, progress }) {
  want(true);
  const name = OFFLINE + list.version;
  // another version's download cut short is of no use: gone (a ready one stays till this is)
  for (const k of await caches.keys()) {
    if (k.startsWith(OFFLINE) && k !== name && !await (await caches.open(k)).match(READY)) await caches.delete(k);
  }
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  const cache = await caches.open(name);
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
  const total = list.download_bytes;
  let done = list.files.filter((f) => have.has(f.url)).reduce((n, f) => n + f.download_bytes, 0);
  progress({ done, total });
  for (const file of list.files) {
    if (have.has(file.url)) continue;
    const before = done;
    // a file's bytes on the wire, counted in proportion as its (decoded) bytes come
    const share = (got) => Math.round(Math.min(got / Math.max(file.bytes, 1), 1) * file.download_bytes);
    await fetchOne(cache, file, list.version, signal, (got) => progress({ done: before + share(got), total }));
    done += file.download_bytes;
    progress({ done, total });
  }
  const mark = { version: list.version, bytes: list.bytes, download_bytes: total, files: list.files.length };
  await cache.put(READY, new Response(JSON.stringify(mark), { headers: { 'Content-Type': 'application/json' } }));
  want(false);
  for (const k of await caches.keys()) if (k.startsWith(OFFLINE) && k !== name) await caches.delete(k);
  return mark;
}

/** A download given up: its files gone, a ready older version kept. */
export async function dropPartial() {
  want(false);
  for (const k of await caches.keys()) {
    if (k.startsWith(OFFLINE) && !await (await caches.open(k)).match(READY)) await caches.delete(k);
  }
}

/** "Remove offline files": every version gone. */
export async function removeAll() {
  want(false);
  for (const k of await caches.keys()) if (k.startsWith(OFFLINE)) await caches.delete(k);
}
