// cards.js: card names in words and signs, and the hand's display order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { installBrowser, overrides, useLang } from './browser.mjs';

installBrowser();
// each game's ranks come from the games as the core describes them (/assets/games.json)
overrides.set('games.json', readFileSync(new URL('./games.json', import.meta.url), 'utf8'));
const { cardName, rankText, sortHand, SUIT_SIGN } = await import('../../src/taash/web/cards.js');
const { loadGames } = await import('../../src/taash/web/catalogue.js');
before(() => Promise.all([useLang('en'), loadGames()]));

test('suit signs ask for the text form, ranks write T as 10', () => {
  assert.equal(SUIT_SIGN.S, '\u2660\uFE0E');
  assert.equal(SUIT_SIGN.D, '\u2666\uFE0E');
  assert.deepEqual(Object.keys(SUIT_SIGN).sort(), ['C', 'D', 'H', 'S']);
  assert.equal(rankText('T'), '10');
  assert.equal(rankText('Q'), 'Q');
});

test('a card in words', () => {
  assert.equal(cardName('TS'), '10 of spades');
  assert.equal(cardName('AH'), 'Ace of hearts');
});

test('a hand is grouped by suit, black and red alternating, high cards first', () => {
  const hand = ['2S', 'QD', 'AS', '3C', 'KH', '9C'];
  assert.deepEqual(sortHand(hand, 'court-piece', null), ['AS', '2S', 'KH', '9C', '3C', 'QD']);
  assert.deepEqual(hand, ['2S', 'QD', 'AS', '3C', 'KH', '9C'], 'the hand given is not reordered');
});

test('trumps come first, the colours still alternating', () => {
  const hand = ['2S', 'QD', 'AS', '3C', 'KH', '9C'];
  assert.deepEqual(sortHand(hand, 'court-piece', 'C'), ['9C', '3C', 'QD', 'AS', '2S', 'KH']);
  assert.deepEqual(sortHand(hand, 'court-piece', 'H'), ['KH', '9C', '3C', 'QD', 'AS', '2S']);
});

test('with a suit missing, two suits of one colour are kept apart where they can be', () => {
  // spades (trump), clubs, diamonds: not S C D (black beside black) but S D C
  assert.deepEqual(sortHand(['4C', '5S', '6D'], 'court-piece', 'S'), ['5S', '6D', '4C']);
  // only black suits: side by side, as nothing else can be
  assert.deepEqual(sortHand(['4C', '5S'], 'court-piece', null), ['5S', '4C']);
});

test('Goat\'s order: the ten ranks above the king', () => {
  assert.deepEqual(sortHand(['KS', 'TS', 'JS', 'AS', '6S'], 'goat', null), ['AS', 'TS', 'KS', 'JS', '6S']);
  assert.deepEqual(sortHand(['KS', 'TS'], 'court-piece', null), ['KS', 'TS']);
  // a game the page does not know sorts as the catalogue's first game (Court Piece)
  assert.deepEqual(sortHand(['KS', 'TS'], 'whist', null), ['KS', 'TS']);
});
