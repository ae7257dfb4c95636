// The duplicate events page (docs/events.md): today's event of each game, the open events,
// entering one and playing its boards one at a time against the robots, then a board's field
// and the standings. Everything comes from /api/events (docs/API.md); nothing of a board is
// known here before the server shows it.
import { api, getMe } from './api.js';
import { loadGames } from './catalogue.js';
import { $, el, errorBox } from './page_kit.js';
import { checkDeal } from './fair.js';

const { run } = errorBox('.events-error');

let names = {};
const gameName = (id) => names[id] || id;
let moveCount = 0;
const nextMoveId = (b) => { moveCount += 1; return `page-${b.event}-${b.board}-${b.version}-${moveCount}`; };

function resultText(r) {
  if (!r) return '';
  if ('tricks' in r) return `your side took ${r.tricks} tricks`;
  return `your side took ${r.points} points${r.defeat ? `, and the goat (${r.defeat})` : ', no goat'}`;
}

function eventLine(e) {
  const state = e.state === 'open' ? `open until ${new Date(e.closes * 1000).toLocaleString()}` : e.state;
  return `${gameName(e.game)}: ${e.boards} boards, ${state}, ${e.entrants} entrants${e.entered ? ' (entered)' : ''}`;
}

async function showEvent(id) {
  const e = await api('GET', `/api/events/${encodeURIComponent(id)}`);
  const box = $('.events-event');
  box.replaceChildren(
    el('h2', { textContent: `${gameName(e.game)} event ${e.id}` }),
    el('p', { className: 'events-summary', textContent: eventLine(e) }),
    el('p', { className: 'events-commit' }, 'Commitment to every deal: ', el('code', { textContent: e.commit })),
  );
  if (e.secret) box.append(el('p', { className: 'events-secret' }, 'Secret (published at the close): ', el('code', { textContent: e.secret })));
  if (e.state === 'open' && !e.entered) {
    box.append(el('button', {
      type: 'button', className: 'events-enter', textContent: 'Enter',
      onclick: () => run(async () => { await api('POST', `/api/events/${encodeURIComponent(e.id)}/entry`); await showEvent(e.id); }),
    }));
  }
  if (e.entered) {
    box.append(el('button', {
      type: 'button', className: 'events-play', textContent: 'Play my boards',
      onclick: () => run(() => showBoard(e.id, null)),
    }));
  }
  if (e.secret && e.entered) {
    box.append(el('button', {
      type: 'button', className: 'events-check', textContent: 'Check my deals',
      onclick: () => run(() => checkBoards(e)),
    }));
  }
  if (e.state === 'closed' || e.entered) {
    box.append(el('button', {
      type: 'button', className: 'events-standings', textContent: 'Standings',
      onclick: () => run(() => showStandings(e.id)),
    }));
  }
  box.hidden = false;
  history.replaceState(null, '', `#${e.id}`);
}

function trickText(trick) {
  return (trick || []).map((p) => `${p.seat}: ${p.card || (p.cards || []).join(',') || p.verb}`).join('  ') || '-';
}

async function showBoard(eventId, board) {
  const path = board ? `/api/events/${encodeURIComponent(eventId)}/boards/${board}` : `/api/events/${encodeURIComponent(eventId)}/board`;
  renderBoard(await api('GET', path));
}

function renderBoard(b) {
  const v = b.view;
  const box = $('.events-board');
  box.dataset.board = String(b.board);
  box.dataset.done = String(b.done);
  box.replaceChildren(
    el('h2', { textContent: `Board ${b.board} of ${b.boards}` }),
    el('p', { textContent: `Trump: ${v.trump || '-'}. Tricks: ${(v.tricks || []).join(' to ')}. You sit in seat ${b.seat}.` }),
    el('p', { className: 'events-trick', textContent: `Trick: ${trickText(v.trick)}` }),
    el('p', { className: 'events-hand', textContent: `Your hand: ${(v.hand || []).join(' ')}` }),
  );
  if (b.done) {
    box.append(el('p', { className: 'events-over', textContent: `Board ${b.board} over: ${resultText(b.result)}.` }));
    box.append(el('button', {
      type: 'button', className: 'events-field', textContent: 'How the field played it',
      onclick: () => run(() => showResults(b.event, b.board)),
    }));
    if (b.next) {
      box.append(el('button', {
        type: 'button', className: 'events-next', textContent: `Board ${b.next}`,
        onclick: () => run(() => showBoard(b.event, b.next)),
      }));
    } else {
      box.append(el('p', { textContent: 'Every board played: the standings are published when the event closes.' }));
    }
  } else {
    const moves = el('div', { className: 'events-moves', role: 'group', ariaLabel: 'Your moves' });
    for (const a of v.legal_actions || []) {
      moves.append(el('button', {
        type: 'button', className: 'events-move', textContent: a,
        onclick: () => run(async () => {
          const id = nextMoveId(b);
          renderBoard(await api('POST', `/api/events/${encodeURIComponent(b.event)}/boards/${b.board}/actions`,
            { body: { action: a, version: b.version, id } }));
        }),
      }));
    }
    box.append(moves);
  }
  box.hidden = false;
}

const CHECKED = {
  fair_checked_noseed: 'fair: checked (the deck follows from the event\'s secret)',
  fair_warn_missing: 'not checked: the record has no proof',
  fair_unavailable: 'not checked: this browser cannot (WebCrypto needs https)',
  fair_warn_commit: 'warning: the secret does not give the commitment shown before',
  fair_warn_deck: 'warning: the deck does not follow from the secret',
};

/** Each board the player finished, checked here once the secret is out: the secret gives
 * the commitment shown before, and the deck follows from it (fair.js, WebCrypto). */
async function checkBoards(e) {
  const list = el('ul', { className: 'events-checks' });
  for (let b = 1; b <= e.boards; b += 1) {
    let rec;
    try {
      rec = await api('GET', `/api/events/${encodeURIComponent(e.id)}/boards/${b}/record`);
    } catch {
      continue; // a board not finished: nothing to check
    }
    const deal = rec.deals[0];
    const got = deal.fair && deal.fair.table === `${e.id}-${b}`
      ? await checkDeal(e.game, 0, deal, { commit: e.commit }) : { ok: false, key: 'fair_warn_missing' };
    list.append(el('li', { dataset: { ok: String(got.ok) }, textContent: `Board ${b}: ${CHECKED[got.key] || got.key}` }));
  }
  $('.events-event').append(list);
}

async function showResults(eventId, board) {
  const r = await api('GET', `/api/events/${encodeURIComponent(eventId)}/boards/${board}/results`);
  const box = $('.events-results');
  const rows = r.entries.map((x) => el('tr', {}, el('td', { textContent: x.name || x.player }),
    el('td', { textContent: resultText(x.result) }), el('td', { textContent: `${x.percent}%` })));
  const spread = r.distribution.map((d) => `${resultText(d.result)}: ${d.count}`).join('; ');
  box.replaceChildren(el('h2', { textContent: `Board ${board}: ${r.field} entrants` }),
    el('p', { className: 'events-spread', textContent: `Results: ${spread}` }),
    el('p', { className: 'events-line', textContent: `Most common line: ${r.common_line.join(' ') || '-'}` }),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', { textContent: 'Player' }),
      el('th', { textContent: 'Result' }), el('th', { textContent: 'Score' }))), el('tbody', {}, ...rows)));
  box.hidden = false;
}

async function showStandings(eventId) {
  const s = await api('GET', `/api/events/${encodeURIComponent(eventId)}/standings`);
  const box = $('.events-results');
  const rows = s.standings.map((x) => el('tr', {}, el('td', { textContent: String(x.rank) }),
    el('td', { textContent: x.name || x.player }), el('td', { textContent: `${x.percent}%` }),
    el('td', { textContent: String(x.boards) })));
  box.replaceChildren(el('h2', { textContent: s.provisional ? 'Standings (provisional)' : 'Standings' }),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', { textContent: '#' }), el('th', { textContent: 'Player' }),
      el('th', { textContent: 'Score' }), el('th', { textContent: 'Boards' }))), el('tbody', {}, ...rows)));
  box.hidden = false;
}

async function start() {
  await getMe(); // a guest session on the first visit: entries are the player's
  const games = await loadGames();
  names = Object.fromEntries(games.map((g) => [g.id, g.name]));
  const daily = $('.events-daily');
  for (const g of games) {
    daily.append(el('button', {
      type: 'button', className: 'events-daily-game', dataset: { game: g.id }, textContent: `Today's ${g.name}`,
      onclick: () => run(async () => { const e = await api('GET', `/api/events/daily/${g.id}`); await showEvent(e.id); }),
    }));
  }
  const listed = await api('GET', '/api/events');
  const list = $('.events-list');
  for (const e of [...listed.events, ...listed.mine.filter((m) => !listed.events.some((x) => x.id === m.id))]) {
    list.append(el('li', {}, el('button', {
      type: 'button', className: 'events-open', textContent: eventLine(e), onclick: () => run(() => showEvent(e.id)),
    })));
  }
  if (!list.children.length) list.append(el('li', { textContent: 'None yet: try today\'s events above.' }));
  const wanted = location.hash.slice(1);
  if (wanted) await showEvent(decodeURIComponent(wanted));
}

run(start);
