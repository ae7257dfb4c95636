// The player's devices, in the home screen: "Link a device" shows a one-time code (and its QR
// image) with a countdown, for another device to type or scan; "I have a code" signs this
// device in with a code made on another (asking first whether this device's guest tables go
// with it); the signed-in devices, each of which can be signed out.  Above them, the ways
// to sign in: "Add a passkey", "Add an e-mail address" (when the server sends mail), and
// the passkeys and address the player has, each removable.
import { api, getMe, myServerTables } from './api.js';
import { accountDataPanel } from './account_data.js';
import { pushAccountPanel } from './push.js';
import { lang, t } from './i18n.js';
import { h, fill, toast, showDialog } from './ui.js';
import { createPasskey, noPasskeysKey, passkeysSupported, passkeyTrouble } from './passkey.js';

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
    this.methodsBox = h('div', { class: 'methods', 'data-sign-in-methods': '' });
    this.el = h('section', { class: 'panel account', 'data-section': 'account' },
      h('h2', null, t('sign_in_methods')),
      this.methodsBox,
      h('h2', null, t('link_devices')),
      h('button', { class: 'btn', type: 'button', 'data-action': 'link-device',
        onclick: (e) => this.makeCode(e.currentTarget) }, t('link_device')),
      this.codeBox,
      h('h3', null, t('link_have_code')),
      h('form', { class: 'join-form', onsubmit: (e) => { e.preventDefault(); this.useCode(e.submitter); } },
        this.input,
        h('button', { class: 'btn', type: 'submit', 'data-action': 'use-code' }, t('link_sign_in'))),
      // never an empty box: "Loading…" while the list comes, a line when it is empty (issue 43)
      h('details', { class: 'sessions-box', ontoggle: (e) => { if (e.target.open) this.loadSessions(); } },
        h('summary', { 'data-action': 'show-sessions' }, t('sessions')), this.sessionsBox),
      pushAccountPanel(), // push notices for every table: push.js
      accountDataPanel()); // tokens, export, delete: account_data.js
    this.loadMethods();
    if (code) {
      setTimeout(() => {
        if (!this.el.isConnected) return;
        this.el.scrollIntoView({ block: 'center' });
        this.input.focus();
      }, 0);
    }
  }

  async loadMethods() {
    let me;
    try { me = await getMe(); } catch { return; }
    const list = me.sign_in_methods || [];
    const when = (iso) => {
      try { return new Date(iso).toLocaleDateString(lang()); } catch { return iso; }
    };
    const rows = list.map((m) => h('li', { 'data-method': m.type, 'data-method-id': m.id || m.address },
      h('span', { class: 'device', dir: 'auto' },
        m.type === 'passkey' ? (m.name || 'Passkey') : t('method_email', { address: m.address })),
      m.type === 'passkey' ? h('small', { class: 'sub' }, m.last_used
        ? t('passkey_used', { added: when(m.created), when: when(m.last_used) })
        : t('passkey_unused', { added: when(m.created) })) : null,
      h('button', { class: 'btn small', type: 'button', 'data-action': `remove-${m.type}`,
        onclick: (e) => this.removeMethod(m, e.currentTarget) }, t('remove'))));
    const add = h('button', { class: 'btn', type: 'button', 'data-action': 'add-passkey',
      onclick: (e) => this.addPasskey(e.currentTarget) }, t('passkey_add'));
    // where passkeys cannot be made here, a line says why and what signs in instead
    this.passkeyNote = h('p', { class: 'sub', 'data-passkey-note': '', hidden: true });
    if (!passkeysSupported()) {
      add.disabled = true;
      add.title = t(noPasskeysKey());
      this.passkeyNote.textContent = t(noPasskeysKey());
      this.passkeyNote.hidden = false;
    }
    const address = h('input', { type: 'email', autocomplete: 'email', 'data-field': 'add-email',
      placeholder: t('email_placeholder'), 'aria-label': t('email_add'), required: true });
    const mail = me.email_available ? h('form', { class: 'join-form', 'data-form': 'add-email',
      onsubmit: (e) => { e.preventDefault(); this.addEmail(address, e.submitter); } },
    address, h('button', { class: 'btn', type: 'submit', 'data-action': 'add-email' }, t('email_send'))) : null;
    fill(this.methodsBox,
      list.length ? h('ul', { class: 'sessions' }, rows) : h('p', { class: 'sub', 'data-guest': '' }, t('sign_in_none')),
      add, this.passkeyNote,
      mail ? h('h3', null, t('email_add')) : null, mail);
  }

  async addPasskey(button) {
    button.disabled = true;
    try {
      const options = await api('POST', '/api/me/passkeys/options');
      let credential;
      try {
        credential = await createPasskey(options);
      } catch (e) {
        const trouble = passkeyTrouble(e);
        toast(trouble ? t(trouble.key) : `${t('error')}: ${e.message}`, 'error', trouble && trouble.local ? 12000 : undefined);
        if (trouble && trouble.local) {
          this.passkeyNote.textContent = t(trouble.key);
          this.passkeyNote.hidden = false;
        }
        return;
      }
      await api('POST', '/api/me/passkeys', { body: { credential, name: deviceName() } });
      toast(t('passkey_added'));
      this.loadMethods();
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
    } finally {
      button.disabled = false;
    }
  }

  async addEmail(input, button) {
    if (button) button.disabled = true;
    try {
      const r = await api('POST', '/api/me/email', { body: { address: input.value } });
      toast(t('email_confirm_sent', { address: r.address }));
      input.value = '';
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
    } finally {
      if (button) button.disabled = false;
    }
  }

  async removeMethod(m, button) {
    button.disabled = true;
    try {
      if (m.type === 'passkey') {
        await api('DELETE', `/api/me/passkeys/${encodeURIComponent(m.id)}`);
        toast(t('passkey_removed'));
      } else {
        await api('DELETE', '/api/me/email');
        toast(t('email_removed'));
      }
      this.loadMethods();
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      button.disabled = false;
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
      if (r.refused && r.refused.length) toast(t('merge_refused', { n: r.refused.length }), 'error');
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
    if (!this.sessionsBox.querySelector('[data-session]')) {
      fill(this.sessionsBox, h('li', { class: 'sub', 'data-sessions-loading': '' }, t('loading')));
    }
    try {
      list = await api('GET', '/api/me/sessions');
    } catch (e) {
      fill(this.sessionsBox, h('li', { class: 'sub' }, `${t('error')}: ${e.message}`));
      return;
    }
    const when = (iso) => {
      try { return new Date(iso).toLocaleString(lang()); } catch { return iso; }
    };
    if (!Array.isArray(list) || !list.length) {
      fill(this.sessionsBox, h('li', { class: 'sub', 'data-sessions-none': '' }, t('sessions_none')));
      return;
    }
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

/** A name for a new passkey: the kind of device it was added on. */
function deviceName() {
  const ua = navigator.userAgent || '';
  const kind = /iPhone|iPad/.test(ua) ? 'iOS' : /Android/.test(ua) ? 'Android'
    : /Mac OS X/.test(ua) ? 'Mac' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : '';
  return kind ? `Passkey (${kind})` : 'Passkey';
}
