// Home's puzzle card (issue 49): the daily puzzle of each game (the same for everyone on a UTC
// date) and the puzzles page, on home's first screen beside the events feed.  It asks the
// server nothing: the games come from the catalogue home loads anyway, and the page behind
// each link (puzzles.js) is loaded only when opened.
import { gameName, loadGames } from './catalogue.js';
import { t } from './i18n.js';
import { h, fill } from './ui.js';

/** The card: filled once the games are loaded (what home waits for before data-ready). */
export function puzzleCard(navigate) {
  const go = (href) => (e) => { e.preventDefault(); navigate(href); };
  const el = h('div', { class: 'puzzle-card', 'data-section': 'daily-puzzle', hidden: true });
  const loaded = loadGames().then((games) => {
    const links = games.map((g) => {
      const href = `/puzzles?daily=${encodeURIComponent(g.id)}`;
      return h('a', { class: 'btn', href, 'data-daily-puzzle': g.id, onclick: go(href) }, gameName(g));
    });
    fill(el, h('span', { class: 'puzzle-card-title' }, t('puzzle_daily')), ' ', links, ' ',
      h('a', { href: '/puzzles', 'data-action': 'puzzles', onclick: go('/puzzles') }, t('puzzles_all')));
    el.hidden = false;
  }).catch(() => {});
  return { el, loaded };
}
