// What every game's renderer shares.  The table (table.js) keeps the connection, the view, the
// seats, the status line, the dialogs and the timers; a renderer (one per game, chosen once by
// the game id: games/index.js) says what is particular to its game:
//
//   seats                      the number of seats
//   dealText(o, n), goalText(o) the title bar's words: deal n of the match, what ends it
//   scoreChips(v)              the chips above the felt
//   trick(v)                   the trick in progress as plays [{seat, verb, cards|null, count}]
//   completedTrick(prev, v, events, ev)  the trick an event just completed: {winner, plays}
//   lastTrick(lt)              the view's last trick as plays
//   topSeat(v, done), playLabel(p)  Goat marks the cards on top and names each play's verb
//   infoEls(v)                 beside the trick: the trump sign, the stock, the cards out of play
//   turnText(v), waitingText(v, text)  the status line on this seat's turn, or while waiting
//   resultText(v)              the match's result
//   actions(v)                 the action buttons under the status line, and their row's class
//   handItems(v, cards, marks) the hand's cards with their marks (see hand.js)
//   cardActivated(code), posted(cards), hinted(action), update(v)  the player's gestures
//   picksCards                 cards picked, then played by a verb (the keys' list says so)
//   clearSelection()           Escape: the cards picked (or the card lifted) let go; whether any was
//   turnSentence(v)            on this seat's turn, what the rules ask of it now, said (keys.js)
//   mark(el, v)                the table element's data-* marks of this game
//   dealTitle(n), dealRows(deal, match), historyLine(d, pair)  the end-of-deal summaries
//   sheetHead(), sheetRow(d, run)  the score sheet: its column headings, and a finished deal's
//                              row (run: the running totals, carried from deal to deal)
import { SUIT_SIGN } from '../cards.js';
import { t } from '../i18n.js';
import { h } from '../ui.js';

export const cardsOf = (action) => {
  const i = action.indexOf(':');
  return i < 0 ? [] : action.slice(i + 1).split(',').filter(Boolean);
};
export const verbOf = (action) => action.split(':')[0];
export const pair = (a, b) => `${a} – ${b}`;

export function chip(label, value, extra = {}) {
  return h('div', { class: 'chip', ...extra }, h('span', { class: 'chip-label' }, label),
    h('span', { class: 'chip-value' }, value));
}

/** The trump chip: the suit, or while it is being called, "calling". */
export function trumpChip(v) {
  if (v.trump) {
    // the sign hidden from a screen reader: the suit's name follows it
    return chip(t('trump'), h('span', { class: `suit-sign suit-${v.trump}` },
      h('span', { 'aria-hidden': 'true' }, SUIT_SIGN[v.trump]), ' ', t(`suit_${v.trump}`)), { 'data-trump': v.trump });
  }
  return chip(t('trump'), v.phase === 'trump' ? t('calling') : '—');
}

/** A score table: the first row and column are headings (an empty corner is no heading). */
export function scoreTable(rows) {
  return h('table', { class: 'score-table' }, rows.map((r, i) => h('tr', null,
    r.map((c, j) => h((i === 0 || j === 0) && c !== '' ? 'th' : 'td',
      i === 0 && c !== '' ? { scope: 'col' } : j === 0 && i > 0 ? { scope: 'row' } : null,
      String(c ?? ''))))));
}

export class GameRenderer {
  constructor(table) {
    this.table = table;
  }

  get seats() { return 4; }

  /** Are cards picked, then played by a verb's button (Goat), rather than played by a tap? */
  get picksCards() { return false; }

  /** This seat's side (team, or seat in a two-seat game); side 0 when watching. */
  mySide() {
    const me = this.table.me();
    if (me === null) return 0;
    return this.seats === 2 ? me : me % 2;
  }

  /** Marks on the table element for this game (data-*). */
  mark() {}

  topSeat() { return null; }

  playLabel() { return null; }

  waitingText(v, text) { return text; }

  update() {}

  posted() {}

  hinted() {}

  clearSelection() { return false; }

  turnSentence(v) { return t('say_sentence', { text: this.turnText(v) }); }

  dealTitle(n) { return t('deal_over_n', { n }); }

  /** The side that won a deal (its summary or deal_over event), or null (no winner). */
  dealWinner(d) { return typeof d.winner === 'number' ? d.winner : null; }
}
