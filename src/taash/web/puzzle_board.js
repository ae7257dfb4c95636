// A puzzle's position (issue 49), drawn with the table's own cards (cards.js) and hand
// (hand.js: press a card and release on it to play it, as at the table; Enter or Space from the
// keyboard).  A puzzle is made with every hand open, so the other seats' hands are shown face
// up, as the server sends them; the trick on the table shows Goat's passes face down.  Goat's
// cards are picked, then played by a verb's button, as at the table (games/goat.js).  After the
// attempt the board marks the player's move and the solution and takes no more moves.
import { backEl, cardEl, cardName, sortHand, SUIT_SIGN } from './cards.js';
import { gameOf } from './catalogue.js';
import { cardsOf, verbOf } from './games/base.js';
import { Hand } from './hand.js';
import { t } from './i18n.js';
import { h, fill, toast } from './ui.js';

/** An action's key: its verb and its cards sorted (Goat's cards in any order are one move). */
export const keyOf = (action) => `${verbOf(action)}:${[...cardsOf(action)].sort().join(',')}`;

/** The mover's side (their team's index, or their seat where everyone plays alone). */
export function sideOf(view, seat) {
  const i = (view.teams || []).findIndex((team) => team.includes(seat));
  return i >= 0 ? i : seat;
}

/** Who sits at `seat`, seen from the mover's place (the bottom). */
export function seatName(view, me, seat, n) {
  if (seat === me) return t('you');
  if (sideOf(view, seat) === sideOf(view, me)) return t('partner');
  if (n === 2) return t('opponent');
  return (seat - me + n) % n === 1 ? t('puzzle_left') : t('puzzle_right');
}

/** A row of small face-up cards (a hand, a play), marks as data-mark. */
export function cardRow(cards, trump, marks = {}) {
  return h('span', { class: 'review-cards', dir: 'ltr' }, cards.map((c) => {
    const el = cardEl(c, { small: true, trump });
    if (marks[c]) el.dataset.mark = marks[c];
    return el;
  }));
}

export class PuzzleBoard {
  constructor(puzzle, onMove) {
    Object.assign(this, { p: puzzle, v: puzzle.view, me: puzzle.seat, onMove });
    this.n = puzzle.hands.length;
    this.sets = !!(gameOf(puzzle.game) || {}).plays_card_sets; // Goat: cards picked, then a verb
    this.selected = new Set();
    this.done = null; // the attempt's answer, once made
    this.legal = puzzle.view.legal_actions || [];
    this.el = h('section', { class: 'puzzle-board', 'data-puzzle': puzzle.id, 'data-game': puzzle.game,
      'data-seat': String(puzzle.seat), 'aria-label': t('puzzle_position') });
    this.handBox = h('div', { class: 'hand my-turn', 'data-hand': '', dir: 'ltr', role: 'group',
      'aria-label': t('your_hand') });
    this.actionsBox = h('div', { class: 'actions goat', 'data-actions': '' });
    this.hand = new Hand(this.handBox, (code) => this.activated(code));
    fill(this.el, this.info(), this.others(), this.table(), this.handBox, this.actionsBox);
    this.renderHand();
  }

  destroy() { this.hand.destroy(); }

  name(seat) { return seatName(this.v, this.me, seat, this.n); }

  /** The trump and the tricks taken so far by each side. */
  info() {
    const v = this.v;
    const parts = [];
    if (v.trump) {
      parts.push(h('span', { class: 'chip', 'data-trump': v.trump }, `${t('trump')}: `,
        h('span', { class: `suit-sign suit-${v.trump}`, 'aria-hidden': 'true' }, SUIT_SIGN[v.trump]), ` ${t(`suit_${v.trump}`)}`));
    }
    if (Array.isArray(v.tricks)) {
      const mine = sideOf(v, this.me);
      parts.push(h('span', { class: 'chip', 'data-score': 'tricks' },
        `${t('tricks')}: ${t('us')} ${v.tricks[mine]} · ${t('them')} ${v.tricks[1 - mine]}`));
    }
    return h('p', { class: 'puzzle-info' }, parts);
  }

  /** The other seats' hands, face up: the puzzle is made with every hand open. */
  others() {
    const rows = [];
    for (let k = 1; k < this.n; k++) {
      const seat = (this.me + k) % this.n;
      rows.push(h('div', { class: 'review-hand', 'data-open-hand': String(seat) },
        h('span', { class: 'who' }, this.name(seat)),
        cardRow(sortHand(this.p.hands[seat] || [], this.p.game, this.v.trump), this.v.trump)));
    }
    return h('div', { class: 'review-table review-hands', 'data-section': 'open-hands' }, rows);
  }

  /** The trick on the table: each play with its player (Goat: its verb; a pass face down). */
  table() {
    const plays = (this.v.trick || []).map((p) => {
      const cards = p.card ? [p.card] : p.cards || null;
      return h('div', { class: 'review-play', 'data-play': String(p.seat) },
        h('span', { class: 'who' }, this.name(p.seat), p.verb ? ` · ${t(`verb_${p.verb}`)}` : ''),
        cards ? cardRow(cards, this.v.trump)
          : h('span', { class: 'review-cards' }, Array.from({ length: p.count || 1 }, () => backEl({ small: true }))));
    });
    return h('div', { class: 'review-table review-trick', 'data-section': 'trick' },
      h('span', { class: 'ex-label' }, t('rules_on_table')),
      plays.length ? plays : h('p', { class: 'muted' }, t('puzzle_you_lead')));
  }

  usable() {
    return new Set(this.legal.flatMap(cardsOf));
  }

  renderHand() {
    const usable = this.usable();
    const marks = this.marks || {};
    const cards = sortHand(this.p.hands[this.me] || [], this.p.game, this.v.trump);
    this.hand.update(cards.map((code) => ({
      code, playable: !this.done && usable.has(code), selected: this.selected.has(code),
      dim: !this.done && !usable.has(code), hinted: marks[code] === 'solution',
    })), this.v.trump);
    for (const [code, mark] of Object.entries(marks)) {
      const el = this.handBox.querySelector(`[data-card="${code}"]`);
      if (el) el.dataset.mark = mark;
    }
    this.handBox.classList.toggle('my-turn', !this.done);
    this.renderActions();
  }

  /** Goat's verbs, each enabled for exactly the cards picked; the molodka where it is a move. */
  renderActions() {
    if (!this.sets || this.done) { fill(this.actionsBox); return; }
    const keys = new Set(this.legal.map(keyOf));
    const sel = [...this.selected];
    const buttons = ['lead', 'beat', 'pass'].map((verb) => {
      const ok = sel.length > 0 && keys.has(keyOf(`${verb}:${sel.join(',')}`));
      return h('button', { class: `btn verb${ok ? ' primary' : ''}`, type: 'button', 'data-action': verb,
        'aria-disabled': ok ? 'false' : 'true', onclick: () => this.verb(verb) }, t(`verb_${verb}`));
    });
    const molodka = this.legal.find((a) => verbOf(a) === 'molodka');
    if (molodka) {
      buttons.push(h('button', { class: 'btn molodka primary', type: 'button', 'data-action': 'molodka',
        onclick: () => this.move(molodka) }, t('verb_molodka')));
    }
    fill(this.actionsBox, buttons);
  }

  activated(code) {
    if (this.done) return;
    if (!this.sets) {
      this.move(`play:${code}`);
      return;
    }
    if (this.selected.has(code)) this.selected.delete(code);
    else this.selected.add(code);
    this.renderHand();
  }

  verb(verb) {
    const sel = [...this.selected];
    if (!sel.length) { toast(t('select_cards')); return; }
    const key = keyOf(`${verb}:${sel.join(',')}`);
    this.move(this.legal.find((a) => keyOf(a) === key) || `${verb}:${sel.join(',')}`);
  }

  move(action) {
    if (!this.done) this.onMove(action);
  }

  /** The attempt's answer: the player's move and the solution marked; no more moves. */
  reveal(answer) {
    this.done = answer;
    this.selected.clear();
    const marks = {};
    for (const c of cardsOf(answer.action)) marks[c] = 'chosen';
    for (const a of answer.solution) for (const c of cardsOf(a)) marks[c] = 'solution';
    this.marks = marks;
    this.el.dataset.done = answer.solved ? 'right' : 'wrong';
    this.renderHand();
  }

  /** A play as words with its cards: "Partner · Beat [K♥]". */
  play(seat, action) {
    const verb = verbOf(action);
    const cards = cardsOf(action);
    return h('span', { class: 'review-play', 'data-seat': String(seat), 'data-action': action },
      h('span', { class: 'who' }, this.name(seat), verb !== 'play' ? ` · ${t(`verb_${verb}`)}` : ''),
      cardRow(cards, this.v.trump), h('span', { class: 'sr-only' }, cards.map(cardName).join(', ')));
  }

  /** The best line after the solution, a trick to a line: the first ends the trick the
   * solution was played to (each seat plays once to a trick), then one per trick. */
  line(continuation) {
    const n = this.n;
    const first = (n - (this.v.trick || []).length - 1 + n) % n;
    const tricks = [];
    let at = 0;
    for (let size = first || n; at < continuation.length; size = n) {
      tricks.push(continuation.slice(at, at + size));
      at += size;
    }
    return h('ol', { class: 'puzzle-tricks', 'data-line': '' }, tricks.map((plays) => h('li', null,
      plays.map((x) => this.play(x.seat, x.action)))));
  }
}
