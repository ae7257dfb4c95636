// The deal review's analysis (review.js): under each play, what the exact solvers and the
// hard bot say of it; the box that asks for the analysis, shows its progress or its summary.
// `rv` is the review: its `analysis` (once done), its `job` (the analysis asked for), its
// seats' names (`name(seat)`) and `analyse()`.
import { SUIT_SIGN } from './cards.js';
import { t } from './i18n.js';
import { h } from './ui.js';

/** The open analysis's verdict on a step's play, or null. */
export function verdictOf(analysis, step) {
  const a = analysis && analysis.actions.find((x) => x.step === step);
  return a && a.open ? a.open.verdict : null;
}

/** Under a play, its analysis: both ways, labelled plainly. */
export function playNotes(analysis, step) {
  const a = analysis && analysis.actions.find((x) => x.step === step);
  if (!a) return null;
  const lines = [];
  const o = a.open;
  if (o) {
    let text;
    if (!o.verdict) text = t('review_not_judged', { note: o.note || '' });
    else {
      const unit = t(o.unit === 'points' ? 'review_unit_points' : 'review_unit_tricks');
      text = `${t(`verdict_${o.verdict}`)} · ${t('review_could', { before: o.before, after: o.after, unit })}`;
      if (o.verdict !== 'best' && o.best && o.best.length) text += ` · ${t('review_best_was', { actions: o.best.map(actionText).join(', ') })}`;
    }
    lines.push(h('li', { 'data-analysis': 'open' }, h('b', null, `${t('review_open_label')}: `), text));
  }
  const k = a.known;
  if (k) {
    let text = k.hard === null ? t('review_hard_none') : t('review_hard_plays', { action: actionText(k.hard) });
    text += ` (${t(k.matched ? 'review_hard_matches' : 'review_hard_differs')})`;
    if (typeof k.gain === 'number' && !k.matched) text += ` · ${gainText(k.gain, k.samples || 0)}`;
    lines.push(h('li', { 'data-analysis': 'known' }, h('b', null, `${t('review_known_label')}: `), text));
  }
  return h('ul', { class: 'review-notes' }, lines);
}

/** The analysis's box under the deal: its summary, its progress, or the button asking for it. */
export function analysisBlock(rv) {
  const box = h('section', { class: 'review-analysis', 'data-review-analysis': rv.job ? rv.job.status : 'none' });
  const j = rv.job;
  if (rv.analysis) {
    box.append(h('div', { class: 'review-summary-box' }, summary(rv)));
  } else if (j && j.status === 'running') {
    // the server's count once it has one; before its first play is done, what it is doing
    const said = j.total ? t('review_analysing', { done: j.done, total: j.total }) : t('review_analysis_starting');
    box.append(h('p', { role: 'status', 'data-review-progress': `${j.done}/${j.total}` }, said),
      // no count yet: a progress bar without a value (it shows that work goes on)
      h('progress', j.total ? { max: String(j.total), value: String(j.done), 'aria-label': said } : { 'aria-label': said }),
      // the seconds outside the live region: a screen reader is not told each one
      h('p', { class: 'sub' }, h('span', { 'data-review-elapsed': '' }, t('review_elapsed', { n: rv.elapsed() })),
        ' · ', t('review_analysis_how')));
  } else {
    if (j && j.status === 'failed') box.append(h('p', { class: 'review-error' }, t('review_analysis_failed')));
    box.append(h('button', { class: 'btn', type: 'button', 'data-action': 'review-analyse', onclick: () => rv.analyse() }, t('review_analyse')),
      h('p', { class: 'sub' }, t('review_analyse_note')));
  }
  return box;
}

function summary(rv) {
  const a = rv.analysis;
  return [h('h2', null, t('review_summary')),
    h('ul', { class: 'review-summary' }, a.seats.map((s) => h('li', { 'data-summary-seat': String(s.seat) },
      h('b', null, rv.name(s.seat)), ' ',
      a.solver ? t('review_summary_open', { blunders: s.blunders, mistakes: s.mistakes, best: s.best, judged: s.judged }) : null,
      h('br'),
      t('review_summary_known', { hard: s.matched_hard, actions: s.actions })))),
    a.solver ? h('p', { class: 'sub', 'data-review-solver': a.solver }, t('review_solver', { name: solverName(a.solver) })) : null,
    h('p', { class: 'sub' }, t('review_labels_note')),
    (a.notes || []).map((n) => h('p', { class: 'sub' }, n))];
}

// "dds", "taash" or both ("dds+taash"): the exact solvers that judged the cards
export function solverName(label) {
  const names = { dds: t('review_solver_dds'), taash: t('review_solver_taash') };
  return label.split('+').map((p) => names[p] || p).join(', ');
}

/** An action as a player reads it: its cards with suit signs ("play:AS" → "A♠"). */
export function actionText(action) {
  const [verb, arg] = String(action).split(':');
  if (verb === 'trump') return `${t('trump')} ${SUIT_SIGN[arg] || arg}`;
  const cards = (arg || '').split(',').filter(Boolean).map((c) => `${c[0] === 'T' ? '10' : c[0]}${SUIT_SIGN[c[1]] || c[1]}`);
  return cards.join(' ') || verb;
}

/** What a sampled gain means for the player (issue 43: "+0.12 over 24 samples" said nothing):
 * the hard bot's choice against the play made, in mean playout score (a won deal is 1, a
 * little more for its margin: taash.review.analyse's Known), over its sampled deals. */
export function gainText(gain, samples) {
  const r = Math.round(Math.abs(gain) * 100) / 100;
  if (r === 0) return t('review_hard_gain_same', { n: samples });
  return t(gain > 0 ? 'review_hard_gain' : 'review_hard_gain_less', { gain: String(r), n: samples });
}
