// The service worker (served as /sw.js, so its scope is the whole site): the page installs to a
// home screen and opens without a connection.  Pages and files are fetched from the network
// first, so a new version is seen at once, and kept; without a network the kept copy is used,
// and any page address gets the kept page, which says there is no connection (app.js) and
// comes back by itself.  The API and the live channel are never kept: a view is always fresh.
// Web Push: the notification handlers (issue 32) live in their own file.
importScripts('/assets/sw-push.js');

const CACHE = 'taash-1';
const WAIT_MS = 5000; // a network slower than this counts as none, where a kept copy exists

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.add('/')).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
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
  return u.origin === self.location.origin && (u.pathname === '/' || u.pathname.startsWith('/assets/'));
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const page = req.mode === 'navigate';
  if (!page && !url.pathname.startsWith('/assets/')) return; // the API: always the network
  e.respondWith(fresh(req, page));
});

async function fresh(req, page) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(page ? '/' : req, { ignoreSearch: page });
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
