// Web Push in the service worker (imported by sw.js: importScripts('/assets/sw-push.js')): a
// turn notice from the server (server/notify/push.py's payload) becomes a notification, one per
// table (its `tag`: a partner's three moves make one), and a tap opens that table, or
// focuses it where it is open already.  A friend's challenge comes the same way (its own
// `tag`, its `url` the home page, where it is accepted or declined).
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.taashPush.show(data));
});

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(self.taashPush.click(event.notification));
});

self.taashPush = {
  /** Show a turn notice; a notice of the same table replaces the one before. */
  show(data) {
    const table = typeof data.table === 'string' ? data.table : null;
    return self.registration.showNotification(data.title || 'taash', {
      body: data.body || '',
      icon: data.icon || '/assets/icon.svg',
      badge: '/assets/icon.svg',
      lang: data.lang || '',
      tag: data.tag || (table ? `taash-${table}` : 'taash'),
      renotify: true,
      data: { url: data.url || (table ? `/t/${table}` : '/'), table },
    });
  },

  /** The tap on a notice: the table's window focused, else a window of this site taken to
   * the table, else a new one.  Only this site's own pages are opened. */
  async click(notification) {
    notification.close();
    let target = new URL((notification.data && notification.data.url) || '/', self.location.origin);
    if (target.origin !== self.location.origin) target = new URL('/', self.location.origin);
    const wins = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const same = wins.find((c) => new URL(c.url).pathname === target.pathname);
    if (same) return focus(same);
    const ours = wins.find((c) => c.url.startsWith(self.location.origin) && 'navigate' in c);
    if (ours) {
      try {
        const moved = await ours.navigate(target.href);
        if (moved) return focus(moved);
      } catch { /* not a page this worker controls: a new window instead */ }
    }
    return self.clients.openWindow(target.href);
  },
};

async function focus(client) {
  try {
    return await client.focus();
  } catch {
    return client; // focus is the browser's to give (outside a tap it may say no)
  }
}
