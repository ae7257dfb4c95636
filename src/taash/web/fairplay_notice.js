// A fair-play decision told to the player it is about (docs/fairplay.md, "In the server"): on
// the home page, a notice of each warning, ban from rated play or ban lifted that they have not
// read yet, in plain words (what it means, whom to write to), until they say they have read
// it; then never again (the server keeps that, on every device of theirs).  Nothing of the
// evidence or of who decided reaches the page: GET /api/me/fairplay has none of it.
import { api } from './api.js';
import { t } from './i18n.js';
import { h, fill, toast } from './ui.js';

const KINDS = new Set(['warned', 'banned', 'lifted']);

/** Ask for the player's notices and show them in `box` (hidden when there are none). */
export async function showFairPlayNotices(box) {
  let got;
  try {
    got = await api('GET', '/api/me/fairplay');
  } catch {
    return; // no session yet, offline, or an older server: nothing to tell
  }
  render(box, got);
}

function render(box, got) {
  const ask = got.contact ? t('fairplay_notice_contact', { contact: got.contact })
    : t('fairplay_notice_contact_host');
  const shown = (got.notices || []).filter((n) => KINDS.has(n.kind));
  fill(box, ...shown.map((n) => {
    const title = h('h2', { id: `fairplay-notice-${n.id}` }, t('fairplay_notice_title'));
    const ok = h('button', { class: 'btn small primary', type: 'button', 'data-action': 'fairplay-notice-read',
      onclick: () => read(box, n.id, ok) }, t('fairplay_notice_ok'));
    return h('section', { class: 'fairplay-notice', 'data-fairplay-notice': n.id, 'data-kind': n.kind,
      'aria-labelledby': title.id },
    title,
    h('p', { class: 'fairplay-notice-text' }, t(`fairplay_notice_${n.kind}`)),
    h('p', { class: 'fairplay-notice-contact' }, ask),
    ok);
  }));
  box.hidden = !shown.length;
}

async function read(box, id, button) {
  button.disabled = true;
  try {
    render(box, await api('POST', `/api/me/fairplay/notices/${encodeURIComponent(id)}/seen`));
  } catch (e) {
    button.disabled = false;
    toast(e.message, 'error');
  }
}
