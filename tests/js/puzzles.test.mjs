// puzzle_board.js: a move's key (Goat's cards in any order are one move), each seat named from
// the mover's place as the table places it (seats.js: the next seat on the left), the sides.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installBrowser } from './browser.mjs';

installBrowser();
const { setLang } = await import('../../src/taash/web/i18n.js');
const { keyOf, seatName, sideOf } = await import('../../src/taash/web/puzzle_board.js');
const { place } = await import('../../src/taash/web/seats.js');
await setLang('en');

test("a move's key: its verb and its cards sorted", () => {
  assert.equal(keyOf('lead:JC,9C'), keyOf('lead:9C,JC'));
  assert.notEqual(keyOf('beat:9C'), keyOf('pass:9C'));
  assert.equal(keyOf('play:KD'), 'play:KD');
});

test('seats are named from the mover, where the table would place them', () => {
  const four = { teams: [[0, 2], [1, 3]] };
  assert.equal(seatName(four, 1, 1, 4), 'You');
  assert.equal(seatName(four, 1, 3, 4), 'Partner');
  assert.equal(seatName(four, 1, 2, 4), 'Opponent on your left');
  assert.equal(place(2, 1, 4), 'left');
  assert.equal(seatName(four, 1, 0, 4), 'Opponent on your right');
  assert.equal(place(0, 1, 4), 'right');
  assert.equal(seatName({}, 0, 1, 2), 'Opponent');
  assert.equal(sideOf(four, 3), 1);
  assert.equal(sideOf({}, 1), 1);
});
