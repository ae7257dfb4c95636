// The player's programs and data, in the account panel: personal API tokens (made, listed,
// revoked; a new token is shown once, with a copy button), "Download my data" (the JSON
// export) and "Delete my account" (asked in a dialog where a word must be typed).  Names and
// everything the server sends are set as text, never as markup.
import { api } from './api.js';
import { lang, t } from './i18n.js';
import { h, fill, toast, showDialog, copyText } from './ui.js';

/** The section; `deleted`: called once the account is gone (the page starts over). */
export function accountDataPanel({ deleted } = {}) {
  return new AccountData(deleted || (() => location.assign('/'))).el;
}

const when = (iso) => {
  if (!iso) return t('token_never_used');
  try { return new Date(iso).toLocaleString(lang()); } catch { return iso; }
};

class AccountData {
  constructor(deleted) {
    this.deleted = deleted;
    this.list = h('ul', { class: 'tokens', 'data-tokens': '' });
    this.shown = h('div', { class: 'token-shown', 'data-token-box': '', hidden: true });
    this.name = h('input', { type: 'text', maxlength: 24, placeholder: t('token_name'),
      'aria-label': t('token_name'), 'data-field': 'token-name', required: true });
    this.play = h('input', { type: 'checkbox', checked: true, 'data-field': 'token-play' });
    this.read = h('input', { type: 'checkbox', checked: true, 'data-field': 'token-read' });
    this.el = h('div', { class: 'account-data', 'data-section': 'account-data' },
      h('details', { class: 'tokens-box', ontoggle: (e) => { if (e.target.open) this.load(); } },
        h('summary', { 'data-action': 'show-tokens' }, t('tokens')),
        h('p', { class: 'sub' }, t('tokens_hint')),
        h('form', { class: 'token-form', onsubmit: (e) => { e.preventDefault(); this.create(e.submitter); } },
          this.name,
          h('label', null, this.play, ' ', t('token_scope_play')),
          h('label', null, this.read, ' ', t('token_scope_read')),
          h('button', { class: 'btn', type: 'submit', 'data-action': 'create-token' }, t('token_create'))),
        this.shown,
        this.list),
      h('h3', null, t('my_data')),
      h('p', null,
        h('button', { class: 'btn', type: 'button', 'data-action': 'download-data',
          onclick: (e) => this.download(e.currentTarget) }, t('download_data')),
        ' ',
        h('button', { class: 'btn danger', type: 'button', 'data-action': 'delete-account',
          onclick: () => this.askDelete() }, t('delete_account'))));
  }

  async load() {
    let tokens;
    try {
      tokens = await api('GET', '/api/me/tokens');
    } catch (e) {
      fill(this.list, h('li', { class: 'sub' }, `${t('error')}: ${e.message}`));
      return;
    }
    if (!tokens.length) {
      fill(this.list, h('li', { class: 'sub', 'data-no-tokens': '' }, t('no_tokens')));
      return;
    }
    fill(this.list, tokens.map((k) => h('li', { 'data-token': k.id },
      h('b', { dir: 'auto', 'data-token-name': '' }, k.name),
      ' ',
      h('small', { class: 'sub' }, k.scopes.map((s) => t(`token_scope_${s}`)).join(', ')),
      ' ',
      h('small', { class: 'sub' }, t('token_last_used', { when: when(k.last_used) })),
      ' ',
      h('button', { class: 'btn small', type: 'button', 'data-action': 'revoke-token',
        onclick: (e) => this.revoke(k.id, e.currentTarget) }, t('token_revoke')))));
  }

  async create(button) {
    const name = this.name.value.trim();
    const scopes = [this.play.checked && 'play', this.read.checked && 'read'].filter(Boolean);
    if (!name) { this.name.focus(); return; }
    if (!scopes.length) { toast(t('token_needs_scope'), 'error'); return; }
    if (button) button.disabled = true;
    let made;
    try {
      made = await api('POST', '/api/me/tokens', { body: { name, scopes } });
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      return;
    } finally {
      if (button) button.disabled = false;
    }
    this.name.value = '';
    const field = h('input', { type: 'text', readonly: true, value: made.token, dir: 'ltr',
      class: 'token-value', 'data-new-token': '', 'aria-label': t('token_once'),
      onfocus: (e) => e.target.select() });
    fill(this.shown,
      h('p', { class: 'sub' }, t('token_once')),
      field,
      h('button', { class: 'btn small', type: 'button', 'data-action': 'copy-token',
        onclick: async () => {
          if (await copyText(made.token, field)) toast(t('token_copied'));
        } }, t('copy')));
    this.shown.hidden = false;
    this.load();
  }

  async revoke(id, button) {
    button.disabled = true;
    try {
      await api('DELETE', `/api/me/tokens/${encodeURIComponent(id)}`);
      toast(t('token_revoked'));
      if (this.shown.querySelector('[data-new-token]')) fill(this.shown);
      this.shown.hidden = true;
      this.load();
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      button.disabled = false;
    }
  }

  async download(button) {
    button.disabled = true;
    try {
      const data = await api('GET', '/api/me/export');
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const a = h('a', { href: url, download: `taash-data-${data.profile.id}.json`, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
    } finally {
      button.disabled = false;
    }
  }

  askDelete() {
    const word = t('delete_word');
    const field = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false',
      'data-field': 'delete-confirm', 'aria-label': t('delete_type', { word }) });
    const why = h('p', { class: 'sub', 'data-delete-why': '' });
    showDialog({
      name: 'delete-account', title: t('delete_account'),
      body: h('div', null,
        h('p', null, t('delete_body')),
        h('p', null, t('delete_type', { word })),
        field, why),
      actions: [
        { label: t('delete_account'), action: 'confirm-delete', primary: true,
          onClick: async () => {
            if (field.value.trim().toLowerCase() !== word.toLowerCase()) {
              why.textContent = t('delete_type', { word });
              field.focus();
              return false;
            }
            try {
              await api('DELETE', '/api/me', { body: { confirm: 'delete' } });
            } catch (e) {
              why.textContent = `${t('error')}: ${e.message}`;
              return false;
            }
            toast(t('account_deleted'));
            this.deleted();
            return true;
          } },
        { label: t('delete_keep'), action: 'cancel-delete' },
      ],
    });
    setTimeout(() => field.focus(), 0);
  }
}
