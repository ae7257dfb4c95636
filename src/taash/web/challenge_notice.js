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

// -- the challenger told: "Dima accepted: open the table" (issue 43) -------------------------
const ANSWER_POLL_MS = 5000;
const TOLD = 'taash.challenges_told'; // ids of answered challenges this browser has told of

function told() {
  try { return new Set(JSON.parse(localStorage.getItem(TOLD) || '[]')); } catch { return new Set(); }
}

function tell(id) {
  const all = [...told().add(id)].slice(-50);
  try { localStorage.setItem(TOLD, JSON.stringify(all)); } catch { /* private mode: told this once */ }
}

/** Tell of the challenges in `answered` (GET /api/me/challenges' `answered`) not told of yet:
 * an accepted one as a notice in `box` with a button to its table, a declined one in a toast. */
export function noticeAnswers(box, answered, navigate) {
  const done = told();
  for (const ch of answered || []) {
    if (done.has(ch.id) || box.querySelector(`[data-challenge-answer="${ch.id}"]`)) continue;
    const names = (ch.invited || []).map((i) => i.name).join(', ') || ch.to.name;
    if (ch.state === 'declined') {
      tell(ch.id);
      toast(t('challenge_declined_by', { name: names, game: t(`game_${ch.game}`) }));
      continue;
    }
    if (ch.state !== 'accepted' || !ch.table) continue;
    const el = h('div', { class: 'challenge-notice', role: 'group', 'data-challenge-answer': ch.id },
      h('span', null, t('challenge_accepted_by', { name: names }), ' ', h('small', null, t(`game_${ch.game}`))), ' ',
      h('span', { class: 'challenge-notice-actions' },
        h('button', { class: 'btn small primary', type: 'button', 'data-action': 'answer-open-table',
          onclick: () => { tell(ch.id); el.remove(); navigate(`/t/${encodeURIComponent(ch.table)}?seat=0`); } },
        t('go_to_table')),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'answer-dismiss', 'aria-label': t('close'),
          onclick: () => { tell(ch.id); el.remove(); } }, '×')));
    box.append(el);
  }
}

/** The home page: ask for the player's challenges now, then every few seconds while one they
 * sent is open (every third time otherwise: one may be sent from another page or device), and
 * tell of those answered.  Returns the function that stops it. */
export function watchAnswers(box, navigate) {
  let stopped = false;
  let waiting = false; // a challenge the player sent is open
  let tick = 0;
  const ask = async () => {
    tick += 1;
    if (stopped || document.hidden || (!waiting && tick % 3 !== 1)) return;
    let c;
    try {
      c = await api('GET', '/api/me/challenges');
    } catch {
      return; // no session, or offline: the next round asks again
    }
    if (stopped) return;
    waiting = (c.sent || []).length > 0;
    noticeAnswers(box, c.answered, navigate);
  };
  ask();
  const timer = setInterval(ask, ANSWER_POLL_MS);
  return () => { stopped = true; clearInterval(timer); };
}
