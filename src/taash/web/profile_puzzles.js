// A player's puzzles on their profile (issue 49): each game's puzzle rating (or that it is not
// rated: a guest's), how many they solved of those they tried and their best streak, and their
// latest attempts, each a link to its puzzle.
import { gameName, gameOf } from './catalogue.js';
import { t } from './i18n.js';
import { h } from './ui.js';

const round = (x) => String(Math.round(x));

/** The section, from GET /api/players/{id}/puzzles (null: none to show). */
export function puzzleSection(pz, navigate) {
  if (!pz || !pz.games || !pz.games.length) return null;
  const name = (id) => gameName(gameOf(id) && gameOf(id).id === id ? gameOf(id) : { id, name: id });
  return h('section', { class: 'panel', 'data-section': 'puzzles' }, h('h2', null, t('profile_puzzles')),
    h('ul', null, pz.games.map((g) => h('li', { 'data-puzzle-rating': g.game, 'data-rating': g.rating ? round(g.rating.rating) : '' },
      h('b', null, name(g.game)), ' ',
      g.rating ? t('profile_puzzle_rating', { rating: round(g.rating.rating) }) : t('profile_puzzle_unrated'), ' · ',
      t('profile_puzzle_solved', { solved: g.solved, n: g.attempts }),
      g.best_streak ? ` · ${t('profile_puzzle_streak', { best: g.best_streak })}` : ''))),
    pz.recent.length ? h('ol', { class: 'puzzle-history', 'data-puzzle-history': '' }, pz.recent.map((a) => h('li', {
      'data-puzzle': a.id, 'data-solved': String(a.solved) },
    h('a', { href: a.url, onclick: (e) => { e.preventDefault(); navigate(a.url); } },
      `${name(a.game)} · ${a.solved ? t('puzzle_solved') : t('puzzle_missed')}`),
    a.rating_after !== null ? ` · ${round(a.rating_before)} → ${round(a.rating_after)}` : '',
    ' ', h('small', { class: 'muted' }, new Date(a.at).toLocaleDateString())))) : null);
}
