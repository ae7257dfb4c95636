// What the two Court Piece games share: one card a play, a trump call before the play, the
// trump sign beside the trick, a card played by a tap.
import { backEl, SUIT_SIGN } from '../cards.js';
import { t } from '../i18n.js';
import { h } from '../ui.js';
import { liftOn } from '../play_options.js';
import { GameRenderer, scoreTable } from './base.js';

export class TrickGame extends GameRenderer {
  trick(v) {
    return (v.trick || []).map((p) => ({ seat: p.seat, verb: 'play', cards: [p.card], count: 1 }));
  }

  /** A trick event carries its leader and cards. */
  completedTrick(prev, v, events, ev) {
    const n = this.table.numSeats();
    return {
      winner: ev.winner,
      plays: ev.cards.map((c, i) => ({ seat: (ev.leader + i) % n, verb: 'play', cards: [c], count: 1 })),
    };
  }

  lastTrick(lt) {
    return lt.cards.map((c) => ({ seat: c.seat, verb: 'play', cards: [c.card], count: 1 }));
  }

  infoEls(v) {
    if (!v.trump) return [];
    const out = v.out_of_play && v.phase !== 'over'
      ? h('div', { class: 'stock out', title: t('out_of_play', { n: v.out_of_play }) }, backEl({ small: true }),
        h('span', { class: 'stock-count', role: 'img', 'aria-label': t('out_of_play', { n: v.out_of_play }) }, String(v.out_of_play)))
      : null;
    return [h('div', { class: `trump-sign suit-${v.trump}`, title: t('trump') }, SUIT_SIGN[v.trump]), out];
  }

  /** What the rules ask of this seat's play now, for the status line and the sentence said
   * alike: the suit led (null: this seat leads), how many of it the hand holds, how many cards
   * may be played, and whether that is fewer than the hand (the follow rule binds). */
  playRule(v) {
    const hand = v.hand || [];
    const legal = (v.legal_actions || []).filter((a) => a.startsWith('play:')).length;
    const led = (v.trick || [])[0];
    const suit = led ? led.card[1] : null;
    return { suit, held: suit ? hand.filter((c) => c[1] === suit).length : 0, legal,
      restricted: legal < hand.length };
  }

  turnText(v) {
    const r = this.playRule(v);
    return r.suit && r.restricted ? t('your_turn_follow', { suit: t(`suit_${r.suit}`) }) : t('your_turn_play');
  }

  /** Said on this seat's turn: the call, or the card the rules allow ("Your turn. You must
   * follow hearts: you hold 3."). */
  turnSentence(v) {
    if (v.phase === 'trump') return t('say_turn_call');
    const r = this.playRule(v);
    if (!r.suit) return r.restricted ? t('say_turn_lead_some', { n: r.legal }) : t('say_turn_lead');
    const suit = t(`suit_${r.suit}_of`);
    if (!r.held) return t('say_turn_void', { suit });
    return r.restricted ? t('say_turn_follow', { suit, n: r.held }) : t('say_turn_any');
  }

  /** Escape: a card lifted ("tap to lift") goes back. */
  clearSelection() {
    if (!this.lifted) return false;
    this.lifted = null;
    return true;
  }

  resultText(v) {
    const mt = v.match || {};
    if (mt.winner === 'draw') return t('draw');
    if (mt.winner === null || mt.winner === undefined) return t('match_over');
    return this.table.said(mt.winner, 'match_won');
  }

  /** The four suits to call trump with, on the caller's turn to call. */
  actions(v) {
    const tb = this.table;
    if (v.phase !== 'trump' || v.caller !== tb.me() || tb.me() === null) {
      return { className: 'actions', buttons: [] };
    }
    const legal = v.legal_actions || [];
    const hinted = new Set(v.trump_hint || []);
    const buttons = ['S', 'H', 'D', 'C'].map((s) => {
      const ok = legal.includes(`trump:${s}`);
      return h('button', {
        class: `btn suit-btn suit-${s}${hinted.has(s) ? ' suggested' : ''}${tb.hint && tb.hint.action === `trump:${s}` ? ' hinted' : ''}`,
        type: 'button', 'data-action': `trump:${s}`, 'aria-disabled': ok ? 'false' : 'true',
        onclick: () => tb.act(`trump:${s}`),
      }, h('span', { class: 'suit-sign', 'aria-hidden': 'true' }, SUIT_SIGN[s]), h('span', null, t(`suit_${s}`)),
      hinted.has(s) ? h('small', null, t('most_held')) : null);
    });
    return { className: 'actions trump-call', buttons };
  }

  handItems(v, cards, { pending, hinted }) {
    const legal = v.legal_actions || [];
    const playable = new Set(legal.filter((a) => a.startsWith('play:')).map((a) => a.slice(5)));
    const turn = this.table.yourTurn() && v.phase === 'play';
    if (this.lifted && !cards.includes(this.lifted)) this.lifted = null;
    return cards.map((code) => ({
      code, playable: playable.has(code), pending: pending.has(code),
      hinted: hinted.has(code), dim: turn && !playable.has(code), lifted: this.lifted === code,
    }));
  }

  /** A tap plays the card; with "tap to lift" on (play_options.js), a first tap lifts it and
   * a second tap on it plays it (a tap on another card lifts that one instead). */
  cardActivated(code) {
    const tb = this.table;
    if (liftOn() && this.lifted !== code) {
      this.lifted = code;
      tb.renderHand();
      return;
    }
    this.lifted = null;
    tb.act(`play:${code}`, [code]);
  }

  /** The deal's headline, its trump and a table: tricks, then the game's own rows. */
  dealRows(d, match) {
    const tb = this.table;
    const my = this.mySide();
    const tr = d.tricks || [0, 0];
    let head = tb.said(d.winner, 'deal_won');
    if (d.coat) head += ` · ${t('coat')}!`;
    if (d.court) head += ` · ${t('court')}!`;
    const rows = [h('p', { class: 'headline' }, head)];
    if (d.trump) rows.push(h('p', null, `${t('trump')}: `, h('span', { class: `suit-sign suit-${d.trump}`, 'aria-hidden': 'true' }, SUIT_SIGN[d.trump]), ` ${t(`suit_${d.trump}`)}`));
    rows.push(scoreTable([['', tb.sideName(my), tb.sideName(1 - my)], [t('tricks'), tr[my], tr[1 - my]],
      ...this.matchRows(d, match, my)]));
    return rows;
  }

  /** The score sheet's cells a trick game shares: the trump, the tricks and who won. */
  sheetHead() { return [t('trump'), t('tricks'), t('sheet_winner')]; }

  sheetRow(d, run, side) {
    const tb = this.table;
    let won = tb.sideName(d.winner);
    if (d.coat) won += ` · ${t('coat')}`;
    if (d.court) won += ` · ${t('court')}`;
    return [d.trump ? `${SUIT_SIGN[d.trump]} ${t(`suit_${d.trump}`)}` : '—', side(d.tricks), won];
  }

  historyLine(d, side) {
    return `${this.table.said(d.winner, 'deal_won')} (${side(d.tricks)})${d.coat ? ` · ${t('coat')}` : ''}${d.court ? ` · ${t('court')}` : ''}`;
  }
}
