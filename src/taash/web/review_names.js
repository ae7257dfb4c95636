// The deal review's words for who sat where (review.js): a seat by its player's name, as the
// record keeps it (issue 43: never "Seat 2"), a bot as its table called it with its level, a
// seat the record does not name by its place; a team by its two players.
import { t } from './i18n.js';

// an unnamed seat by its place at the table, as the bridge solver's seats go round (review/dds.py)
const PLACES_OF_FOUR = ['north', 'east', 'south', 'west'];
const PLACES_OF_TWO = ['north', 'south'];

/** Seat `s` of the review's deal `d`; `me`: the seat the review is seen from (or null). */
export function seatName(d, s, me) {
  const p = (d.players || [])[s] || {};
  let who;
  if (p.name) who = p.name;
  else if (p.type === 'bot') who = `${t(`bot_name_${s % 4}`)} (${t('bot')} · ${t(`level_${p.level || 'easy'}`)})`;
  else who = t(`seat_${(d.seats === 2 ? PLACES_OF_TWO : PLACES_OF_FOUR)[s]}`);
  return who + (s === me ? ` (${t('you')})` : '');
}

/** Side `i` of deal `d`: a seat of two, or a team by its players' names. */
export function sideName(d, i, me) {
  if (d.seats === 2) return seatName(d, i, me);
  const team = d.teams && d.teams[i];
  return team && team.length === 2
    ? t('review_team', { a: seatName(d, team[0], me), b: seatName(d, team[1], me) }) : t('team_n', { n: i + 1 });
}
