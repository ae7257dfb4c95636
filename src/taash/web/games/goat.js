// Goat (Kozel): a trick is a lead of k cards that each seat beats or passes face down, the
// cards on top winning it; the player selects k cards, then taps lead, beat or pass.  A
// molodka may be played at any moment.
import { backEl, cardEl, cardName } from '../cards.js';
import { lang, t } from '../i18n.js';
import { h, toast } from '../ui.js';
import { cardsOf, chip, GameRenderer, pair, scoreTable, trumpChip, verbOf } from './base.js';

const setKey = (verb, cards) => `${verb}:${cards.slice().sort().join(',')}`;

/** A Goat trick's plays as the page shows them, from the plays of a view (its trick or last
 * trick) or of action events: {seat, verb, cards (null: face down), count}. */
const goatTrick = (plays) => (plays || []).map((p) => ({
  seat: p.seat, verb: p.verb, cards: p.cards || null,
  count: p.count ?? (p.cards ? p.cards.length : 1),
}));

/** An action event as a play: a pass shows only its count. */
const eventPlay = (e) => ({ seat: e.seat, verb: e.verb || verbOf(e.action || ''),
  cards: e.action ? cardsOf(e.action) : null, count: e.count });

export class Goat extends GameRenderer {
  constructor(table) {
    super(table);
    this.selected = new Set(); // the cards the player has picked for the next action
  }

  get picksCards() { return true; }

  dealText(o, n) { return t('game_no', { n }); }

  goalText(o) { return o.target ? t('goat_at_n', { n: o.target }) : null; }

  mark(el, v) { el.dataset.k = String(v.k || 0); }

  scoreChips(v) {
    const tb = this.table;
    const my = this.mySide();
    const tr = v.tricks || [0, 0];
    const df = (v.match && v.match.defeat) || [0, 0];
    const out = [];
    if (!v.over) {
      out.push(trumpChip(v));
      out.push(chip(t('tricks'), `${tb.teamName(my)} ${tr[my]} · ${tb.teamName(1 - my)} ${tr[1 - my]}`,
        { 'data-score': 'tricks' }));
    }
    out.push(chip(t('defeat'), `${pair(df[my], df[1 - my])} / ${(v.options || {}).target}`,
      { 'data-score': 'defeat' }));
    return out;
  }

  trick(v) { return goatTrick(v.trick); }

  /** The view's last trick while the deal goes on; the trick that ended a deal, from the
   * trick before and the actions that completed it. */
  completedTrick(prev, v, events, ev) {
    if (v.last_trick && v.last_trick.plays && v.deal_number === prev.deal_number) {
      return { winner: v.last_trick.winner, plays: goatTrick(v.last_trick.plays) };
    }
    const plays = [...prev.trick || [], ...events.filter((e) => e.type === 'action').map(eventPlay)];
    return { winner: ev.winner, plays: goatTrick(plays) };
  }

  lastTrick(lt) { return goatTrick(lt.plays); }

  /** The cards on top: of the trick in progress, or of the trick just won (its winner's). */
  topSeat(v, done) { return done ? done.winner : v.top_seat; }

  playLabel(p) { return t(`verb_${p.verb}`); }

  /** The stock with the trump card shown under it.  The trump card is the stock's last card:
   * with one card left it shows alone, and once drawn it is in a hand, not here (issue 43). */
  infoEls(v) {
    if (!v.trump_card) return [];
    return [h('div', { class: 'stock', 'data-stock': String(v.stock), title: t('stock_n', { n: v.stock }) },
      v.stock > 1 ? backEl({ small: true }) : null,
      v.stock > 0 ? cardEl(v.trump_card, { trump: v.trump, small: true }) : null,
      h('span', { class: 'stock-count', role: 'img', 'aria-label': t('stock_n', { n: v.stock }) }, String(v.stock)))];
  }

  turnText(v) {
    return (v.trick || []).length ? t('goat_answer', { n: v.k }) : t('goat_lead');
  }

  /** Said on this seat's turn: lead or answer, and the cards picked so far. */
  turnSentence(v) {
    const said = [(v.trick || []).length ? t('say_goat_answer', { n: v.k }) : t('say_goat_lead')];
    const list = new Intl.ListFormat(lang(), { type: 'conjunction' });
    if (this.selected.size) said.push(t('say_selected', { cards: list.format([...this.selected].map(cardName)) }));
    if (v.can_molodka) said.push(t('say_molodka_ready'));
    return said.join(' ');
  }

  /** Escape: the cards picked are let go. */
  clearSelection() {
    if (!this.selected.size) return false;
    this.selected.clear();
    this.table.hint = null;
    return true;
  }

  waitingText(v, text) {
    return v.can_molodka ? `${text} · ${t('molodka_ready')}` : text;
  }

  resultText(v) {
    const mt = v.match || {};
    if (mt.loser === null || mt.loser === undefined) return t('match_over');
    return this.table.said(mt.loser, 'goat');
  }

  /** Lead, beat and pass, enabled for exactly the selection they take; the molodka when the
   * seat holds one. */
  actions(v) {
    const tb = this.table;
    if (tb.me() === null || v.phase !== 'play') return { className: 'actions', buttons: [] };
    const legal = v.legal_actions || [];
    const sel = [...this.selected];
    const keys = new Set(legal.map((a) => setKey(verbOf(a), cardsOf(a))));
    const hinted = tb.hint && tb.hint.action ? verbOf(tb.hint.action) : null;
    const buttons = ['lead', 'beat', 'pass'].map((verb) => {
      const ok = sel.length > 0 && keys.has(setKey(verb, sel));
      return h('button', {
        class: `btn verb${ok ? ' primary' : ''}${hinted === verb ? ' hinted' : ''}`, type: 'button',
        'data-action': verb, 'aria-disabled': ok ? 'false' : 'true',
        onclick: () => this.verb(verb),
      }, t(`verb_${verb}`));
    });
    const molodka = legal.find((a) => a.startsWith('molodka:'));
    if (molodka) {
      buttons.push(h('button', {
        class: 'btn molodka primary', type: 'button', 'data-action': 'molodka',
        onclick: () => tb.act(molodka, cardsOf(molodka)),
      }, t('verb_molodka')));
    }
    return { className: `actions goat${tb.yourTurn() ? '' : ' idle'}`, buttons };
  }

  /** A verb tapped: the legal action of that verb with the selected cards (in its order),
   * else the selection as it is, for the server to say why not. */
  verb(verb) {
    const sel = [...this.selected];
    if (!sel.length) {
      toast(t('select_cards'));
      return;
    }
    const legal = (this.table.view.legal_actions || []).find((a) => setKey(verbOf(a), cardsOf(a)) === setKey(verb, sel));
    this.table.act(legal || `${verb}:${sel.join(',')}`, sel);
  }

  handItems(v, cards, { pending, hinted }) {
    const usable = new Set((v.legal_actions || []).flatMap(cardsOf));
    return cards.map((code) => ({
      code, playable: usable.has(code), selected: this.selected.has(code),
      pending: pending.has(code), hinted: hinted.has(code),
      dim: this.table.yourTurn() && !usable.has(code),
    }));
  }

  /** A tap on a card selects it, or unselects it. */
  cardActivated(code) {
    const tb = this.table;
    if (this.selected.has(code)) this.selected.delete(code);
    else this.selected.add(code);
    tb.hint = null;
    tb.renderActions();
    tb.renderHand();
  }

  update(v) {
    const hand = new Set(v.hand || []);
    for (const c of [...this.selected]) if (!hand.has(c)) this.selected.delete(c);
  }

  posted(cards) {
    for (const c of cards) this.selected.delete(c);
  }

  /** A hint selects its cards (a molodka is a button of its own). */
  hinted(action) {
    if (!action.startsWith('molodka:')) this.selected = new Set(cardsOf(action));
  }

  dealTitle(n) { return t('game_over_n', { n }); }

  /** The team that won a game: the other team took defeat points; eggs (60-60): none. */
  dealWinner(d) {
    if (d.eggs || !d.defeat) return null;
    return d.defeat[0] > 0 ? 1 : 0;
  }

  dealRows(d, match) {
    const tb = this.table;
    const my = this.mySide();
    const pts = d.points || [0, 0];
    const df = d.defeat || [0, 0];
    const rows = [];
    if (d.eggs) rows.push(h('p', { class: 'headline' }, t('eggs')));
    else {
      const loser = df[0] > 0 ? 0 : 1;
      rows.push(h('p', { class: 'headline' }, tb.said(1 - loser, 'game_won', { points: pts[1 - loser] })));
    }
    rows.push(scoreTable([
      ['', tb.teamName(my), tb.teamName(1 - my)],
      [t('card_points'), pts[my], pts[1 - my]],
      [t('defeat_taken'), df[my], df[1 - my]],
      [t('defeat_total'), (match.defeat || [])[my], (match.defeat || [])[1 - my]],
    ]));
    return rows;
  }

  sheetHead() { return [t('card_points'), t('defeat_taken'), t('defeat_total')]; }

  /** Each game's card points and defeat points (eggs named), and the defeat points so far. */
  sheetRow(d, run, side) {
    run.defeat = run.defeat || [0, 0];
    const df = d.defeat || [0, 0];
    run.defeat = [run.defeat[0] + df[0], run.defeat[1] + df[1]];
    return [d.eggs ? `${side(d.points)} · ${t('sheet_eggs')}` : side(d.points), side(df), side(run.defeat)];
  }

  historyLine(d, side) {
    return d.eggs ? t('eggs') : `${t('card_points')} ${side(d.points)} · ${t('defeat')} ${side(d.defeat)}`;
  }
}
