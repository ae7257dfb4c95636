// The clubs page (docs/clubs.md): at /clubs, the player's clubs, the clubs that invited them,
// a new club and the public clubs by name; at /club/ID (?invite=TOKEN: the club's link), one
// club: joining it, its members and their ratings, its tables (a new one, a free seat taken),
// its events and leaderboard, and what its owner and admins do. Everything comes from
// /api/clubs (docs/API.md).
import { api, getMe, saveSeat } from './api.js';
import { loadGames } from './catalogue.js';
import { $, el, errorBox } from './page_kit.js';

const { showError, run } = errorBox('.club-error');

let games = [];
let me = null;
const gameName = (id) => (games.find((g) => g.id === id) || { name: id }).name;
const clubPath = (id) => `/api/clubs/${encodeURIComponent(id)}`;
const button = (className, textContent, onclick) => el('button', { type: 'button', className, textContent, onclick: () => run(onclick) });

function clubLink(c) {
  const what = `${c.members} member${c.members === 1 ? '' : 's'}${c.role ? `, you: ${c.role}` : ''}`;
  return el('li', {}, el('a', { href: c.url, className: 'club-link', textContent: c.name }), ` (${what})`);
}

async function showHome() {
  $('.club-home').hidden = false;
  const mine = await api('GET', '/api/me/clubs');
  const list = $('.club-mine');
  list.replaceChildren(...mine.clubs.map(clubLink));
  for (const c of mine.invited) {
    list.append(el('li', { className: 'club-invited' }, `${c.name} invited you `,
      button('club-accept', 'Join', async () => { await api('POST', `${clubPath(c.id)}/join`); location.href = c.url; })));
  }
  if (!list.children.length) list.append(el('li', { textContent: 'None yet: start one, or open a club\'s link.' }));
  $('.club-create').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const f = ev.target;
    run(async () => {
      const c = await api('POST', '/api/clubs', { body: { name: f.name.value, public: f.public.checked } });
      location.href = `/club/${c.id}`;
    });
  });
  const search = async (q) => {
    const found = await api('GET', `/api/clubs?q=${encodeURIComponent(q)}`);
    $('.club-found').replaceChildren(...found.clubs.map(clubLink));
    if (!found.clubs.length) $('.club-found').append(el('li', { textContent: 'No public club by that name.' }));
  };
  $('.club-search').addEventListener('submit', (ev) => { ev.preventDefault(); run(() => search(ev.target.q.value)); });
  await search('');
}

function ratingText(ratings) {
  const parts = Object.entries(ratings).map(([g, r]) => `${gameName(g)} ${r.shown}`);
  return parts.length ? parts.join(', ') : 'not rated yet';
}

function seatAndGo(s, game) {
  if (s.token) saveSeat(s.table, s.seat, s.token, game);
  location.href = s.url;
}

function tableItem(c, t) {
  const who = t.seats.map((s) => s.name || 'a player').join(', ');
  const mineSeat = t.seats.find((s) => s.player === me.id);
  const result = mineSeat && t.results[me.id] !== undefined ? ['lost', 'drew', 'won'][t.results[me.id] + 1] : '';
  const li = el('li', { className: 'club-table', dataset: { table: t.id } },
    `${gameName(t.game)}${t.live ? ' (live)' : ''}: ${who}${t.free_seats ? `, ${t.free_seats} free` : ''}`,
    t.over ? ` — over${result ? `, you ${result}` : ''}` : '');
  if (c.role && !t.over && (mineSeat || t.free_seats)) {
    li.append(' ', button('club-sit', mineSeat ? 'Open' : 'Take a seat', async () => {
      seatAndGo(await api('POST', `${clubPath(c.id)}/tables/${encodeURIComponent(t.id)}/join`), t.game);
    }));
  } else {
    li.append(' ', el('a', { href: t.url, textContent: 'Watch' }));
  }
  return li;
}

function manage(c, box) {
  const full = `${location.origin}${c.invite.url}`;
  box.append(el('h2', { textContent: 'Invite' }),
    el('p', {}, 'The club\'s link: ', el('input', { className: 'club-invite-link', readOnly: true, value: full, size: 40 })),
    button('club-renew', 'New link (the old one stops working)', async () => { await api('POST', `${clubPath(c.id)}/link`); await showClub(c.id); }));
  const name = el('input', { className: 'club-invite-name', maxLength: 64, placeholder: 'a player\'s name' });
  box.append(el('p', {}, name, ' ', button('club-invite', 'Invite by name', async () => {
    const r = await api('POST', `${clubPath(c.id)}/invites`, { body: { name: name.value } });
    name.value = '';
    showError(r.state === 'member' ? 'That player is a member already.' : null);
  })));
}

// A short match: each count the game's options have (points or coats to win) at its least.
function shortOptions(g) {
  const o = {};
  for (const f of g.fields || []) {
    if (f.kind === 'count') o[f.name] = f.min;
    else if (f.kind === 'count_of' && f.units && f.units.length) o[f.name] = { [f.units[0].name]: f.units[0].min };
  }
  return o;
}

function newTable(c, box) {
  const pick = el('select', { className: 'club-game' }, ...games.map((g) => el('option', { value: g.id, textContent: g.name })));
  const live = el('input', { type: 'checkbox', className: 'club-live' });
  const short = el('input', { type: 'checkbox', className: 'club-short' });
  box.append(el('h2', { textContent: 'Play' }), el('p', {}, el('label', {}, 'Game ', pick), ' ',
    el('label', {}, live, ' live'), ' ', el('label', {}, short, ' short match'), ' ',
    button('club-new-table', 'New club table', async () => {
      const g = games.find((x) => x.id === pick.value);
      const body = { game: g.id, live: live.checked };
      if (short.checked) body.options = shortOptions(g);
      // the first seat is yours; the others wait for members to take them from this page
      seatAndGo(await api('POST', `${clubPath(c.id)}/tables`, { body }), g.id);
    })));
}

async function showLeaderboard(c, game, box) {
  const b = await api('GET', `${clubPath(c.id)}/leaderboard/${encodeURIComponent(game)}`);
  box.replaceChildren(...b.players.map((p) => el('li', { textContent: `${p.rank}. ${p.name}: ${p.shown}` })));
  if (!b.players.length) box.append(el('li', { textContent: 'Nobody is rated in this game yet.' }));
}

async function showClub(id) {
  const invite = new URLSearchParams(location.search).get('invite');
  const c = await api('GET', `${clubPath(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`);
  document.title = `taash: ${c.name}`;
  $('.club-title').textContent = c.name;
  const box = $('.club-one');
  box.hidden = false;
  box.dataset.role = c.role || '';
  box.replaceChildren(el('p', { className: 'club-state', textContent: c.closed ? 'This club is closed.' : `${c.public ? 'Public' : 'Private'} club${c.role ? `; you are its ${c.role}` : ''}.` }));
  if (!c.role && !c.closed) {
    box.append(button('club-join', `Join ${c.name}`, async () => {
      await api('POST', `${clubPath(id)}/join`, { body: invite ? { invite } : {} });
      history.replaceState(null, '', `/club/${id}`);
      await showClub(id);
    }));
  }
  box.append(el('h2', { textContent: 'Members' }), el('ul', { className: 'club-members' }, ...c.members.map((m) => {
    const li = el('li', { dataset: { player: m.player } }, `${m.name} (${m.role}): ${ratingText(m.ratings)}`);
    const canRemove = !c.closed && m.player !== me.id && m.role !== 'owner' && (c.role === 'owner' || (c.role === 'admin' && m.role === 'member'));
    if (canRemove) li.append(' ', button('club-remove', 'Remove', async () => { await api('DELETE', `${clubPath(id)}/members/${m.player}`); await showClub(id); }));
    return li;
  })));
  if (c.invite) manage(c, box);
  if (c.role && !c.closed) newTable(c, box);
  box.append(el('h2', { textContent: 'Tables' }), el('ul', { className: 'club-tables' }, ...c.tables.map((t) => tableItem(c, t))));
  if (c.events.length) {
    box.append(el('h2', { textContent: 'Events' }), el('ul', { className: 'club-events' }, ...c.events.map((e) => el('li', {},
      el('a', { href: `/assets/events.html#${e.id}`, textContent: `${gameName(e.game)}: ${e.boards} boards, ${e.state}` })))));
  }
  const board = el('ul', { className: 'club-leaderboard' });
  const pick = el('select', { className: 'club-board-game' }, ...games.map((g) => el('option', { value: g.id, textContent: g.name })));
  pick.addEventListener('change', () => run(() => showLeaderboard(c, pick.value, board)));
  box.append(el('h2', { textContent: 'Leaderboard' }), el('label', {}, 'Game ', pick), board);
  await showLeaderboard(c, pick.value, board);
  if (c.role && c.role !== 'owner' && !c.closed) {
    box.append(el('p', {}, button('club-leave', 'Leave the club', async () => { await api('POST', `${clubPath(id)}/leave`); location.href = '/clubs'; })));
  }
  if (c.role === 'owner' && !c.closed) {
    box.append(el('p', {}, button('club-close', 'Close the club for good', async () => {
      if (window.confirm(`Close ${c.name}? Nobody can join or play in it after.`)) { await api('POST', `${clubPath(id)}/close`); await showClub(id); }
    })));
  }
}

async function start() {
  me = await getMe(); // a guest session on the first visit: clubs are the player's
  games = await loadGames();
  const m = location.pathname.match(/^\/club\/([^/]+)$/);
  if (m) await showClub(decodeURIComponent(m[1]));
  else await showHome();
}

run(start);
