// The deal review's position drawn (review.js): the trump call (or Goat's shown card), the
// trick on the table with each play's analysis, the score so far, the deal's result and the
// hands.  `rv` is the review: its deal (`d`), the position, whose hands are open, the seats'
// names and the analysis.
import { sortHand, SUIT_SIGN } from './cards.js';
import { t } from './i18n.js';
import { h } from './ui.js';
import { playNotes, verdictOf } from './review_analysis.js';

export function callLine(rv) {
  const d = rv.d;
  if (rv.described().shows_trump_card && d.trump_card) {
    return h('p', { class: 'review-call', 'data-review-call': d.trump_card }, `${t('review_trump_card')}: `, rv.cards([d.trump_card]));
  }
  if (!d.call) return null;
  return h('p', { class: 'review-call', 'data-review-call': d.call.suit },
    t('review_called', { name: rv.name(d.call.seat), suit: SUIT_SIGN[d.call.suit] }), ' ',
    rv.cards(d.call.first_cards, 'first-five'));
}

export function tableBlock(rv, p) {
  const d = rv.d;
  const lastOf = {};
  for (const pl of p.table) lastOf[pl.seat] = pl.step;
  const rows = p.table.map((pl) => {
    const verdict = verdictOf(rv.analysis, pl.step);
    const notes = [];
    if (pl.verb === 'pass') notes.push(t('review_face_down'));
    if (pl.verb === 'molodka') notes.push(t('review_molodka'));
    if (lastOf[pl.seat] !== pl.step) notes.push(t('review_taken_back'));
    return h('div', { class: `review-play${p.winner === pl.seat && lastOf[pl.seat] === pl.step ? ' winner' : ''}${verdict ? ` v-${verdict}` : ''}`,
      'data-step': String(pl.step), 'data-seat': String(pl.seat), 'data-verdict': verdict || '' },
    h('span', { class: 'who' }, rv.name(pl.seat)),
    rv.cards(pl.cards),
    notes.length ? h('small', null, notes.join(' · ')) : null,
    verdict && verdict !== 'best' ? h('span', { class: `verdict ${verdict}`, 'data-verdict-mark': verdict }, t(`verdict_${verdict}`)) : null,
    p.winner === pl.seat && lastOf[pl.seat] === pl.step ? h('span', { class: 'won-mark', 'aria-label': t('review_won_by', { name: rv.name(pl.seat) }) }, '★') : null,
    playNotes(rv.analysis, pl.step));
  });
  const parts = [h('div', { class: 'review-trick' }, rows.length ? rows : h('p', { class: 'sub' }, p.step === 0 ? t('review_as_dealt') : t('review_no_cards')))];
  if (p.winner !== null && p.winner !== undefined) {
    const tr = d.tricks[p.trick - 1];
    let line = t('review_won_by', { name: rv.name(p.winner) });
    if (tr && tr.collected) line += ` · ${t('review_collects', { name: rv.sideName(rv.sideOf(p.winner)), n: tr.collected })}`;
    parts.push(h('p', { class: 'review-won' }, line));
  }
  return h('section', { class: 'review-table', 'data-review-table': '' }, parts);
}

export function scoreLine(rv, p) {
  const d = rv.d;
  const bits = [];
  const word = d.options && d.options.sar === 'double' ? 'review_collected' : 'review_tricks';
  bits.push(`${t(word)}: ${rv.pair(p.won)}`);
  if (p.points) bits.push(`${t('review_points')}: ${rv.pair(p.points)}`);
  if (p.collector && typeof p.collector.pile === 'number') bits.push(`${t('review_pile', { n: p.collector.pile })}`);
  else if (typeof p.pile === 'number' && p.pile) bits.push(`${t('review_pile', { n: p.pile })}`);
  if (typeof p.stock === 'number') bits.push(t('review_stock', { n: p.stock }));
  return h('p', { class: 'review-score', 'data-review-score': '' }, bits.join(' · '));
}

export function resultBlock(rv) {
  const d = rv.d;
  const r = d.result || {};
  let text;
  if (!d.complete) text = t('review_incomplete');
  else if (rv.described().deal_unit === 'points') text = t('review_goat_result', { points: rv.pair(r.points), defeat: rv.pair(r.defeat) });
  else {
    text = t('review_result', { side: rv.sideName(r.winner), score: rv.pair(r.tricks) });
    if (r.coat || r.court) text += ` · ${t(r.coat ? 'review_coat' : 'review_court')}`;
  }
  const out = [h('p', { class: 'headline' }, text)];
  if (d.match) out.push(h('p', { class: 'sub' }, d.match.draw ? t('review_match_draw') : t('review_match_won', { side: rv.sideName(d.match.winner) })));
  return h('section', { class: 'review-result', 'data-review-result': '' }, out);
}

export function handsBlock(rv, p) {
  const d = rv.d;
  const seats = rv.only === null ? Array.from({ length: d.seats }, (_, s) => s) : [rv.only];
  return h('section', { class: 'review-hands' }, seats.map((s) => h('div', { class: 'review-hand', 'data-review-hand': String(s) },
    h('span', { class: 'who' }, rv.name(s)),
    p.hands[s].length ? rv.cards(sortHand(p.hands[s], d.game, d.trump)) : h('small', null, t('review_no_cards')))));
}
