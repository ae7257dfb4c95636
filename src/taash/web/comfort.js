// Comfort at the table (issue 50), this device's settings (home_player.js): large cards, and
// the calm pace (a speed: the bots wait longer, a finished trick stays longer).  The page is
// marked once at start and on each change: html[data-cards='large'] makes every card bigger
// (style.css).  The system's own asks, reduced motion and more contrast, are honoured by the
// style sheet and motion.js.
import { setting, setSetting } from './api.js';

export const largeCards = () => setting('large_cards', 'off') === 'on';

/** The page marked by the settings kept on this device. */
export function applyComfort() {
  const root = document.documentElement;
  if (largeCards()) root.dataset.cards = 'large';
  else delete root.dataset.cards;
}

export function setLargeCards(on) {
  setSetting('large_cards', on ? 'on' : 'off');
  applyComfort();
}
