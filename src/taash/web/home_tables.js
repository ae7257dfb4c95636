// The home screen's "My tables": the player's tables (from the server, the same on each of
// their devices) and those of the seat tokens this browser keeps, their turn first; each row
// says who plays, when the table last moved and whose turn it is.
import { forgetSeat } from './api.js';
import { lang, t } from './i18n.js';
import { h, fill } from './ui.js';
import { reviewUrl } from './review.js';

export class MyTables {
  /** `forgot()` runs once a kept seat is forgotten (the home screen asks again). */
  constructor({ navigate, forgot }) {
    Object.assign(this, { navigate, forgot });
    this.el = h('section', { class: 'panel my-tables', 'data-section': 'my-tables', hidden: true });
  }

  render(server, local, seats) {
    const key = (r) => `${r.id}/${r.seat}`;
    const theirs = new Set(server.map(key));
    const kept = local.filter((r) => !theirs.has(key(r)) && seats.some((s) => s.id === r.id && s.seat === r.seat));
    const known = [...server.map((r) => ({ ...r, player: true })), ...kept];
    known.sort((a, b) => (b.your_turn - a.your_turn) || (a.over - b.over) || ((b.updated || 0) > (a.updated || 0) ? 1 : -1));
    this.el.hidden = !known.length;
    const turns = known.filter((r) => r.your_turn && !r.over).length;
    fill(this.el,
      h('h2', null, t('my_tables'), turns ? h('span', { class: 'count-badge' }, String(turns)) : null),
      h('ul', { class: 'table-list' }, known.map((r) => h('li', { 'data-my-table': r.id, 'data-your-turn': r.your_turn && !r.over ? 'true' : 'false' },
        h('button', { class: 'row-main', type: 'button', onclick: () => this.navigate(`/t/${r.id}?seat=${r.seat}`) },
          h('b', null, t(`game_${r.game}`)),
          h('small', null, rowWho(r, when(r.updated))),
          h('span', { class: `badge${r.over ? ' done' : r.your_turn ? ' turn' : ''}`, 'data-turn': r.over ? 'over' : r.your_turn ? 'yours' : 'theirs' }, rowTurn(r))),
        r.over ? h('button', { class: 'btn tool', type: 'button', 'data-action': 'review-table',
          onclick: () => this.navigate(reviewUrl(r.id, null, r.seat)) }, t('review_last')) : null,
        r.player ? null : h('button', { class: 'btn icon forget', type: 'button', 'aria-label': t('forget'), title: t('forget'),
          onclick: () => { forgetSeat(r.id, r.seat); this.forgot(); } }, '×')))));
  }
}

/** A seat at a table as the table names it: its name, else a bot's name, else "Player n". */
function seatLabel(s) {
  if (s.name) return s.name;
  return s.type === 'bot' ? t(`bot_name_${s.seat % 4}`) : t('player_n', { n: s.seat + 1 });
}

/** Names as a list in the page's language: "Bilal, Chandni and Dima". */
function listOf(names) {
  try {
    return new Intl.ListFormat(lang(), { type: 'conjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

/** A home row's second line: the other players at the table and when it last moved (a server
 * that sends no seats: "Seat n", as before). */
export function rowWho(r, since = '') {
  const others = (r.seats || []).filter((s) => s.seat !== r.seat).map(seatLabel);
  const who = others.length ? t('with_players', { names: listOf(others) }) : t('seat_n', { n: r.seat + 1 });
  return since ? `${who} · ${since}` : who;
}

/** A home row's badge: finished, your turn, or whose turn it is ("Dima's turn"). */
export function rowTurn(r) {
  if (r.over) return t('finished');
  if (r.your_turn) return t('your_turn_short');
  const mover = (r.seats || []).find((s) => s.seat === r.to_move);
  return mover ? t('turn_of', { name: seatLabel(mover) }) : t('waiting');
}

function when(updated) {
  if (!updated) return '';
  const ms = typeof updated === 'number' ? (updated < 1e12 ? updated * 1000 : updated) : Date.parse(updated);
  if (!Number.isFinite(ms)) return '';
  const s = Math.round((ms - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(lang(), { numeric: 'auto' });
  const a = Math.abs(s);
  if (a < 60) return rtf.format(s, 'second');
  if (a < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (a < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}
