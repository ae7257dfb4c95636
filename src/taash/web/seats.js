// The seats around the felt: who sits there, their cards' backs, the dealer and caller
// (in words), and the turn timer counting down on the seat to move.
import { t } from './i18n.js';
import { h, fill } from './ui.js';
import { knownMe } from './api.js';

const POSITIONS = { 2: ['bottom', 'top'], 4: ['bottom', 'left', 'top', 'right'] };
export const PLACES = ['top', 'left', 'right', 'bottom'];

/** Whether seat `s` is a friend who came to this live table and has left it (no connection
 * now): marked at their seat, and the status says who plays for them (issue 43). */
export function awayAt(tb, s) {
  const info = tb.info;
  const seat = info && info.seats && info.seats[s];
  return !!(info && info.live && !info.over && seat && seat.type === 'human'
    && seat.claimed !== false && seat.connected === false && s !== tb.me());
}

/** Where a seat shows from this seat's side (the bottom). */
export function place(seat, me, n) {
  return POSITIONS[n][(seat - (me ?? 0) + n) % n];
}

/** Seconds as a clock: 0:09, 4:05, 1:02:03 (a play-anytime turn may last hours). */
const clockText = (sec) => {
  const hh = Math.floor(sec / 3600), mm = Math.floor((sec % 3600) / 60), ss = sec % 60;
  const two = (x) => String(x).padStart(2, '0');
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
};

/** The turn timer's countdown on the seat to move, by the server's clock (clockOffset: the
 * server's clock minus this one). */
export function tickTimers(root, info, clockOffset) {
  const ends = info && info.turn_ends ? Date.parse(info.turn_ends) : NaN;
  for (const el of root.querySelectorAll('.seat .timer')) {
    if (Number.isNaN(ends)) { el.remove(); continue; }
    const left = Math.max(0, Math.ceil((ends - (Date.now() + clockOffset)) / 1000));
    el.textContent = clockText(left);
    el.dataset.left = String(left);
    el.classList.toggle('low', left <= 10);
  }
}

/** This player's own name at the table: a link to their profile (ratings, stats, history). */
function myName(tb, name) {
  const href = `/p/${encodeURIComponent(knownMe().id)}`;
  return h('a', { href, 'data-action': 'my-profile', class: 'my-name',
    onclick: (e) => { e.preventDefault(); tb.navigate(href); } }, name);
}

/** Fill the seat elements (by place) for the table's view and seat info. */
/** How many watch the table (its info's `spectators`, shown to everyone at it), and to a
 * spectator how far behind the table is shown (`spectator_delay`: docs/spectators.md). */
export function renderWatchers(tb) {
  const el = tb.watchEl;
  const info = tb.info;
  if (!el || !info) return;
  const n = info.spectators || 0;
  const delay = info.spectator_delay;
  const parts = [];
  if (n > 0) parts.push(t('spectators_n', { n }));
  if (tb.me() === null && !info.over && (delay === 'trick' || delay === 'deal')) parts.push(t(`behind_${delay}`));
  el.hidden = !parts.length;
  el.dataset.spectators = String(n);
  el.textContent = parts.join(' · ');
}

export function renderSeats(tb) {
  const v = tb.view;
  const n = tb.numSeats();
  const me = tb.me();
  const used = new Set();
  for (let s = 0; s < n; s++) {
    const pos = tb.pos(s);
    used.add(pos);
    const el = tb.seatEls[pos];
    const info = tb.seatInfo(s);
    const count = (v.hand_counts || [])[s] || 0;
    const badges = [];
    // The roles in words (a touch screen never shows a hover title), under the name.
    if (v.dealer === s) badges.push(h('span', { class: 'badge', 'data-role': 'dealer' }, t('dealer')));
    if (v.caller === s) badges.push(h('span', { class: 'badge caller', 'data-role': 'caller' }, t('caller')));
    const turn = !v.over && v.to_move === s;
    el.dataset.seat = String(s);
    el.dataset.turn = turn ? 'true' : 'false';
    el.dataset.team = n === 4 ? String(s % 2) : String(s);
    el.hidden = false;
    const sub = [];
    if (s !== me) {
      if (n === 4 && me !== null) sub.push(s % 2 === me % 2 ? t('partner') : t('opponent'));
      else if (info.type === 'bot') sub.push(t(`level_${info.level || 'easy'}`));
      if (info.type === 'human' && info.claimed === false) sub.push(t('not_joined'));
      else if (awayAt(tb, s)) sub.push(t('seat_away')); // a friend who left a live table
    }
    const online = info.type === 'human' && s !== me
      ? h('span', { class: `dot${info.connected ? ' on' : ''}`, title: info.connected ? t('online') : t('offline') }) : null;
    const mini = pos === 'bottom' ? null : h('div', { class: 'mini-hand', title: t('n_cards', { n: count }), 'data-count': count },
      h('span', { class: 'backs', 'aria-hidden': 'true' }, Array.from({ length: Math.min(count, 8) }, () => h('i'))),
      h('span', { class: 'n' }, String(count)));
    const timer = turn && tb.info && tb.info.turn_ends
      ? h('span', { class: 'timer', title: t('time_left'), role: 'timer' }) : null;
    fill(el,
      h('div', { class: 'avatar', 'aria-hidden': 'true' }, (tb.name(s)[0] || '?').toUpperCase()),
      h('div', { class: 'who' },
        // the name's ellipsis is its own: the presence dot beside it is never cut (issue 43)
        h('b', null, h('span', { class: 'name' }, s === me && knownMe() ? myName(tb, tb.name(s)) : tb.name(s)), online),
        sub.length ? h('small', null, sub.join(' · ')) : null, timer,
        badges.length ? h('div', { class: 'badges' }, badges) : null),
      mini);
  }
  for (const pos of PLACES) if (!used.has(pos)) tb.seatEls[pos].hidden = true;
  tickTimers(tb.root, tb.info, tb.clockOffset);
  renderWatchers(tb);
}
