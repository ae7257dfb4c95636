// Court Piece, four seats in two teams: tricks (or, with double sar, tricks collected and the
// pile), deals and coats won, a session of so many deals or coats.
import { t } from '../i18n.js';
import { toast } from '../ui.js';
import { ruleId } from '../refusal.js';
import { chip, pair, trumpChip } from './base.js';
import { TrickGame } from './tricks.js';

export class CourtPiece extends TrickGame {
  dealText(o, n) {
    return o.session_end && o.session_end.deals
      ? t('deal_of', { n, m: o.session_end.deals }) : t('deal_no', { n });
  }

  goalText(o) {
    return o.session_end && o.session_end.coats ? t('to_n_coats', { n: o.session_end.coats }) : null;
  }

  scoreChips(v) {
    const tb = this.table;
    const my = this.mySide();
    const tr = v.tricks || [0, 0];
    const live = !v.over;
    const out = [];
    if (live) out.push(trumpChip(v));
    const double = v.options && v.options.sar === 'double';
    if (live) {
      out.push(chip(t(double ? 'collected' : 'tricks'), `${tb.teamName(my)} ${tr[my]} · ${tb.teamName(1 - my)} ${tr[1 - my]}`,
        { 'data-score': 'tricks' }));
    }
    if (live && double) {
      out.push(chip(t('pile'), String(v.pile || 0), { 'data-score': 'pile' }));
    }
    const mt = v.match || {};
    const dw = mt.deals_won || [0, 0];
    const co = mt.coats || [0, 0];
    out.push(chip(t('deals_won'), `${pair(dw[my], dw[1 - my])} · ${t('coats')} ${pair(co[my], co[1 - my])}`,
      { 'data-score': 'deals' }));
    return out;
  }

  /** With double sar, a trick just won sweeps onto the pile or to its collector with the
   * pile (done.sweep; done.pile: the pile before it), and says what became of the pile: who
   * collected how many tricks, or that a trick won by an ace did not collect (CP-8). */
  completedTrick(prev, v, events, ev) {
    const done = super.completedTrick(prev, v, events, ev);
    const o = v.options || {};
    if (o.sar === 'double') {
      // the trick goes onto the pile in the middle, or the pile (and the trick) to its
      // collector: a trick that ends the deal always collects (CP-7)
      done.pile = prev.pile || 0;
      done.sweep = v.deal_number === prev.deal_number && (v.pile || 0) > 0 ? 'pile' : 'winner';
    }
    if (o.sar === 'double' && v.deal_number === prev.deal_number) {
      const tb = this.table;
      const sum = (x) => (x || [0, 0]).reduce((a, b) => a + b, 0);
      const got = sum(v.tricks) - sum(prev.tricks);
      const wonBy = (ev.cards || [])[(ev.winner - ev.leader + 4) % 4] || '';
      const you = ev.winner === tb.me() ? '_you' : '';
      if (got > 0) {
        toast(t(`collects${you}`, { name: tb.name(ev.winner), n: got }), 'info');
      } else if (o.ace_rule && wonBy[0] === 'A' && prev.collector && prev.collector.seat === ev.winner) {
        toast([t(`ace_block${you}`, { name: tb.name(ev.winner) }), ruleId('CP-8')], 'info');
      }
    }
    return done;
  }

  sheetHead() { return [...super.sheetHead(), t('deals_won'), t('coats')]; }

  /** Deals and coats won so far, added up deal by deal. */
  sheetRow(d, run, side) {
    run.deals = run.deals || [0, 0];
    run.coats = run.coats || [0, 0];
    if (typeof d.winner === 'number') {
      run.deals[d.winner] += 1;
      if (d.coat) run.coats[d.winner] += 1;
    }
    return [...super.sheetRow(d, run, side), side(run.deals), side(run.coats)];
  }

  matchRows(d, match, my) {
    const dw = match.deals_won || [0, 0];
    const co = match.coats || [0, 0];
    return [[t('deals_won'), dw[my], dw[1 - my]], [t('coats'), co[my], co[1 - my]]];
  }
}
