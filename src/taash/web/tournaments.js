// The tournaments page (docs/tournaments.md): at /tournaments, the scheduled and running
// tournaments and the player's own; at /tournaments?id=ID, one tournament: its countdown,
// registering and leaving, the player's table of the round, the live standings (Swiss: score
// and Buchholz; arena: points and streaks) and every round's games. Everything comes from
// /api/tournaments (docs/API.md); a running tournament is asked again every few seconds.
import { api, getMe } from './api.js';
import { gameName as nameOfGame, loadGames } from './catalogue.js';
import { pickLang, setLang, t } from './i18n.js';
import { $, el, errorBox } from './page_kit.js';

const { run } = errorBox('.tour-error');
const REFRESH_MS = 4000;

let games = [];
const gameName = (id) => { const g = games.find((x) => x.id === id); return g ? nameOfGame(g) : id; };
const path = (id) => `/api/tournaments/${encodeURIComponent(id)}`;
const button = (className, textContent, onclick) => el('button', { type: 'button', className, textContent, onclick: () => run(onclick) });

function countdown(s) {
  const m = Math.floor(s / 60);
  return m >= 1 ? t('tour_starts_in_min', { n: m }) : t('tour_starts_in_s', { n: Math.ceil(s) });
}

function summary(x) {
  const kind = x.kind === 'swiss' ? t('tour_swiss', { n: x.rounds }) : t('tour_arena', { n: x.minutes });
  const when = x.state === 'scheduled' ? countdown(x.seconds_to_start || 0) : t(`tour_state_${x.state}`);
  return `${gameName(x.game)} · ${kind} · ${t('tour_entrants', { n: x.entrants })} · ${when}${x.registered ? ` · ${t('tour_registered')}` : ''}`;
}

function item(x) {
  return el('li', { className: 'tour-item', dataset: { tournament: x.id } },
    el('a', { href: `/tournaments?id=${encodeURIComponent(x.id)}`, textContent: x.name }), ` — ${summary(x)}`);
}

async function showHome() {
  $('.tour-home').hidden = false;
  const list = await api('GET', '/api/tournaments');
  $('.tour-list').replaceChildren(...list.tournaments.map(item));
  if (!list.tournaments.length) $('.tour-list').append(el('li', { textContent: t('tour_none') }));
  $('.tour-mine').replaceChildren(...list.mine.map(item));
  if (!list.mine.length) $('.tour-mine').append(el('li', { textContent: t('tour_none_mine') }));
}

function standingsTable(x) {
  const swiss = x.kind === 'swiss';
  const head = el('tr', {}, ...['tour_rank', 'tour_name', 'tour_score', swiss ? 'tour_buchholz' : 'tour_streak', 'tour_played']
    .map((k) => el('th', { scope: 'col', textContent: t(k) })));
  const rows = x.standings.map((s) => el('tr', { dataset: { seed: String(s.seed) } },
    el('td', { textContent: String(s.rank) }), el('td', { textContent: s.name }),
    el('td', { textContent: String(s.score) }),
    el('td', { textContent: swiss ? String(s.buchholz) : (s.streak ? t('tour_on_streak') : '') }),
    el('td', { textContent: String(s.played) })));
  return el('table', { className: 'tour-standings' }, el('thead', {}, head), el('tbody', {}, ...rows));
}

function gamesList(x) {
  const names = Object.fromEntries(x.entrant_list.map((e) => [e.seed, e.name]));
  const result = (g) => {
    if (g.b === null) return t('tour_bye');
    if (g.result === null) return t('tour_playing');
    return g.result === 'draw' ? t('tour_draw') : t('tour_won', { name: names[g.result === 'a' ? g.a : g.b] });
  };
  return el('ul', { className: 'tour-games' }, ...x.games.map((g) => el('li', { dataset: { round: String(g.round) } },
    `${t('tour_round', { n: g.round })}: ${names[g.a]}${g.b === null ? '' : ` – ${names[g.b]}`} (${result(g)})`,
    g.final ? ` · ${t('tour_final')}` : '',
    g.table ? el('span', {}, ' ', el('a', { href: `/t/${g.table}`, textContent: t('tour_table') })) : '')));
}

let timer = null;

async function showOne(id) {
  const x = await api('GET', path(id));
  const box = $('.tour-one');
  box.hidden = false;
  box.replaceChildren(el('h2', { textContent: x.name }), el('p', { className: 'tour-summary', textContent: summary(x) }));
  if (x.my_table) {
    box.append(el('p', { className: 'tour-my-table' }, el('a', { className: 'btn', href: x.my_table.url, textContent: t('tour_your_table', { n: x.my_table.round }) })));
  }
  if (x.state === 'scheduled') {
    box.append(x.registered
      ? button('tour-leave', t('tour_unregister'), async () => { await api('POST', `${path(id)}/unregister`); await showOne(id); })
      : button('tour-register', t('tour_register'), async () => { await api('POST', `${path(id)}/register`); await showOne(id); }));
    box.append(el('h3', { textContent: t('tour_entrant_list') }),
      el('ul', { className: 'tour-entrants' }, ...x.entrant_list.map((e) => el('li', { textContent: e.name }))));
  } else {
    box.append(el('h3', { textContent: t('tour_standings') }), standingsTable(x));
    if (x.final_table) box.append(el('p', {}, el('a', { className: 'tour-final', href: `/t/${x.final_table}`, textContent: t('tour_final_table') })));
    box.append(el('h3', { textContent: t('tour_games') }), gamesList(x));
  }
  clearTimeout(timer);
  if (x.state === 'scheduled' || x.state === 'running') timer = setTimeout(() => run(() => showOne(id)), REFRESH_MS);
}

async function main() {
  await setLang(pickLang());
  $('.tour-title').textContent = t('tournaments');
  $('.tour-open-title').textContent = t('tour_open');
  $('.tour-mine-title').textContent = t('tour_mine');
  $('.tour-all').textContent = t('tour_all');
  $('.tour-back').textContent = t('tour_back');
  document.title = `taash: ${t('tournaments')}`;
  await getMe();
  games = await loadGames();
  const id = new URLSearchParams(location.search).get('id');
  if (id) await showOne(id);
  else await showHome();
}

run(main);
