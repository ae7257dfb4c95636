// Cards: codes like "AS" and "TD" (rank then suit), their order in each game (its pack's
// ranks, low to high, as the core describes the game: catalogue.js), and their elements.
// Every card element carries data-card (the code, or "back") and data-playable.
import { gameOf } from './catalogue.js';
import { h } from './ui.js';
import { t } from './i18n.js';

// U+FE0E asks for the text (not emoji) form of the suit signs.
export const SUIT_SIGN = { S: '\u2660\uFE0E', H: '\u2665\uFE0E', D: '\u2666\uFE0E', C: '\u2663\uFE0E' };
// the ranks' order where the games are not loaded yet (a table view loads them first)
const PLAIN_ORDER = '23456789TJQKA';
// Black and red alternate; rotating the cycle to put trumps first keeps them alternating.
const SUIT_CYCLE = ['S', 'H', 'C', 'D'];

export const rankText = (r) => (r === 'T' ? '10' : r);

export function cardName(code) {
  return t('card', { rank: t(`rank_${code[0]}`), suit: t(`suit_${code[1]}_of`) });
}

/** The hand sorted for display: suits grouped (trumps first), high cards first in each, in
 * the order of `game`'s ranks (a game id; one the page does not know sorts as the
 * catalogue's first game). */
export function sortHand(cards, game, trump) {
  const described = gameOf(game);
  const order = described ? described.ranks : PLAIN_ORDER;
  let suits = SUIT_CYCLE;
  if (trump && suits.includes(trump)) {
    const i = suits.indexOf(trump);
    suits = suits.slice(i).concat(suits.slice(0, i));
  }
  const present = suits.filter((s) => cards.some((c) => c[1] === s));
  // Avoid two suits of one colour side by side when a suit is missing, trumps staying first.
  const arranged = [];
  const rest = present.slice();
  while (rest.length) {
    const prev = arranged[arranged.length - 1];
    let pick = 0;
    if (prev && arranged.length > 0) {
      const red = (s) => s === 'H' || s === 'D';
      const j = rest.findIndex((s) => red(s) !== red(prev));
      if (j >= 0) pick = j;
    }
    arranged.push(rest.splice(pick, 1)[0]);
  }
  return cards.slice().sort((a, b) => {
    const sa = arranged.indexOf(a[1]);
    const sb = arranged.indexOf(b[1]);
    if (sa !== sb) return sa - sb;
    return order.indexOf(b[0]) - order.indexOf(a[0]);
  });
}

/** A face-up card element; `tag` is 'button' for the hand, 'div' elsewhere. */
export function cardEl(code, { tag = 'div', trump = null, playable = false, small = false } = {}) {
  const s = code[1];
  const el = h(tag, {
    class: `card face suit-${s}${trump && s === trump ? ' trump' : ''}${small ? ' small' : ''}`,
    'data-card': code,
    'data-playable': playable ? 'true' : 'false',
    'aria-label': cardName(code),
    // a card on the felt is a picture to a screen reader, named by its label
    role: tag === 'button' ? null : 'img',
    type: tag === 'button' ? 'button' : null,
  },
  h('span', { class: 'corner', 'aria-hidden': 'true' },
    h('b', { 'data-rank': code[0] }, rankText(code[0])), h('i', null, SUIT_SIGN[s])),
  h('span', { class: 'pip', 'aria-hidden': 'true' }, SUIT_SIGN[s]),
  h('span', { class: 'corner end', 'aria-hidden': 'true' },
    h('b', { 'data-rank': code[0] }, rankText(code[0])), h('i', null, SUIT_SIGN[s])));
  return el;
}

export function backEl({ small = false } = {}) {
  return h('div', {
    class: `card back${small ? ' small' : ''}`, 'data-card': 'back', 'data-playable': 'false',
    'aria-label': t('face_down'), role: 'img',
  });
}
