// A friend's challenge as a live notice, with Accept and Decline, on the home page (fed by the
// friends panel, which asks the server every few seconds) and on a table's page (which asks
// here, less often).  A notice sits in a row of the page's own (never over a control), takes
// no focus (its buttons are in the tab order), and goes when the challenge is answered,
// withdrawn or expired.  The challenges already open when the page first asks are listed on
// the home page, not announced: only those that come while a page is open are.
import { api } from './api.js';
import { t } from './i18n.js';
import { h, toast } from './ui.js';

const TABLE_POLL_MS = 8000;
const seen = new Set(); // challenge ids this page has heard of (kept across its screens)
let primed = false;

/** Show the new challenges of `received` (GET /api/me/challenges) in `box`; drop the notices
 * of those no longer there. */
export function noticeChallenges(box, received, navigate, me) {
  const open = new Map(received.map((ch) => [ch.id, ch]));
  for (const el of box.querySelectorAll('[data-challenge-notice]')) {
    if (!open.has(el.dataset.challengeNotice)) el.remove();
  }
  for (const ch of received) {
    const fresh = !seen.has(ch.id);
    seen.add(ch.id);
    if (!fresh || !primed) continue;
    const mine = (ch.invited || []).find((i) => i.player === me);
    if (mine && mine.state !== 'open') continue;
    box.append(notice(ch, navigate));
  }
  primed = true;
}

function notice(ch, navigate) {
  const game = t(`game_${ch.game}`);
  const text = t('challenge_toast', { name: ch.from.name, game });
  const el = h('div', { class: 'challenge-notice', role: 'group', 'data-challenge-notice': ch.id,
    'aria-label': t('challenge_notice_label', { name: ch.from.name }) },
  h('span', null, text, ' ', h('small', null, ch.live ? t('live') : t('play_anytime'))), ' ',
  h('span', { class: 'challenge-notice-actions' },
    h('button', { class: 'btn small primary', type: 'button', 'data-action': 'notice-accept',
      onclick: () => answer(el, ch, true, navigate) }, t('accept')),
    h('button', { class: 'btn small', type: 'button', 'data-action': 'notice-decline',
      onclick: () => answer(el, ch, false, navigate) }, t('decline'))));
  return el;
}

async function answer(el, ch, accept, navigate) {
  for (const b of el.querySelectorAll('button')) b.disabled = true;
  try {
    const r = await api('POST', `/api/me/challenges/${ch.id}/${accept ? 'accept' : 'decline'}`);
    el.remove();
    if (accept && r.url) navigate(r.url);
    else if (accept) toast(t('challenge_waiting'));
  } catch (e) {
    el.remove();
    toast(e.message, 'error');
  }
}

/** A table's page: ask for challenges every few seconds while it is shown; notices go in
 * `box` (the table's message row).  Returns the function that stops it. */
export function watchChallenges(box, navigate, me) {
  let stopped = false;
  const ask = async () => {
    if (stopped || document.hidden) return;
    let c;
    try {
      c = await api('GET', '/api/me/challenges');
    } catch {
      return; // no session, or offline: the next round asks again
    }
    if (!stopped) noticeChallenges(box, c.received, navigate, me());
  };
  ask();
  const timer = setInterval(ask, TABLE_POLL_MS);
  return () => { stopped = true; clearInterval(timer); };
}
