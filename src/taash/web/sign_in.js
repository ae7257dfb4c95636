// Signing in on the home screen: "Sign in with a passkey" (any passkey of this site, no name
// typed) and "Sign in by e-mail" (a one-time link; offered only when the server sends mail),
// the e-mail links themselves (/email/confirm#… and /email/sign-in#…, whose secret the page
// posts), and after a sign-in the question whether this browser's guest tables come along.
import { api } from './api.js';
import { t } from './i18n.js';
import { h, toast, showDialog } from './ui.js';
import { getPasskey, noPasskeysKey, passkeysSupported, passkeyTrouble } from './passkey.js';

/** The sign-in section; `me`: GET /api/me's answer; `done`: called once signed in. */
export function signInPanel({ me, done }) {
  const status = h('p', { class: 'sub', 'data-sign-in-status': '', 'aria-live': 'polite' });
  const passkey = h('button', { class: 'btn primary', type: 'button', 'data-action': 'passkey-sign-in',
    onclick: (e) => signInWithPasskey(e.currentTarget, status, done) }, t('passkey_sign_in'));
  // where passkeys cannot be used here, a line says why and what signs in instead
  const note = passkeysSupported() ? null : h('p', { class: 'sub', 'data-passkey-note': '' }, t(noPasskeysKey()));
  if (note) {
    passkey.disabled = true;
    passkey.title = t(noPasskeysKey());
  }
  const address = h('input', { type: 'email', autocomplete: 'email', 'data-field': 'sign-in-email',
    placeholder: t('email_placeholder'), 'aria-label': t('email_sign_in'), required: true });
  const mail = me && me.email_available ? h('form', { class: 'join-form', 'data-form': 'email-sign-in',
    onsubmit: async (e) => {
      e.preventDefault();
      const button = e.submitter;
      if (button) button.disabled = true;
      try {
        await api('POST', '/api/sign-in/email', { body: { address: address.value } });
        status.textContent = t('email_sign_in_sent');
        status.dataset.sent = '1';
      } catch (err) {
        toast(`${t('error')}: ${err.message}`, 'error');
      } finally {
        if (button) button.disabled = false;
      }
    } },
  address, h('button', { class: 'btn', type: 'submit', 'data-action': 'email-sign-in' }, t('email_send'))) : null;
  return h('section', { class: 'panel sign-in', 'data-section': 'sign-in' },
    h('h2', null, t('sign_in_title')), passkey, note,
    mail ? h('h3', null, t('email_sign_in')) : null, mail, status);
}

async function signInWithPasskey(button, status, done) {
  button.disabled = true;
  try {
    const options = await api('POST', '/api/sign-in/passkey/options');
    let credential;
    try {
      credential = await getPasskey(options);
    } catch (e) {
      const trouble = passkeyTrouble(e);
      toast(trouble ? t(trouble.key) : `${t('error')}: ${e.message}`, 'error', trouble && trouble.local ? 12000 : undefined);
      if (trouble && trouble.local) status.textContent = t(trouble.key);
      return;
    }
    const r = await api('POST', '/api/sign-in/passkey', { body: { credential } });
    await afterSignIn(r);
    done(r);
  } catch (e) {
    toast(`${t('error')}: ${e.message}`, 'error');
    status.textContent = e.message;
  } finally {
    button.disabled = false;
  }
}

/** After any sign-in: say who this browser is now and, when its guest had tables, ask
 * whether they come along (the server moves them, save those at tables the account sits at). */
export async function afterSignIn(r) {
  toast(t('signed_in_as', { name: r.player.name }));
  if (r.guest_tables || r.shared_tables) await guestQuestion(r.guest_tables + r.shared_tables);
}

/** Ask about the `n` tables of the guest this browser was, and send the answer. */
export async function guestQuestion(n) {
  const merge = await askMerge(n);
  if (merge === null) return; // closed unanswered: asked again on the next visit
  try {
    const out = await api('POST', '/api/me/merge', { body: { merge } });
    if (out.merged.length) toast(t('merge_done', { n: out.merged.length }));
    if (out.refused.length) toast(t('merge_refused', { n: out.refused.length }), 'error');
  } catch (e) {
    toast(`${t('error')}: ${e.message}`, 'error');
  }
}

/** "Bring these N tables into your account?": true, false, or null (closed unanswered). */
function askMerge(n) {
  return new Promise((resolve) => {
    let answer = null;
    showDialog({
      name: 'merge', title: t('merge_title'),
      body: h('p', { 'data-merge-count': String(n) }, t('merge_body', { n })),
      actions: [
        { label: t('merge_yes'), action: 'merge-yes', primary: true, onClick: () => { answer = true; } },
        { label: t('merge_no'), action: 'merge-no', onClick: () => { answer = false; } },
      ],
      onClose: () => resolve(answer),
    });
  });
}

/** An e-mail link opened (`kind` "confirm" or "sign-in", `token` the secret after its #):
 * the address confirmed, or this browser signed in; then `done`. */
export async function openEmailLink(kind, token, done) {
  try {
    if (kind === 'confirm') {
      const r = await api('POST', '/api/email/confirm', { body: { token } });
      toast(t('email_confirmed', { address: r.address }));
    } else {
      const r = await api('POST', '/api/sign-in/email/link', { body: { token } });
      await afterSignIn(r);
    }
  } catch (e) {
    toast(`${t('error')}: ${e.message}`, 'error');
  }
  done();
}
