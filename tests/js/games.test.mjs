// The game descriptors (web/games/*.js): actions parsed, tricks laid out seat by seat, the
// score sheet's running totals, the words of a turn and a result, the rules' section.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { installBrowser, overrides, useLang } from './browser.mjs';

installBrowser();
// the games as the core describes them (the rules' section asks whether a game plays card sets)
overrides.set('games.json', readFileSync(new URL('./games.json', import.meta.url), 'utf8'));
const { cardsOf, pair, verbOf } = await import('../../src/taash/web/games/base.js');
const { rendererFor } = await import('../../src/taash/web/games/index.js');
const { CourtPiece } = await import('../../src/taash/web/games/court-piece.js');
const { CourtPiece2p } = await import('../../src/taash/web/games/court-piece-2p.js');
const { Goat } = await import('../../src/taash/web/games/goat.js');
const { sectionFor } = await import('../../src/taash/web/help.js');
const { loadGames, gameOf, optionsText } = await import('../../src/taash/web/catalogue.js');
before(() => Promise.all([useLang('en'), loadGames()]));

/** A table as a renderer sees it: this seat, the number of seats, names. */
const table = ({ me = 0, seats = 4, turn = false, view = {} } = {}) => ({
  me: () => me,
  numSeats: () => seats,
  yourTurn: () => turn,
  view,
  name: (s) => `P${s}`,
  sideName: (s) => `side${s}`,
  said: (s, key) => `${key}:${s}`,
});

test('an action\'s verb and cards', () => {
  assert.equal(verbOf('play:AS'), 'play');
  assert.equal(verbOf('pass'), 'pass');
  assert.deepEqual(cardsOf('play:AS'), ['AS']);
  assert.deepEqual(cardsOf('lead:AS,KS,QS'), ['AS', 'KS', 'QS']);
  assert.deepEqual(cardsOf('trump:H'), ['H']);
  assert.deepEqual(cardsOf('pass'), []);
  assert.deepEqual(cardsOf('beat:'), []);
  assert.equal(pair(3, 1), '3 – 1');
});

test('each game id has its renderer and number of seats; an unknown one is Court Piece', () => {
  const tb = table();
  assert.ok(rendererFor('court-piece', tb) instanceof CourtPiece);
  assert.ok(rendererFor('court-piece-2p', tb) instanceof CourtPiece2p);
  assert.ok(rendererFor('goat', tb) instanceof Goat);
  assert.ok(rendererFor('bridge', tb) instanceof CourtPiece);
  assert.deepEqual(['court-piece', 'court-piece-2p', 'goat'].map((g) => rendererFor(g, tb).seats), [4, 2, 4]);
});

test('a seat\'s side: its team of four seats, its seat of two, side 0 when watching', () => {
  assert.equal(new CourtPiece(table({ me: 3 })).mySide(), 1);
  assert.equal(new CourtPiece(table({ me: 2 })).mySide(), 0);
  assert.equal(new CourtPiece2p(table({ me: 1, seats: 2 })).mySide(), 1);
  assert.equal(new Goat(table({ me: null })).mySide(), 0);
  assert.equal(new CourtPiece(table()).dealWinner({ winner: 1 }), 1);
  assert.equal(new CourtPiece(table()).dealWinner({ winner: null }), null);
});

test('Goat: a game is won by the team that took no defeat points; eggs (60-60) win for no one', () => {
  const goat = new Goat(table());
  assert.equal(goat.dealWinner({ defeat: [2, 0] }), 1);
  assert.equal(goat.dealWinner({ defeat: [0, 4] }), 0);
  assert.equal(goat.dealWinner({ defeat: [0, 0], eggs: true }), null);
  assert.equal(goat.dealWinner({ winner: 1 }), null);
  const side = (x) => x.join('-');
  const run = {};
  goat.sheetRow({ points: [40, 80], defeat: [2, 0] }, run, side);
  const row = goat.sheetRow({ points: [60, 60], defeat: [0, 0], eggs: true }, run, side);
  assert.deepEqual(row, ['60-60 · eggs', '0-0', '2-0']);
});

test('a trick game\'s trick, completed trick (seats from the leader, wrapping) and last trick', () => {
  const cp = new CourtPiece(table());
  assert.deepEqual(cp.trick({ trick: [{ seat: 2, card: 'AS' }] }),
    [{ seat: 2, verb: 'play', cards: ['AS'], count: 1 }]);
  assert.deepEqual(cp.trick({}), []);
  const done = cp.completedTrick({}, {}, [], { winner: 1, leader: 3, cards: ['2S', 'AS', 'KS', 'QS'] });
  assert.equal(done.winner, 1);
  assert.deepEqual(done.plays.map((p) => [p.seat, p.cards[0]]), [[3, '2S'], [0, 'AS'], [1, 'KS'], [2, 'QS']]);
  const two = new CourtPiece2p(table({ seats: 2 }));
  assert.deepEqual(two.completedTrick({}, {}, [], { winner: 0, leader: 1, cards: ['2S', 'AS'] }).plays.map((p) => p.seat), [1, 0]);
  assert.deepEqual(cp.lastTrick({ cards: [{ seat: 1, card: 'TD' }] }), [{ seat: 1, verb: 'play', cards: ['TD'], count: 1 }]);
});

test('with double sar a completed trick goes onto the pile, or to its collector', () => {
  const cp = new CourtPiece(table());
  const ev = { winner: 0, leader: 0, cards: ['2S', '3S', '4S', '5S'] };
  const prev = { deal_number: 1, pile: 2, tricks: [0, 0] };
  const onPile = cp.completedTrick(prev, { deal_number: 1, pile: 3, tricks: [0, 0], options: { sar: 'double' } }, [], ev);
  assert.equal(onPile.sweep, 'pile');
  assert.equal(onPile.pile, 2);
  // the deal ended with this trick: it always collects
  const last = cp.completedTrick(prev, { deal_number: 2, pile: 0, options: { sar: 'double' } }, [], ev);
  assert.equal(last.sweep, 'winner');
  assert.equal(cp.completedTrick(prev, { deal_number: 1, pile: 3 }, [], ev).sweep, undefined);
});

test('the turn line: follow the suit led only when the hand is restricted', () => {
  const cp = new CourtPiece(table());
  const led = { trick: [{ seat: 3, card: 'KH' }] };
  assert.equal(cp.turnText({ ...led, hand: ['AH', '2S'], legal_actions: ['play:AH'] }), 'Your turn: follow Hearts');
  assert.equal(cp.turnText({ ...led, hand: ['AS', '2S'], legal_actions: ['play:AS', 'play:2S'] }), 'Your turn: play a card');
  assert.equal(cp.turnText({ hand: ['AS'], legal_actions: ['play:AS'] }), 'Your turn: play a card');
});

test('the result line of each game', () => {
  const cp = new CourtPiece(table());
  assert.equal(cp.resultText({ match: { winner: 'draw' } }), 'The match is a draw');
  assert.equal(cp.resultText({ match: {} }), 'Match over');
  assert.equal(cp.resultText({ match: { winner: 1 } }), 'match_won:1');
  const goat = new Goat(table());
  assert.equal(goat.resultText({ match: { loser: 0 } }), 'goat:0');
  assert.equal(goat.resultText({}), 'Match over');
});

test('the title bar: deal n (of m), and what ends the match', () => {
  const cp = new CourtPiece(table());
  assert.equal(cp.dealText({ session_end: { deals: 8 } }, 3), 'Deal 3 of 8');
  assert.equal(cp.dealText({ session_end: { coats: 2 } }, 3), 'Deal 3');
  assert.equal(cp.goalText({ session_end: { deals: 8 } }), null);
  assert.equal(new CourtPiece2p(table()).goalText({}), null);
  assert.equal(new Goat(table()).dealText({}, 2), 'Game 2');
  assert.equal(new Goat(table()).goalText({ target: 12 }), 'goat at 12');
});

test('Court Piece\'s score sheet adds up deals and coats won, deal by deal', () => {
  const cp = new CourtPiece(table());
  const side = (x) => x.join('-');
  const run = {};
  const row1 = cp.sheetRow({ winner: 0, tricks: [7, 6], trump: 'S' }, run, side);
  assert.deepEqual(row1.slice(1), ['7-6', 'side0', '1-0', '0-0']);
  const row2 = cp.sheetRow({ winner: 1, tricks: [0, 13], coat: true }, run, side);
  assert.deepEqual(row2, ['—', '0-13', 'side1 · Coat', '1-1', '0-1']);
  assert.deepEqual(run, { deals: [1, 1], coats: [0, 1] });
  // a deal without a winner counts for no one
  assert.deepEqual(cp.sheetRow({ winner: null, tricks: [0, 0] }, run, side).slice(3), ['1-1', '0-1']);
});

test('two-player Court Piece\'s score sheet carries the points scored', () => {
  const two = new CourtPiece2p(table({ seats: 2 }));
  const side = (x) => x.join('-');
  const run = {};
  two.sheetRow({ winner: 0, tricks: [7, 6], scored: [1, 0] }, run, side);
  const row = two.sheetRow({ winner: 1, tricks: [2, 11], scored: [0, 3] }, run, side);
  assert.deepEqual(row.slice(3), ['0-3', '1-3']);
  assert.deepEqual(run.points, [1, 3]);
});

test('Goat\'s trick: a pass shows only its count; a trick that ended a deal is rebuilt from its events', () => {
  const goat = new Goat(table());
  assert.deepEqual(goat.trick({ trick: [{ seat: 0, verb: 'lead', cards: ['AS', 'KS'] }, { seat: 1, verb: 'pass', count: 2 }] }), [
    { seat: 0, verb: 'lead', cards: ['AS', 'KS'], count: 2 },
    { seat: 1, verb: 'pass', cards: null, count: 2 },
  ]);
  const last = { winner: 2, plays: [{ seat: 3, verb: 'lead', cards: ['6H'] }] };
  assert.deepEqual(goat.completedTrick({ deal_number: 1 }, { deal_number: 1, last_trick: last }, [], {}),
    { winner: 2, plays: [{ seat: 3, verb: 'lead', cards: ['6H'], count: 1 }] });
  const prev = { deal_number: 1, trick: [{ seat: 0, verb: 'lead', cards: ['AS'] }] };
  const events = [{ type: 'action', seat: 1, action: 'beat:TS' }, { type: 'trick' }, { type: 'action', seat: 2, verb: 'pass', count: 1 }];
  const done = goat.completedTrick(prev, { deal_number: 2 }, events, { winner: 1 });
  assert.equal(done.winner, 1);
  assert.deepEqual(done.plays.map((p) => [p.seat, p.verb, p.cards]), [[0, 'lead', ['AS']], [1, 'beat', ['TS']], [2, 'pass', null]]);
});

test('Goat\'s hand: cards in any legal action are usable, the rest dimmed on the player\'s turn', () => {
  const goat = new Goat(table({ turn: true }));
  goat.selected.add('KS');
  const items = goat.handItems({ legal_actions: ['lead:AS,KS', 'molodka:QH'] }, ['AS', 'KS', 'QH', '6D'],
    { pending: new Set(), hinted: new Set(['AS']) });
  assert.deepEqual(items.map((i) => [i.code, i.playable, i.dim, i.selected, i.hinted]), [
    ['AS', true, false, false, true], ['KS', true, false, true, false],
    ['QH', true, false, false, false], ['6D', false, true, false, false],
  ]);
});

test('the rules open at the part of the game that matters now', () => {
  assert.equal(sectionFor(null), null);
  assert.equal(sectionFor({ game: 'court-piece', phase: 'trump' }), 'trump');
  assert.equal(sectionFor({ game: 'court-piece', phase: 'play', options: { sar: 'double' } }), 'double-sar');
  assert.equal(sectionFor({ game: 'court-piece', phase: 'play', trick: [{}] }), 'follow');
  assert.equal(sectionFor({ game: 'court-piece-2p', phase: 'play', trick: [] }), null);
  assert.equal(sectionFor({ game: 'goat', can_molodka: true, trick: [{}] }), 'molodka');
  assert.equal(sectionFor({ game: 'goat', trick: [{}] }), 'beat-pass');
});

test("a table's options in words, as the new-table form names them; a flag that is off left out", () => {
  const cp = gameOf('court-piece');
  assert.deepEqual(optionsText(cp, { sar: 'double', ace_rule: true, trump_rule: 'most-held', session_end: { deals: 2 } }),
    ['Sar: Double sar', 'Ace rule (double sar)', 'Trump call: Most-held suit', 'Number of deals: 2']);
  assert.deepEqual(optionsText(cp, { sar: 'single', ace_rule: false, trump_rule: 'free', session_end: null }),
    ['Sar: Single sar', 'Trump call: Any suit', 'Open-ended']);
  assert.deepEqual(optionsText(gameOf('goat'), { eggs: 'double-next', target: 7, nope: 1 }),
    ['Eggs (60–60): Next game counts double', 'Defeat points to lose: 7']);
  assert.deepEqual(optionsText(gameOf('goat'), null), []);
});
