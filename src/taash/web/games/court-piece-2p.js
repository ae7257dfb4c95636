// Two-player Court Piece: seats, not teams; points scored per deal up to a target.
import { t } from '../i18n.js';
import { chip, pair, trumpChip } from './base.js';
import { TrickGame } from './tricks.js';

export class CourtPiece2p extends TrickGame {
  get seats() { return 2; }

  dealText(o, n) { return t('deal_no', { n }); }

  goalText(o) { return o.target ? t('to_n_points', { n: o.target }) : null; }

  scoreChips(v) {
    const tb = this.table;
    const me = tb.me();
    const my = me ?? 0;
    const tr = v.tricks || [0, 0];
    const pts = (v.match && v.match.points) || [0, 0];
    const out = [];
    if (!v.over) {
      out.push(trumpChip(v));
      // The other player by the name their seat shows, as everywhere else.
      const [a, b] = me === null ? [tb.name(0), tb.name(1)] : [t('you'), tb.name(1 - me)];
      out.push(chip(t('tricks'), `${a} ${tr[my]} · ${b} ${tr[1 - my]}`, { 'data-score': 'tricks' }));
    }
    out.push(chip(t('points'), `${pair(pts[my], pts[1 - my])} / ${(v.options || {}).target}`,
      { 'data-score': 'points' }));
    return out;
  }

  sheetHead() { return [...super.sheetHead(), t('scored'), t('points')]; }

  /** The points each deal scored, and the running total. */
  sheetRow(d, run, side) {
    run.points = run.points || [0, 0];
    const sc = d.scored || [0, 0];
    run.points = [run.points[0] + sc[0], run.points[1] + sc[1]];
    return [...super.sheetRow(d, run, side), side(sc), side(run.points)];
  }

  matchRows(d, match, my) {
    const sc = d.scored || [0, 0];
    const pts = match.points || [0, 0];
    return [[t('scored'), sc[my], sc[1 - my]], [t('points'), pts[my], pts[1 - my]]];
  }
}
