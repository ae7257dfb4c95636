// The moderators' page (docs/fairplay.md, "In the server"): at /moderate the fair-play review
// queue (the open cases, the least likely play first, and the latest decided ones); at
// /moderate?case=ID one case: the evidence, the deals to replay, and the decision (cleared,
// warned or banned from rated play, with a note), and on a ban, lifting it (with a reason).
// A partnership's case (two players who sat as partners) names both, and its warning or ban
// applies to both or to the one the moderator keeps ticked.
// Everything comes from /api/fairplay (docs/API.md); a player who is not a moderator is told so.
import { api } from './api.js';
import { pickLang, setLang, t } from './i18n.js';
import { $, el, errorBox } from './page_kit.js';

const { showError, run } = errorBox('.mod-error');
const casePath = (id) => `/api/fairplay/cases/${encodeURIComponent(id)}`;
const pValue = (p) => (p < 0.001 ? p.toExponential(1) : p.toPrecision(2));
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');
const status = (s) => t(`mod_status_${s}`);
const label = (c) => (c.partner ? `${c.name} & ${c.partner_name}` : c.name);
const nameOf = (c, id) => (id === c.partner ? c.partner_name : id === c.player ? c.name : id);
const PAIR = 'partner:';
const kindName = (kind) => (kind.startsWith(PAIR)
  ? t('mod_kind_partner', { kind: t(`mod_kind_${kind.slice(PAIR.length)}`) }) : t(`mod_kind_${kind}`));

function caseItem(c) {
  const state = c.lifted ? `${status(c.status)}, ${t('mod_lifted')}` : status(c.status);
  return el('li', { className: 'mod-item', dataset: { case: c.id, status: c.status, lifted: c.lifted ? 'yes' : 'no', pair: c.partner ? 'yes' : 'no' } },
    el('a', { href: c.url, className: 'mod-link', textContent: label(c) }), ' ',
    t('mod_case_line', { p: pValue(c.p_value), deals: c.deals, status: state, at: when(c.opened) }));
}

async function showQueue() {
  const q = await api('GET', '/api/fairplay/queue');
  $('.mod-queue').hidden = false;
  $('.mod-open').replaceChildren(...q.open.map(caseItem));
  if (!q.open.length) $('.mod-open').append(el('li', { textContent: t('mod_none_open') }));
  $('.mod-decided').replaceChildren(...q.decided.map(caseItem));
  if (!q.decided.length) $('.mod-decided').append(el('li', { textContent: t('mod_none_decided') }));
}

function evidence(c) {
  const e = c.evidence;
  const kinds = Object.entries(e.kinds || {}).map(([kind, k]) => el('li', {
    textContent: t('mod_kind_line', { kind: kindName(kind), hits: k.hits, opportunities: k.opportunities, expected: k.expected }),
  }));
  const hits = { hits: e.hits, opportunities: e.opportunities, expected: e.expected };
  return [
    ...(c.partner ? [el('p', { className: 'mod-pair-note', textContent: t('mod_pair_note') })] : []),
    el('p', { className: 'mod-p', textContent: t('mod_p_value', { p: pValue(c.p_value), score: c.score }) }),
    el('p', { className: 'mod-hits', textContent: c.partner ? t('mod_pair_hits', hits) : t('mod_hits', hits) }),
    el('p', { className: 'mod-deals', textContent: t('mod_deals', { deals: e.deals, matches: e.matches, from: when(e.from), to: when(e.to) }) }),
    el('ul', { className: 'mod-kinds' }, ...kinds),
    el('h3', { textContent: t('mod_replay_title') }),
    el('ul', { className: 'mod-replay' }, ...c.replay.map((d) => el('li', {},
      el('a', { href: d.replay, textContent: t('mod_replay_line', { table: d.table, deal: d.deal + 1, hits: d.hits, opportunities: d.opportunities }) })))),
  ];
}

function decisionForm(c) {
  const pick = el('select', { name: 'decision', className: 'mod-choice' },
    ...['cleared', 'warned', 'banned'].map((d) => el('option', { value: d, textContent: t(`mod_decide_${d}`) })));
  const note = el('textarea', { name: 'note', className: 'mod-note', required: true, maxLength: 2000, rows: 3 });
  // a partnership's case: whom a warning or a ban applies to (both ticked at first)
  const whom = c.partner ? [c.player, c.partner].map((id) => el('input', { type: 'checkbox', className: 'mod-for', value: id, checked: true })) : [];
  const form = el('form', { className: 'mod-decide' }, el('h3', { textContent: t('mod_decide') }),
    el('p', {}, el('label', {}, `${t('mod_decision')} `, pick)),
    ...(c.partner ? [el('fieldset', { className: 'mod-for-box' }, el('legend', { textContent: t('mod_decide_for') }),
      ...whom.map((box) => el('label', {}, box, ` ${nameOf(c, box.value)} `)))] : []),
    el('p', {}, el('label', {}, `${t('mod_note')} `, note)),
    el('button', { type: 'submit', className: 'mod-submit', textContent: t('mod_decide') }));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    run(async () => {
      const body = { decision: pick.value, note: note.value };
      if (c.partner && pick.value !== 'cleared') body.players = whom.filter((box) => box.checked).map((box) => box.value);
      await api('POST', `${casePath(c.id)}/decision`, { body });
      await showCase(c.id);
    });
  });
  return form;
}

function liftForm(c) {
  const note = el('textarea', { name: 'note', className: 'mod-lift-note', required: true, maxLength: 2000, rows: 2 });
  const form = el('form', { className: 'mod-lift' }, el('h3', { textContent: t('mod_lift') }),
    el('p', { textContent: t('mod_lift_keeps') }),
    el('p', {}, el('label', {}, `${t('mod_note')} `, note)),
    el('button', { type: 'submit', className: 'mod-lift-submit', textContent: t('mod_lift') }));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    run(async () => {
      await api('POST', `${casePath(c.id)}/lift`, { body: { note: note.value } });
      await showCase(c.id);
    });
  });
  return form;
}

async function showCase(id) {
  const c = await api('GET', casePath(id));
  const box = $('.mod-case');
  box.hidden = false;
  box.dataset.status = c.status;
  box.dataset.lifted = c.lift ? 'yes' : 'no';
  const title = c.partner
    ? el('h2', {}, t('mod_pair_title', { name: c.name, partner: c.partner_name }), ' ',
      el('a', { href: c.profile, textContent: `${t('mod_profile')}: ${c.name}` }), ' ',
      el('a', { href: c.partner_profile, textContent: `${t('mod_profile')}: ${c.partner_name}` }))
    : el('h2', {}, t('mod_case_title', { name: c.name }), ' ', el('a', { href: c.profile, textContent: t('mod_profile') }));
  box.dataset.pair = c.partner ? 'yes' : 'no';
  box.replaceChildren(title,
  el('p', { className: 'mod-status', textContent: status(c.status) }), ...evidence(c));
  if (c.decision) {
    const d = c.decision;
    box.append(el('p', { className: 'mod-decision', textContent: t('mod_decided_by', { decision: status(d.decision), name: d.by_name || d.by || '?', at: when(d.at) }) }),
      el('blockquote', { className: 'mod-decision-note', textContent: d.note }));
    if (c.partner && d.players.length) {
      box.append(el('p', { className: 'mod-decided-for', textContent: t('mod_decided_for', { names: d.players.map((who) => nameOf(c, who)).join(', ') }) }));
    }
    if (c.lift) {
      box.append(el('p', { className: 'mod-lifted', textContent: t('mod_lifted_by', { name: c.lift.by_name || c.lift.by, at: when(c.lift.at) }) }),
        el('blockquote', { className: 'mod-lift-reason', textContent: c.lift.note }));
    } else if (c.status === 'banned') {
      box.append(liftForm(c));
    }
  } else {
    box.append(decisionForm(c));
  }
  box.append(el('p', {}, el('a', { href: '/moderate', textContent: t('mod_back') })));
}

async function start() {
  await setLang(pickLang()).catch(() => setLang('en')).catch(() => {});
  document.title = `taash: ${t('mod_title')}`;
  $('.mod-title').textContent = t('mod_title');
  $('.mod-flag-note').textContent = t('mod_flag_note');
  $('.mod-open-title').textContent = t('mod_open');
  $('.mod-decided-title').textContent = t('mod_decided');
  $('.mod-home').textContent = t('mod_home');
  const id = new URLSearchParams(location.search).get('case');
  try {
    if (id) await showCase(id);
    else await showQueue();
  } catch (e) {
    if (e.status === 401 || e.status === 403) showError(t('mod_only'));
    else throw e;
  }
}

run(start);
