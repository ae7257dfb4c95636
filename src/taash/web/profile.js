// A player's public profile (/p/{id}): name, member since, a rating per game ("1703,
// provisional" while it is) with its history as a small line chart, stats per game, recent
// matches (each opens its table, where the finished match can be reviewed, and downloads its
// record), a challenge for a friend, an "Add friend" button for a signed-in viewer who is not yet
// one (nor blocked, nor the player), and the flag of the country the player gave, if any.
// Nothing private: the server's profile holds none.
import { api, getMe, knownMe } from './api.js';
import { lang, t } from './i18n.js';
import { h, fill, toast } from './ui.js';
import { puzzleSection } from './profile_puzzles.js';
import { loadGames, gameName } from './catalogue.js';
const SVG = 'http://www.w3.org/2000/svg';

export function mountProfile(root, { id, navigate }) {
  let dead = false;
  fill(root, h('main', { class: 'home profile', 'data-page': 'profile' }, h('p', { class: 'sub' }, t('loading'))));
  load(root, id, navigate, () => dead);
  return () => { dead = true; };
}

async function load(root, id, navigate, isDead) {
  let p;
  let hist;
  let mine = null;
  let games; // the games as the core states them (catalogue.js)
  let puzzles = null; // their puzzles (profile_puzzles.js); none from an older server
  try {
    [p, hist] = await Promise.all([api('GET', `/api/players/${encodeURIComponent(id)}`),
      api('GET', `/api/players/${encodeURIComponent(id)}/history?limit=100`)]);
    mine = await api('GET', '/api/me/friends').catch(() => null);
    puzzles = await api('GET', `/api/players/${encodeURIComponent(id)}/puzzles`).catch(() => null);
    games = await loadGames();
  } catch (e) {
    if (isDead()) return;
    fill(root, h('main', { class: 'home profile', 'data-page': 'profile' }, back(navigate),
      h('p', { class: 'error', 'data-error': e.code }, e.message)));
    return;
  }
  const me = knownMe() || (mine ? await getMe().catch(() => null) : null);
  if (isDead()) return;
  document.title = `${p.name} · taash`;
  const friend = mine && mine.friends.some((f) => f.player === p.id);
  fill(root, h('main', { class: 'home profile', 'data-page': 'profile', 'data-player': p.id },
    back(navigate),
    h('h1', { 'data-field': 'profile-name' }, p.name, p.country ? [' ', flag(p.country)] : null),
    h('p', { class: 'sub' }, t('member_since', { date: new Date(p.member_since).toLocaleDateString() })),
    friend ? challengeBox(p, games) : null,
    mine && me && me.id !== p.id && !friend ? addFriendBox(p, mine) : null,
    me && me.id === p.id ? h('p', { class: 'sub' }, t('this_is_you')) : null,
    h('section', { class: 'panel', 'data-section': 'ratings' }, h('h2', null, t('ratings')),
      Object.keys(p.ratings).length ? h('ul', null, games.filter((g) => p.ratings[g.id]).map((game) => h('li', { 'data-rating': game.id },
        h('b', null, gameName(game)), ' ', h('span', { 'data-shown': p.ratings[game.id].rating ?? p.ratings[game.id].shown,
          'data-provisional': String(!!p.ratings[game.id].provisional) }, ratingText(p.ratings[game.id])), ' ',
        h('small', null, t('rated_matches', { n: p.ratings[game.id].matches })),
        chart(hist.matches.filter((m) => m.game === game.id && m.rating_after))))) : h('p', { class: 'muted' }, t('no_ratings'))),
    podiums(p.podiums || [], games),
    puzzleSection(puzzles, navigate),
    h('section', { class: 'panel', 'data-section': 'stats' }, h('h2', null, t('stats')),
      games.filter((g) => p.stats[g.id]).map((g) => statsTable(g.id, p.stats[g.id]))),
    historyList(p.id, hist, navigate),
    me && me.id === p.id ? offlineBox() : null,
    h('p', null, h('a', { href: '/leaderboard', 'data-action': 'leaderboard',
      onclick: (e) => { e.preventDefault(); navigate('/leaderboard'); } }, t('leaderboards')))));
}

/** The offline matches kept on this device (offline_list.js, loaded when shown: not part of
 * the first load), on the player's own profile. */
function offlineBox() {
  const box = h('div', { 'data-offline-box': '' });
  import('./offline_list.js').then((m) => box.replaceWith(m.offlineSection())).catch(() => box.remove());
  return box;
}

/** A rating in words: "1703, provisional" while it is (the server's "1703?" read as a question
 * mark, issue 43), else the number. */
function ratingText(r) {
  if (!Number.isFinite(r.rating)) return String(r.shown ?? '');
  return r.provisional ? t('rating_provisional', { n: r.rating }) : String(r.rating);
}

/** The player's finished matches, newest first, twenty at a time ("More" asks for the next). */
function historyList(id, first, navigate) {
  const list = h('ul', { 'data-list': 'history' });
  const more = h('button', { class: 'btn small', type: 'button', 'data-action': 'more-history' }, t('more'));
  let next = null;
  const add = (page) => {
    for (const m of page.matches) list.append(matchLine(m, navigate));
    next = page.next;
    more.hidden = next === null;
  };
  add({ matches: first.matches.slice(0, 20), next: first.matches.length > 20 ? first.matches[19].ended : first.next });
  more.addEventListener('click', async () => {
    try {
      add(await api('GET', `/api/players/${encodeURIComponent(id)}/history?limit=20&before=${next}`));
    } catch (e) {
      toast(e.message, 'error');
    }
  });
  return h('section', { class: 'panel', 'data-section': 'recent' }, h('h2', null, t('recent_matches')),
    first.matches.length ? [list, more] : h('p', { class: 'muted' }, t('no_matches_yet')));
}

/** One finished match.  One played offline and brought home (`offline`) has no table to review,
 * only its record, and its bots may have no level written. */
function matchLine(m, navigate) {
  const bot = (o) => (o.level ? `${t('bot')} · ${t(`level_${o.level}`)}` : t('bot'));
  return h('li', { 'data-match': m.table, 'data-result': m.result, 'data-offline': m.offline ? 'true' : null },
    h('span', null, new Date(m.date).toLocaleDateString()), ' · ', t(`game_${m.game}`), ' · ',
    h('b', null, t(`result_${m.result}`)), ' · ',
    t('versus', { names: m.opponents.map((o) => (o.type === 'bot' ? bot(o) : o.name)).join(', ') }), ' ',
    m.offline ? [h('span', { class: 'badge offline-mark', 'data-offline': 'true' }, t('played_offline')), ' ']
      : [h('a', { href: `/t/${m.table}`, 'data-action': 'review',
        onclick: (e) => { e.preventDefault(); navigate(`/t/${m.table}`); } }, t('review')), ' '],
    h('a', { href: m.record, download: `${m.table}.json`, 'data-action': 'record' }, t('download_record')));
}

const MEDALS = ['\u{1F947}', '\u{1F948}', '\u{1F949}'];

/** A season (YYYY-MM) as its month is named in the page's language. */
function monthName(season) {
  const [y, m] = season.split('-').map(Number);
  return new Intl.DateTimeFormat(lang(), { month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(Date.UTC(y, m - 1, 1)));
}

/** The seasons whose podium the player stood on, the latest first (issue 47). */
function podiums(list, games) {
  if (!list.length) return null;
  const name = (id) => { const g = games.find((x) => x.id === id); return g ? gameName(g) : id; };
  return h('section', { class: 'panel', 'data-section': 'podiums' }, h('h2', null, t('podiums')),
    h('ul', null, list.map((p) => h('li', { 'data-podium': `${p.game} ${p.season}`, 'data-rank': String(p.rank) },
      h('span', { 'aria-hidden': 'true' }, MEDALS[p.rank - 1] || ''), ' ',
      h('b', null, t('podium_place', { rank: p.rank })), ' · ', name(p.game), ' · ', monthName(p.season),
      ' ', h('small', null, p.shown)))));
}

/** /leaderboard: each game's rated players past their provisional rating, best first; or a
 * month's (a season's) standings, with the months before it a tap away. */
export function mountLeaderboard(root, { navigate }) {
  let dead = false;
  let mode = 'all';
  let season = null; // null: this month
  const box = h('div', null, h('p', { class: 'sub' }, t('loading')));
  const tab = (which, words) => h('button', { class: 'btn', type: 'button', 'data-board': which,
    'aria-pressed': String(mode === which),
    onclick: () => { mode = which; season = null; tabs.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.board === mode))); show(); } }, words);
  const tabs = [tab('all', t('board_all_time')), tab('season', t('board_season'))];
  fill(root, h('main', { class: 'home profile', 'data-page': 'leaderboard' }, back(navigate),
    h('h1', null, t('leaderboards')), h('p', { class: 'board-tabs', role: 'group' }, tabs), box));
  const player = (r) => [h('a', { href: `/p/${encodeURIComponent(r.player)}`,
    onclick: (e) => { e.preventDefault(); navigate(`/p/${encodeURIComponent(r.player)}`); } }, r.name),
  ' ', h('b', null, ratingText(r)), ' ', h('small', null, t('rated_matches', { n: r.matches }))];
  const show = () => loadGames().then((games) => {
    const path = (g) => (mode === 'all' ? `/api/leaderboard/${g.id}`
      : `/api/seasons/${g.id}${season ? `?season=${season}` : ''}`);
    return Promise.all(games.map((g) => api('GET', path(g)).catch(() => null))).then((boards) => {
      if (dead) return;
      if (mode === 'all') {
        fill(box, games.map((game, i) => h('section', { class: 'panel', 'data-leaderboard': game.id },
          h('h2', null, gameName(game)),
          boards[i] && boards[i].length ? h('ol', null, boards[i].map((r) => h('li', { 'data-player': r.player }, player(r))))
            : h('p', { class: 'muted' }, t('no_leaders_yet')))));
        return;
      }
      const any = boards.find((b) => b);
      if (!any) throw new Error('no season');
      const month = monthName(any.season);
      fill(box, h('nav', { class: 'season-nav', 'data-season': any.season },
        h('button', { class: 'btn', type: 'button', 'data-action': 'season-previous',
          onclick: () => { season = any.previous; show(); } }, `\u2190 ${t('season_previous')}`), ' ',
        h('b', null, month, any.closed ? [' \u00b7 ', t('season_closed')] : null), ' ',
        any.next ? h('button', { class: 'btn', type: 'button', 'data-action': 'season-next',
          onclick: () => { season = any.next; show(); } }, `${t('season_next')} \u2192`) : null),
      h('p', { class: 'sub' }, t('season_rule', { n: any.min_matches })),
      games.map((game, i) => h('section', { class: 'panel', 'data-leaderboard': game.id, 'data-season': any.season },
        h('h2', null, gameName(game)),
        boards[i] && boards[i].rows.length ? h('ol', null, boards[i].rows.map((r) => h('li', { 'data-player': r.player }, player(r))))
          : h('p', { class: 'muted' }, t('no_season_leaders', { month })))));
    });
  }).catch(() => { if (!dead) fill(box, h('p', { class: 'error' }, t('games_unavailable'))); });
  show();
  return () => { dead = true; };
}

function back(navigate) {
  return h('p', null, h('a', { href: '/', onclick: (e) => { e.preventDefault(); navigate('/'); } }, `\u2190 ${t('home')}`));
}

/** The country's flag: its two letters as regional indicator symbols, named for a screen
 * reader in the page's language. */
function flag(code) {
  let name = code;
  try { name = new Intl.DisplayNames([lang()], { type: 'region' }).of(code) || code; } catch { /* an old browser */ }
  const emoji = String.fromCodePoint(...[...code].map((c) => 0x1F1E6 + c.charCodeAt(0) - 65));
  return h('span', { class: 'flag', role: 'img', 'data-flag': code, 'aria-label': t('country_flag', { country: name }),
    title: name }, emoji);
}

/** "Add friend" (asks them; they confirm on their side), or "Request sent"; none for a player
 * the viewer blocked. */
function addFriendBox(p, mine) {
  if (mine.blocked.some((f) => f.player === p.id)) return null;
  const box = h('p', { class: 'add-friend' });
  const said = (state) => fill(box, h('span', { class: 'sub', 'data-field': 'friend-state', 'data-state': state },
    t(state === 'friends' ? 'friend_state_friends' : 'friend_state_asked')));
  if (mine.asked.some((f) => f.player === p.id)) {
    said('asked');
    return box;
  }
  const btn = h('button', { class: 'btn primary', type: 'button', 'data-action': 'add-friend',
    onclick: async () => {
      btn.disabled = true;
      try {
        const r = await api('POST', '/api/me/friends', { body: { player: p.id } });
        said(r.state);
      } catch (e) {
        btn.disabled = false;
        toast(e.message, 'error');
      }
    } }, t('add_friend'));
  fill(box, btn);
  return box;
}

/** Challenge a friend: the game is asked (none is chosen until the player chooses one, so no
 * challenge goes for a game taken silently), live or whenever, and the button that sends it. */
function challengeBox(p, games) {
  const send = h('button', { class: 'btn primary', type: 'button', 'data-action': 'challenge', disabled: true,
    onclick: async () => {
      try {
        await api('POST', '/api/me/challenges', { body: { to: p.id, game: game.value, live: live.checked } });
        toast(t('challenge_sent', { name: p.name }));
      } catch (e) {
        toast(e.message, 'error');
      }
    } }, t('challenge'));
  const game = h('select', { 'data-field': 'challenge-game', onchange: () => { send.disabled = !game.value; } },
    h('option', { value: '', selected: true, disabled: true }, t('choose_game')),
    games.map((g) => h('option', { value: g.id }, gameName(g))));
  const live = h('input', { type: 'checkbox', 'data-field': 'challenge-live' });
  return h('section', { class: 'panel challenge', 'data-section': 'challenge' },
    h('h2', null, t('challenge_name', { name: p.name })),
    h('label', { class: 'field' }, h('span', null, t('which_game')), game),
    h('label', { class: 'field check' }, live, h('span', null, t('live_table'))),
    send);
}

/** The rating after each rated match, oldest first, as one SVG line (no chart library). */
function chart(matches) {
  if (matches.length < 2) return null;
  const pts = matches.slice().reverse().map((m) => m.rating_after.rating);
  const w = 160;
  const ht = 40;
  const lo = Math.min(...pts);
  const hi = Math.max(...pts);
  const span = hi - lo || 1;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${ht}`);
  svg.setAttribute('width', String(w));
  svg.setAttribute('height', String(ht));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('rating_chart', { from: pts[0], to: pts[pts.length - 1] }));
  svg.setAttribute('data-chart', '');
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  line.setAttribute('points', pts.map((v, i) => `${(i * (w - 4)) / (pts.length - 1) + 2},${ht - 2 - ((v - lo) * (ht - 4)) / span}`).join(' '));
  svg.append(line);
  return svg;
}

function statsTable(game, s) {
  const rows = [
    [t('matches'), s.matches.played, s.matches.won, s.matches.lost, s.matches.drawn],
    [t('deals'), s.deals.played, s.deals.won, '', ''],
  ];
  for (const [kind, tally] of Object.entries(s.by_opponent)) {
    const who = kind === 'people' ? t('vs_people') : kind.startsWith('bot:') ? `${t('bot')} · ${t(`level_${kind.slice(4)}`)}` : kind;
    rows.push([who, tally.played, tally.won, tally.lost, tally.drawn]);
  }
  const extra = [];
  for (const k of ['coats_won', 'coats_suffered', 'courts_won', 'courts_suffered', 'goats', 'goats_given', 'eggs', 'defeat_taken', 'best_streak', 'streak']) {
    if (k in s && s[k] !== null) extra.push(h('li', { 'data-stat': k }, `${t(`stat_${k}`)}: ${s[k]}`));
  }
  return h('div', { class: 'stats', 'data-stats': game }, h('h3', null, t(`game_${game}`)),
    h('table', null,
      // the corner is a cell, not an empty header (axe: a header says what its column holds);
      // each row's first cell heads its row
      h('thead', null, h('tr', null, h('td'), [t('played'), t('won'), t('lost'), t('drawn')].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', null, rows.map((r) => h('tr', null, h('th', { scope: 'row' }, String(r[0])), r.slice(1).map((c) => h('td', null, String(c))))))),
    h('ul', { class: 'stat-list' }, extra));
}
