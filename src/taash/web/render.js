// The table's parts drawn from its view: the title bar, the trick on the felt (with what the
// game shows beside it) and the status line.  `tb` is the table (table.js); what differs by
// game comes from its renderer, tb.game.
import { backEl, cardEl, cardName } from './cards.js';
import { t } from './i18n.js';
import { flyIn, playKey } from './motion.js';
import { startTable } from './acting.js';
import { awayAt } from './seats.js';
import { h, fill } from './ui.js';

export function renderBar(tb) {
  const v = tb.view;
  const dealNo = (v.deal_number || 0) + (v.phase === 'over' ? 0 : 1);
  const o = v.options || {};
  const sub = [v.over ? t('match_over') : tb.game.dealText(o, dealNo)];
  const goal = tb.game.goalText(o);
  if (goal) sub.push(goal);
  fill(tb.titleEl, h('h1', null, t(`game_${v.game}`)), h('small', null, sub.join(' · ')), tb.watchEl);
  tb.lastTrickBtn.disabled = !v.last_trick;
  tb.hintBtn.disabled = !tb.token || !(v.legal_actions || []).length;
}

/** The trick in progress, or the one just completed (held for a moment with its winner),
 * and beside it what the game shows there. */
export function renderTrick(tb) {
  const v = tb.view;
  const done = tb.shownTrick;
  const plays = done ? done.plays : tb.game.trick(v);
  const topSeat = tb.game.topSeat(v, done);
  // the plays not drawn before fly in, from the hand (this seat's) or from their seat; on the
  // table's first drawing nothing flies (the trick was there before the page)
  const first = tb.trickKeys === undefined;
  const before = tb.trickKeys || new Set();
  const from = tb.flyFrom || new Map();
  const fresh = [];
  const slots = plays.map((p) => {
    // A pass lies face down, one's own too (its cards are named for the player who made it).
    const down = !p.cards || p.verb === 'pass';
    const cards = down
      ? Array.from({ length: p.count }, () => backEl({ small: true }))
      : p.cards.map((c) => cardEl(c, { trump: v.trump, small: true }));
    // the play of this seat says so: "You", or "You · Beat" (issue 43)
    const own = p.seat === tb.me();
    const verb = tb.game.playLabel(p);
    const label = own ? (verb ? `${t('you')} · ${verb}` : t('you')) : verb;
    const mine = down && p.cards ? t('your_pass', { cards: p.cards.map(cardName).join(', ') }) : null;
    // to a screen reader a play is a group named for its player (and verb), its cards inside
    const who = verb ? `${tb.name(p.seat)} · ${verb}` : tb.name(p.seat);
    const el = h('div', {
      class: `play at-${tb.pos(p.seat)}${p.seat === topSeat ? ' top' : ''}${p.verb === 'pass' ? ' passed' : ''}${own ? ' mine' : ''}`,
      'data-seat': p.seat, 'data-verb': p.verb, title: mine, role: 'group', 'aria-label': mine || who,
    }, h('div', { class: 'play-cards' }, cards), label ? h('span', { class: 'play-label' }, label) : null);
    if (!first && !before.has(playKey(p))) fresh.push({ el, from: from.get(playKey(p)) });
    return el;
  });
  tb.trickKeys = new Set(plays.map(playKey));
  tb.trick.classList.toggle('done', !!done);
  tb.trick.style.setProperty('--pace', `${tb.pace}ms`);
  if (done) {
    tb.trick.dataset.winner = tb.pos(done.winner);
    slots.push(h('div', { class: 'trick-won' }, t('won_by', { name: tb.name(done.winner) })));
  } else {
    delete tb.trick.dataset.winner;
  }
  // the double-sar pile; under a trick just won, the pile as it was (the trick sweeps onto
  // it, or it sweeps with the trick to its collector: data-sweep)
  if (done && done.sweep) tb.trick.dataset.sweep = done.sweep;
  else delete tb.trick.dataset.sweep;
  const pile = done ? done.pile || 0 : v.pile || 0;
  if (pile > 0) { // under the plays: a trick swept onto it lands on top
    slots.unshift(h('div', { class: 'pile', title: t('pile'), 'data-pile': String(pile) },
      Array.from({ length: Math.min(pile, 4) }, () => backEl({ small: true })),
      h('span', { class: 'stock-count' }, String(pile))));
  }
  if (!plays.length && v.phase === 'trump' && v.caller !== tb.me()) {
    slots.push(h('div', { class: 'trick-note' }, t('waiting_trump', { name: tb.name(v.caller) })));
  }
  // Plays of two or more cards (Goat) are laid out in a grid sized to fit, not at the four
  // sides, where they would lie over each other.
  const k = Math.max(0, ...plays.map((p) => p.count));
  tb.trick.classList.toggle('big', k > 1);
  tb.trick.dataset.k = String(k);
  fill(tb.trick, ...slots);
  fitTrick(tb);
  fill(tb.info2, ...tb.game.infoEls(v));
  flyIn(fresh);
}

/** Where each play about to be drawn for the first time comes from, read before the table is
 * drawn anew (so reading it costs no extra layout): by play, a rectangle on the screen. */
export function flightOrigins(tb) {
  const v = tb.view;
  const out = new Map();
  if (tb.trickKeys === undefined || !v) return out;
  const plays = tb.shownTrick ? tb.shownTrick.plays : tb.game.trick(v);
  for (const p of plays) {
    const key = playKey(p);
    if (!tb.trickKeys.has(key)) out.set(key, origin(tb, p));
  }
  return out;
}

/** Where a play comes from on the screen: this seat's cards in its hand (still there: the
 * hand is drawn after the trick), else the seat that played it. */
function origin(tb, p) {
  if (p.seat === tb.me() && p.cards) {
    const card = tb.handBox.querySelector(`[data-card="${p.cards[0]}"]`);
    if (card) return card.getBoundingClientRect();
  }
  const seat = tb.seatEls[tb.pos(p.seat)];
  return seat && !seat.hidden ? seat.getBoundingClientRect() : null;
}

/** Size a big trick's cards so that every play of k cards (each card after the first showing
 * half of itself, its rank and suit in the corner) fits the space, laid out in whichever way
 * gives the biggest cards: in rows (top / left and right / bottom: a phone upright), in
 * columns (left / top and bottom / right) or in one line (left, top, bottom, right: a phone
 * held sideways).  Called on each render and whenever the space changes. */
export function fitTrick(tb) {
  const el = tb.trick;
  el.style.removeProperty('--sw');
  if (!el.classList.contains('big')) {
    delete el.dataset.layout;
    return;
  }
  const base = parseFloat(getComputedStyle(el).getPropertyValue('--sw')) || 52;
  const u = 1 + (Number(el.dataset.k) - 1) * 0.5; // a play's width, in card widths
  const W = el.clientWidth - 8;
  const H = el.clientHeight - 4;
  const label = 18; // a play's label under its cards
  const won = 30; // the row saying who won the trick
  const fit = (cols, rows) => Math.min(base, (W - 10 * (cols - 1)) / (u * cols),
    (H - won - rows * label - 4 * rows) / (rows * 1.42));
  const two = tb.numSeats() === 2;
  const sizes = two ? { rows: fit(1, 2), line: fit(2, 1) }
    : { rows: fit(2, 3), cols: fit(3, 2), line: fit(4, 1) };
  const best = Object.keys(sizes).reduce((a, b) => (sizes[b] > sizes[a] ? b : a));
  el.dataset.layout = best;
  el.style.setProperty('--sw', `${Math.max(20, Math.floor(sizes[best]))}px`);
  el.style.setProperty('--u', String(u));
}

export function renderStatus(tb) {
  const v = tb.view;
  const me = tb.me();
  let text;
  let cls = '';
  if (v.over) {
    // Once a seat has asked for the rematch, the others are asked to join it.
    const ready = !!(tb.info && tb.info.rematch);
    const label = t(ready ? 'rematch_join' : 'rematch');
    const inDialog = document.querySelector("dialog[data-dialog='match-summary'] [data-action='rematch']");
    if (inDialog) {
      inDialog.textContent = label;
      inDialog.dataset.ready = String(ready);
    }
    fill(tb.status, h('span', { class: 'result' }, tb.game.resultText(v)),
      tb.token ? h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch', 'data-ready': String(ready), onclick: () => tb.rematch() }, label) : null,
      h('button', { class: 'btn', type: 'button', 'data-action': 'summary', onclick: () => tb.summaries.showMatch() }, t('summary')));
    tb.status.className = 'status over';
    return;
  }
  const waits = tb.waitingFor();
  if (waits.length) { // a live table waiting for its invited friends: or start it now
    const names = waits.map((s) => tb.name(s)).join(', ');
    tb.status.className = 'status waiting';
    fill(tb.status, h('span', null, t('waiting_join', { names })),
      me !== null ? h('button', { class: 'btn primary', type: 'button', 'data-action': 'start-table', onclick: () => startTable(tb) }, t('start_now')) : null);
    return;
  }
  const mover = v.phase === 'trump' ? v.caller : v.to_move;
  if (me !== null && awayAt(tb, mover)) { // never this seat, nor a seat that is not there
    // the table does not stall: the turn timer's bot plays for a friend who left
    text = t(tb.info.turn_ends ? 'waiting_away_timer' : 'waiting_away', { name: tb.name(mover) });
  } else if (v.phase === 'trump') {
    text = v.caller === me ? t('call_trump') : t('waiting_trump', { name: tb.name(v.caller) });
  } else if (v.phase !== 'play') {
    text = t('dealing');
  } else if (tb.yourTurn()) {
    cls = 'turn';
    text = tb.game.turnText(v);
  } else if (me === null) {
    text = `${t('watching')} · ${t('waiting_for', { name: tb.name(v.to_move) })}`;
  } else {
    text = tb.game.waitingText(v, t('waiting_for', { name: tb.name(v.to_move) }));
  }
  tb.status.className = `status ${cls}`;
  fill(tb.status, h('span', null, text));
}
