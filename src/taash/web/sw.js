// The service worker (served as /sw.js, so its scope is the whole site): the page installs to a
// home screen and opens without a connection.  Pages and files are fetched from the network
// first, so a new version is seen at once, and kept; without a network the kept copy is used,
// and any page address gets the kept page, which says there is no connection (app.js) and
// comes back by itself.  The API and the live channel are never kept: a view is always fresh.
// Offline play's files (issue 46) are kept apart, only when the player asks ("Make available
// offline", offline_files.js): in a cache named after the version of /assets/offline.json,
// marked ready by its last entry; that cache answers /assets/offline/ first (its files are
// checked and of one version), and answers the page and its files when the network does not.
// Web Push: the notification handlers (issue 32) live in their own file.
importScripts('/assets/sw-push.js');

const CACHE = 'taash-1';
const WAIT_MS = 5000; // a network slower than this counts as none, where a kept copy exists
const OFFLINE = 'taash-offline-'; // + the version: offline play's files (offline_files.js)
const READY = '/assets/offline/ready'; // put last: its cache holds every file of its version

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.add('/')).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE && !k.startsWith(OFFLINE))
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The page names the files it has loaded (its modules, style, words): they are kept too, so
// the first visit's files open the next one offline.
self.addEventListener('message', (e) => {
  const urls = e.data && Array.isArray(e.data.keep) ? e.data.keep.filter(mine) : [];
  if (urls.length) e.waitUntil(caches.open(CACHE).then((c) => c.addAll(urls)).catch(() => {}));
});

function mine(url) {
  const u = new URL(url, self.location.origin);
  return u.origin === self.location.origin && (u.pathname === '/' || u.pathname.startsWith('/assets/'))
    && !u.pathname.startsWith('/assets/offline/');
}

/** The cache of offline play's files that is complete (marked ready), or null. */
async function offlineCache() {
  for (const name of await caches.keys()) {
    if (!name.startsWith(OFFLINE)) continue;
    const cache = await caches.open(name);
    if (await cache.match(READY)) return cache;
  }
  return null;
}

async function offlineFile(req) {
  const cache = await offlineCache();
  const kept = cache && await cache.match(req, { ignoreSearch: true });
  return kept || fetch(req);
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  // offline_files.js downloading: straight from the network, kept nowhere but where it puts it
  if (url.searchParams.has('offline')) return;
  if (url.pathname.startsWith('/assets/offline/')) {
    e.respondWith(offlineFile(req));
    return;
  }
  const page = req.mode === 'navigate';
  if (!page && !url.pathname.startsWith('/assets/')) return; // the API: always the network
  e.respondWith(fresh(req, page));
});

async function fresh(req, page) {
  const cache = await caches.open(CACHE);
  const key = page ? '/' : req;
  let kept = await cache.match(key, { ignoreSearch: page });
  if (!kept) {
    const offline = await offlineCache();
    kept = offline && await offline.match(key, { ignoreSearch: page });
  }
  const net = fetch(req).then((res) => {
    if (res.ok && !page) cache.put(req, res.clone());
    if (res.ok && page && new URL(req.url).pathname === '/') cache.put('/', res.clone());
    return res;
  });
  if (!kept) return net;
  let timer;
  const slow = new Promise((resolve) => { timer = setTimeout(() => resolve(kept), WAIT_MS); });
  try {
    return await Promise.race([net, slow]);
  } catch {
    return kept;
  } finally {
    clearTimeout(timer);
  }
}
