// The duplicate events page (docs/events.md): today's event of each game, the open events,
// entering one and playing its boards one at a time against the robots, then a board's field,
// the player's board against the best result with every hand open, and the standings.
// Everything comes from /api/events (docs/API.md); nothing of a board is known here before the
// server shows it. Its words are the site's (i18n/<lang>.json, the `ev_` keys): the static
// page's own are filled in from `data-i18n`.
import { api, getMe } from './api.js';
import { gameName, loadGames } from './catalogue.js';
import { $, el, errorBox } from './page_kit.js';
import { checkDeal } from './fair.js';
import { pickLang, setLang, t } from './i18n.js';

const { run } = errorBox('.events-error');

let names = {};
const nameOf = (id) => names[id] || gameName({ id, name: id });
let moveCount = 0;
const nextMoveId = (b) => { moveCount += 1; return `page-${b.event}-${b.board}-${b.version}-${moveCount}`; };
const eventPath = (id) => `/api/events/${encodeURIComponent(id)}`;

function resultText(r) {
  if (!r) return '';
  if ('tricks' in r) return t('ev_result_tricks', { n: r.tricks });
  const points = t('ev_result_points', { n: r.points });
  return `${points}${r.defeat ? t('ev_result_goat', { defeat: r.defeat }) : t('ev_result_no_goat')}`;
}

function eventLine(e) {
  const state = e.state === 'open'
    ? t('ev_state_open', { time: new Date(e.closes * 1000).toLocaleString(document.documentElement.lang) })
    : t(`ev_state_${e.state}`);
  const parts = [t('ev_boards', { n: e.boards }), state, t('ev_entrants', { n: e.entrants })];
  return `${nameOf(e.game)}: ${parts.join(', ')}${e.entered ? ` ${t('ev_entered')}` : ''}`;
}

function button(className, text, fn) {
  return el('button', { type: 'button', className, textContent: text, onclick: () => run(fn) });
}

async function showEvent(id) {
  const e = await api('GET', eventPath(id));
  const box = $('.events-event');
  box.dataset.event = e.id;
  box.replaceChildren(
    el('h2', { textContent: t('ev_event_title', { game: nameOf(e.game), id: e.id }) }),
    el('p', { className: 'events-summary', textContent: eventLine(e) }),
    el('p', { className: 'events-commit' }, `${t('ev_commit')} `, el('code', { textContent: e.commit })),
  );
  if (e.secret) box.append(el('p', { className: 'events-secret' }, `${t('ev_secret')} `, el('code', { textContent: e.secret })));
  if (e.state === 'open' && !e.entered) {
    box.append(button('events-enter', t('ev_enter'), async () => {
      await api('POST', `${eventPath(e.id)}/entry`);
      await showEvent(e.id);
    }));
  }
  if (e.entered) box.append(button('events-play', t('ev_play'), () => showBoard(e.id, null)));
  if (e.secret && e.entered) box.append(button('events-check', t('ev_check'), () => checkBoards(e)));
  if (e.state === 'closed' || e.entered) box.append(button('events-standings', t('ev_standings'), () => showStandings(e.id)));
  box.hidden = false;
  history.replaceState(null, '', `${location.pathname}#${e.id}`);
}

function trickText(trick) {
  return (trick || []).map((p) => `${p.seat}: ${p.card || (p.cards || []).join(',') || p.verb}`).join('  ') || '-';
}

async function showBoard(eventId, board) {
  renderBoard(await api('GET', board ? `${eventPath(eventId)}/boards/${board}` : `${eventPath(eventId)}/board`));
}

function renderBoard(b) {
  const v = b.view;
  const box = $('.events-board');
  box.dataset.board = String(b.board);
  box.dataset.done = String(b.done);
  box.replaceChildren(
    el('h2', { textContent: t('ev_board_of', { board: b.board, boards: b.boards }) }),
    el('p', { textContent: t('ev_board_state', { trump: v.trump || '-', tricks: (v.tricks || []).join(' : '), seat: b.seat }) }),
    el('p', { className: 'events-trick', textContent: t('ev_trick', { trick: trickText(v.trick) }) }),
    el('p', { className: 'events-hand', textContent: t('ev_hand', { hand: (v.hand || []).join(' ') }) }),
  );
  if (b.done) {
    box.append(el('p', { className: 'events-over', textContent: t('ev_board_over', { board: b.board, result: resultText(b.result) }) }));
    box.append(button('events-field', t('ev_field'), () => showResults(b.event, b.board)));
    if (b.next) {
      box.append(button('events-next', t('ev_board_n', { board: b.next }), () => showBoard(b.event, b.next)));
    } else {
      box.append(el('p', { className: 'events-all', textContent: t('ev_all_played') }));
    }
  } else {
    const moves = el('div', { className: 'events-moves', role: 'group', ariaLabel: t('ev_moves') });
    for (const a of v.legal_actions || []) {
      moves.append(button('events-move', a, async () => {
        const id = nextMoveId(b);
        renderBoard(await api('POST', `${eventPath(b.event)}/boards/${b.board}/actions`,
          { body: { action: a, version: b.version, id } }));
      }));
    }
    box.append(moves);
  }
  box.hidden = false;
}

const CHECKED = {
  fair_checked_noseed: 'ev_check_ok',
  fair_warn_missing: 'ev_check_missing',
  fair_unavailable: 'ev_check_unavailable',
  fair_warn_commit: 'ev_check_commit',
  fair_warn_deck: 'ev_check_deck',
};

/** Each board the player finished, checked here once the secret is out: the secret gives
 * the commitment shown before, and the deck follows from it (fair.js, WebCrypto). */
async function checkBoards(e) {
  const list = el('ul', { className: 'events-checks' });
  for (let b = 1; b <= e.boards; b += 1) {
    let rec;
    try {
      rec = await api('GET', `${eventPath(e.id)}/boards/${b}/record`);
    } catch {
      continue; // a board not finished: nothing to check
    }
    const deal = rec.deals[0];
    const got = deal.fair && deal.fair.table === `${e.id}-${b}`
      ? await checkDeal(e.game, 0, deal, { commit: e.commit }) : { ok: false, key: 'fair_warn_missing' };
    const said = CHECKED[got.key] ? t(CHECKED[got.key]) : got.key;
    list.append(el('li', { dataset: { ok: String(got.ok) }, textContent: t('ev_check_line', { board: b, text: said }) }));
  }
  $('.events-event').append(list);
}

function playsText(plays) {
  return plays.length ? plays.join(' ') : '-';
}

/** What the page says of the board's best result: being computed; proven (the best, and how
 * far short the player came); or, where the search ran out of time, what it proved (a result
 * the side could force and one it could not beat), never called the best. */
function bestText(r) {
  const unit = r.unit === 'points' ? 'points' : 'tricks';
  if (r.status !== 'done') {
    return r.elapsed === null ? t('ev_best_waiting')
      : t('ev_best_computing', { s: Math.round(r.elapsed), budget: Math.round(r.budget) });
  }
  const yours = t(`ev_yours_${unit}`, { n: r.yours });
  if (r.proven) {
    const verdict = r.lost ? t(`ev_review_lost_${unit}`, { n: r.lost }) : t('ev_review_best');
    return `${t(`ev_best_${unit}`, { n: r.best })} ${yours} ${verdict}`;
  }
  const s = Math.round(r.seconds);
  const below = r.lower > 0; // a lower bound of 0 and an upper one of `most` prove nothing
  const above = r.upper < r.most;
  if (!below && !above) return `${t('ev_found_none', { s })} ${yours}`;
  let found;
  if (below && above) found = t(`ev_found_${unit}`, { n: r.lower, s, up: r.upper });
  else if (below) found = t(`ev_found_lower_${unit}`, { n: r.lower, s });
  else found = t(`ev_found_upper_${unit}`, { n: r.upper, s });
  const short = r.lower - r.yours;
  const verdict = short > 0 ? t(`ev_review_short_${unit}`, { n: short }) : t('ev_review_found_reached');
  return `${found} ${yours}${below ? ` ${verdict}` : ''}`;
}

/** The player's board against the best result with every hand open (asked of the server,
 * whose worker searches it once per board and trump call), and the page that steps through it
 * move by move.  While it is being computed the block asks again, and takes its own place. */
async function reviewBlock(eventId, board) {
  const r = await api('GET', `${eventPath(eventId)}/boards/${board}/review`);
  const dataset = { status: r.status, best: String(r.best), proven: String(r.proven), lower: String(r.lower), yours: String(r.yours), solver: String(r.solver) };
  const block = el('div', { className: 'events-review', dataset },
    el('h3', { textContent: t('ev_review_title') }),
    el('p', { className: 'events-best', textContent: bestText(r) }),
    el('p', {}, el('a', { href: r.review, className: 'events-step', textContent: t('ev_review_step') })));
  if (r.status !== 'done') {
    setTimeout(() => {
      if (block.isConnected) run(async () => block.replaceWith(await reviewBlock(eventId, board)));
    }, (r.retry || 3) * 1000);
  }
  return block;
}

async function showResults(eventId, board) {
  const r = await api('GET', `${eventPath(eventId)}/boards/${board}/results`);
  const box = $('.events-results');
  box.dataset.board = String(board);
  const rows = r.entries.map((x) => el('tr', {}, el('td', { textContent: x.name || x.player }),
    el('td', { textContent: resultText(x.result) }), el('td', { textContent: `${x.percent}%` })));
  const spread = el('ul', { className: 'events-spread' }, ...r.distribution.map((d) => el('li', {
    dataset: { count: String(d.count) }, textContent: t('ev_spread_line', { result: resultText(d.result), n: d.count }) })));
  box.replaceChildren(el('h2', { textContent: t('ev_results_title', { board, n: r.field }) }),
    el('h3', { textContent: t('ev_spread') }), spread,
    el('p', { className: 'events-first-trick', textContent: t('ev_common_trick', { plays: playsText(r.common_first_trick), count: r.common_first_trick_count, n: r.field }) }),
    el('p', { className: 'events-line', textContent: t('ev_common_line', { plays: playsText(r.common_line), count: r.common_line_count, n: r.field }) }),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', { textContent: t('ev_col_player') }),
      el('th', { textContent: t('ev_col_result') }), el('th', { textContent: t('ev_col_score') }))), el('tbody', {}, ...rows)));
  box.hidden = false;
  try {
    box.append(await reviewBlock(eventId, board));
  } catch { /* the review is the player's own: one who did not play this board has none */ }
}

async function showStandings(eventId) {
  const s = await api('GET', `${eventPath(eventId)}/standings`);
  const box = $('.events-results');
  delete box.dataset.board;
  const rows = s.standings.map((x) => el('tr', {}, el('td', { textContent: String(x.rank) }),
    el('td', { textContent: x.name || x.player }), el('td', { textContent: `${x.percent}%` }),
    el('td', { textContent: String(x.boards) })));
  box.replaceChildren(el('h2', { textContent: s.provisional ? t('ev_standings_provisional') : t('ev_standings') }),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', { textContent: '#' }), el('th', { textContent: t('ev_col_player') }),
      el('th', { textContent: t('ev_col_score') }), el('th', { textContent: t('ev_col_boards') }))), el('tbody', {}, ...rows)));
  box.hidden = false;
}

/** The static page's words, in the page's language. */
function translatePage() {
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  document.title = t('ev_page_title');
}

async function start() {
  await setLang(pickLang());
  translatePage();
  await getMe(); // a guest session on the first visit: entries are the player's
  const games = await loadGames();
  names = Object.fromEntries(games.map((g) => [g.id, gameName(g)]));
  const daily = $('.events-daily');
  for (const g of games) {
    daily.append(el('button', {
      type: 'button', className: 'events-daily-game', dataset: { game: g.id }, textContent: t('ev_daily', { game: nameOf(g.id) }),
      onclick: () => run(async () => { const e = await api('GET', `/api/events/daily/${encodeURIComponent(g.id)}`); await showEvent(e.id); }),
    }));
  }
  const listed = await api('GET', '/api/events');
  const list = $('.events-list');
  for (const e of [...listed.events, ...listed.mine.filter((m) => !listed.events.some((x) => x.id === m.id))]) {
    list.append(el('li', {}, button('events-open', eventLine(e), () => showEvent(e.id))));
  }
  if (!list.children.length) list.append(el('li', { textContent: t('ev_none') }));
  const asked = new URLSearchParams(location.search).get('daily'); // the home page's feed
  const wanted = location.hash.slice(1);
  if (asked) {
    const e = await api('GET', `/api/events/daily/${encodeURIComponent(asked)}`);
    await showEvent(e.id);
  } else if (wanted) {
    await showEvent(decodeURIComponent(wanted));
  }
}

run(start);
