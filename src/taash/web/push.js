// Web Push turn notices (docs/API.md "Push"): from the table menu for this seat, and from the
// account panel for every table of the player.  Permission is asked only on the tap that turns
// push on; the service worker (/sw.js, whose push handlers are sw-push.js) subscribes with the
// browser's push service under the server's VAPID key, and the page registers the
// subscription with the server.  Each control says where it stands, in the page's language.
import { api, ApiError } from './api.js';
import { lang, t } from './i18n.js';
import { h, toast } from './ui.js';

export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

const store = {
  get(key) { try { return localStorage.getItem(`taash.push.${key}`); } catch { return null; } },
  set(key, v) {
    try {
      if (v === null) localStorage.removeItem(`taash.push.${key}`);
      else localStorage.setItem(`taash.push.${key}`, v);
    } catch { /* private mode: the state shows until the page reloads */ }
  },
};

// the buttons wrap on a narrow screen (a long word in one language must not push one off it)
const ROW = { display: 'flex', flexWrap: 'wrap', gap: '8px', margin: '8px 0' };

class PushRefused extends Error {
  constructor(key, params) { super(key); this.key = key; this.params = params || {}; }
}

function keyBytes(b64url) {
  const s = atob(b64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64url.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function askPermission() {
  if (Notification.permission === 'granted') return;
  if (Notification.permission !== 'denied' && (await Notification.requestPermission()) === 'granted') return;
  throw new PushRefused('push_denied');
}

/** This browser's push subscription under the server's key (made if there is none, or if it
 * was made under another key). */
async function subscription() {
  const reg = await navigator.serviceWorker.register('/sw.js');
  await navigator.serviceWorker.ready;
  const { key } = await api('GET', '/api/push/key');
  let sub = await reg.pushManager.getSubscription();
  const made = sub && sub.options && sub.options.applicationServerKey;
  if (sub && made && new Uint8Array(made).join() !== keyBytes(key).join()) {
    await sub.unsubscribe();
    sub = null;
  }
  return sub || reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
}

function body(sub, extra = {}) {
  return { subscription: sub.toJSON(), language: lang(), tz_offset: -new Date().getTimezoneOffset(), ...extra };
}

function said(err) {
  if (err instanceof PushRefused) return t(err.key, err.params);
  const message = err instanceof ApiError ? err.message : String((err && err.message) || err);
  return t('push_failed', { message });
}

/** A status line and buttons, redrawn from `state()` after each tap. */
class Control {
  constructor(name, state, buttons) {
    this.status = h('p', { class: 'sub', 'data-field': `${name}-status`, role: 'status' });
    this.row = h('div', { class: 'push-row', style: ROW });
    this.state = state;
    this.buttons = buttons;
    this.el = h('div', { 'data-section': name }, this.status, this.row);
    this.draw();
  }

  draw(message) {
    const s = this.state();
    this.status.textContent = message || t(s.text);
    this.row.replaceChildren(...this.buttons(s).map(([label, action, run]) => h('button', {
      class: 'btn', type: 'button', 'data-action': action,
      onclick: async (e) => {
        const b = e.currentTarget;
        b.disabled = true;
        try {
          const done = await run();
          this.draw(done ? t(done) : undefined);
          if (done) toast(t(done));
        } catch (err) {
          this.draw(said(err));
          toast(said(err), 'error');
        } finally {
          b.disabled = false;
        }
      },
    }, t(label))));
  }
}

/** The table menu's push section for the seat `tb` plays (its token or `{seat}`). */
export function pushMenu(tb) {
  const where = `${tb.id}.${tb.me()}`;
  const path = `/api/tables/${encodeURIComponent(tb.id)}/push`;
  const parts = [h('h3', null, t('push_title')), h('p', { class: 'sub' }, t('push_note'))];
  if (!pushSupported()) return [...parts, h('p', { class: 'sub', 'data-field': 'push-status' }, t('push_unsupported'))];
  const control = new Control('push', () => {
    const s = store.get(where);
    return { on: !!s, muted: s === 'muted', text: !s ? 'push_off' : s === 'muted' ? 'push_muted' : 'push_on' };
  }, (s) => {
    if (!s.on) {
      return [['push_on_button', 'push-on', async () => {
        await askPermission();
        const sub = await subscription();
        const r = await api('POST', path, { token: tb.token, body: body(sub) });
        store.set(where, r.muted ? 'muted' : 'on');
        return r.muted ? 'push_muted' : 'push_on';
      }]];
    }
    return [
      [s.muted ? 'push_unmute' : 'push_mute', s.muted ? 'push-unmute' : 'push-mute', async () => {
        await api('PUT', path, { token: tb.token, body: { muted: !s.muted } });
        store.set(where, s.muted ? 'on' : 'muted');
        return s.muted ? 'push_on' : 'push_muted';
      }],
      ['push_off_button', 'push-off', async () => {
        const reg = await navigator.serviceWorker.getRegistration('/sw.js');
        const sub = reg && await reg.pushManager.getSubscription();
        if (sub) await api('DELETE', path, { token: tb.token, body: { endpoint: sub.endpoint } });
        store.set(where, null);
        return 'push_off';
      }],
    ];
  });
  return [...parts, control.el];
}

/** Minutes after midnight as the quiet hours' HH:MM (the time input's value). */
export function hhmm(mins) {
  return `${String(Math.floor(mins / 60)).padStart(2, '0')}:${String(mins % 60).padStart(2, '0')}`;
}

/** An HH:MM time as minutes after midnight; null where it is not one. */
export function minutes(value) {
  const m = /^(\d{1,2}):(\d{2})$/.exec(value || '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The account panel's push section: every table of the player, all off, quiet hours. */
export function pushAccountPanel() {
  const parts = [h('h3', null, t('push_title')), h('p', { class: 'sub' }, t('push_all_note'))];
  if (!pushSupported()) return h('div', null, ...parts, h('p', { class: 'sub', 'data-field': 'push-all-status' }, t('push_unsupported')));
  const control = new Control('push-all', () => {
    const s = store.get('all');
    return { on: s === 'on', paused: s === 'off', text: s === 'on' ? 'push_all_on' : 'push_off' };
  }, (s) => {
    const on = ['push_on_button', 'push-all-on', async () => {
      await askPermission();
      const sub = await subscription();
      await api('POST', '/api/me/push', { body: body(sub) });
      if (s.paused) await api('PUT', '/api/me/push', { body: { off: false } });
      store.set('all', 'on');
      return 'push_all_on';
    }];
    if (!s.on) return [on];
    return [['push_all_off_button', 'push-all-off', async () => {
      await api('PUT', '/api/me/push', { body: { off: true } });
      store.set('all', 'off');
      return 'push_off';
    }]];
  });
  const from = h('input', { type: 'time', class: 'link', value: hhmm(22 * 60), 'data-field': 'quiet-from', 'aria-label': t('push_quiet_from') });
  const to = h('input', { type: 'time', class: 'link', value: hhmm(7 * 60), 'data-field': 'quiet-to', 'aria-label': t('push_quiet_to') });
  const quiet = h('form', { class: 'push-row', style: { ...ROW, alignItems: 'center' }, onsubmit: async (e) => {
    e.preventDefault();
    const a = minutes(from.value), b = minutes(to.value);
    if (a === null || b === null) { toast(t('push_quiet_bad'), 'error'); return; }
    try {
      await api('PUT', '/api/me/push', { body: { quiet_from: a, quiet_to: b, tz_offset: -new Date().getTimezoneOffset() } });
      toast(t('push_quiet_saved', { from: hhmm(a), to: hhmm(b) }));
    } catch (err) {
      toast(said(err), 'error');
    }
  } }, h('span', null, t('push_quiet')), from, to,
  h('button', { class: 'btn', type: 'submit', 'data-action': 'push-quiet' }, t('save')));
  return h('div', { class: 'push-account' }, ...parts, control.el, quiet);
}
