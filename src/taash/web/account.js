// The player's devices, in the home screen: "Link a device" shows a one-time code (and its QR
// image) with a countdown, for another device to type or scan; "I have a code" signs this
// device in with a code made on another (asking first whether this device's guest tables go
// with it); the signed-in devices, each of which can be signed out.
import { api, myServerTables } from './api.js';
import { accountDataPanel } from './account_data.js';
import { pushAccountPanel } from './push.js';
import { lang, t } from './i18n.js';
import { h, fill, toast, showDialog } from './ui.js';

/** The section; `code`: a code to fill in (the /link?code= address); `linked`: called once
 * this device is signed in as another player. */
export function accountPanel({ code, linked }) {
  const panel = new Account(code, linked);
  return panel.el;
}

class Account {
  constructor(code, linked) {
    this.linked = linked;
    this.codeBox = h('div', { class: 'link-code', 'data-link-box': '', hidden: true });
    this.input = h('input', { type: 'text', autocomplete: 'one-time-code', autocapitalize: 'characters',
      spellcheck: 'false', maxlength: 12, placeholder: 'XXXX-XXXX', value: code || '',
      'aria-label': t('link_have_code'), 'data-field': 'link-code' });
    this.sessionsBox = h('ul', { class: 'sessions', 'data-sessions': '' });
    this.el = h('section', { class: 'panel account', 'data-section': 'account' },
      h('h2', null, t('link_devices')),
      h('button', { class: 'btn', type: 'button', 'data-action': 'link-device',
        onclick: (e) => this.makeCode(e.currentTarget) }, t('link_device')),
      this.codeBox,
      h('h3', null, t('link_have_code')),
      h('form', { class: 'join-form', onsubmit: (e) => { e.preventDefault(); this.useCode(e.submitter); } },
        this.input,
        h('button', { class: 'btn', type: 'submit', 'data-action': 'use-code' }, t('link_sign_in'))),
      h('details', { class: 'sessions-box', ontoggle: (e) => { if (e.target.open) this.loadSessions(); } },
        h('summary', { 'data-action': 'show-sessions' }, t('sessions')), this.sessionsBox),
      pushAccountPanel(), // push notices for every table: push.js
      accountDataPanel()); // tokens, export, delete: account_data.js
    if (code) {
      setTimeout(() => {
        if (!this.el.isConnected) return;
        this.el.scrollIntoView({ block: 'center' });
        this.input.focus();
      }, 0);
    }
  }

  async makeCode(button) {
    button.disabled = true;
    let made;
    try {
      made = await api('POST', '/api/me/link');
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      return;
    } finally {
      button.disabled = false;
    }
    clearInterval(this.timer);
    const ends = Date.now() + made.expires_in * 1000;
    const left = h('span', { 'data-link-countdown': '' });
    const qr = made.qr_svg ? h('img', { class: 'link-qr', alt: t('link_qr'), 'data-link-qr': '',
      src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(made.qr_svg)}` }) : null;
    fill(this.codeBox,
      h('p', { class: 'sub' }, t('link_code_hint')),
      h('p', { class: 'code', 'data-link-code': made.code, dir: 'ltr' }, made.code),
      qr, h('p', { class: 'sub' }, left));
    this.codeBox.hidden = false;
    const tick = () => {
      const s = Math.max(0, Math.round((ends - Date.now()) / 1000));
      if (!this.el.isConnected) { clearInterval(this.timer); return; }
      if (s === 0) {
        clearInterval(this.timer);
        fill(this.codeBox, h('p', { class: 'sub', 'data-link-expired': '' }, t('link_expired')));
        return;
      }
      const mmss = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
      left.textContent = t('link_expires_in', { time: mmss });
    };
    tick();
    this.timer = setInterval(tick, 1000);
  }

  async useCode(button) {
    const code = this.input.value.trim();
    if (!code) { this.input.focus(); return; }
    let guestTables = [];
    try { guestTables = await myServerTables(); } catch { /* none known: nothing to ask */ }
    const merge = guestTables.length ? await this.askMerge(guestTables.length) : false;
    if (merge === null) return;
    if (button) button.disabled = true;
    try {
      const r = await api('POST', '/api/link', { body: { code, merge } });
      toast(t('link_done', { name: r.player.name }));
      this.linked();
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      this.input.select();
    } finally {
      if (button) button.disabled = false;
    }
  }

  /** true: bring this device's guest tables along; false: leave them; null: cancelled. */
  askMerge(n) {
    return new Promise((resolve) => {
      let answer = null;
      showDialog({
        name: 'link-merge', title: t('link_merge_title'),
        body: h('p', null, t('link_merge_body', { n })),
        actions: [
          { label: t('link_merge_yes'), action: 'merge', primary: true, onClick: () => { answer = true; } },
          { label: t('link_merge_no'), action: 'no-merge', onClick: () => { answer = false; } },
        ],
        onClose: () => resolve(answer),
      });
    });
  }

  async loadSessions() {
    let list;
    try {
      list = await api('GET', '/api/me/sessions');
    } catch (e) {
      fill(this.sessionsBox, h('li', { class: 'sub' }, `${t('error')}: ${e.message}`));
      return;
    }
    const when = (iso) => {
      try { return new Date(iso).toLocaleString(lang()); } catch { return iso; }
    };
    fill(this.sessionsBox, list.map((s) => h('li', { 'data-session': s.id },
      h('span', { class: 'device', dir: 'auto' }, s.device || t('unknown_device')),
      h('small', { class: 'sub' }, t('last_seen', { when: when(s.last_seen) })),
      s.current ? h('b', { 'data-session-current': '' }, t('this_device'))
        : h('button', { class: 'btn small', type: 'button', 'data-action': 'end-session',
          onclick: (e) => this.endSession(s.id, e.currentTarget) }, t('sign_out')))));
  }

  async endSession(id, button) {
    button.disabled = true;
    try {
      await api('DELETE', `/api/me/sessions/${encodeURIComponent(id)}`);
      toast(t('signed_out_device'));
      this.loadSessions();
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      button.disabled = false;
    }
  }
}
