// Small pure helpers of the page: seats around the felt, play identities, passkey encoding,
// the review's address and words, the quiet hours' times, the new-table options and their
// bounds, a hint in words.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { installBrowser, useLang } from './browser.mjs';

installBrowser();
const web = (m) => import(`../../src/taash/web/${m}`);
const { place, PLACES } = await web('seats.js');
const { playKey } = await web('motion.js');
const { fromB64url, toB64url } = await web('passkey.js');
const { actionText, gainText, reviewUrl, solverName } = await web('review.js');
const { completeDeals } = await web('summaries.js');
const { hhmm, minutes } = await web('push.js');
const { gameOptions, flagMet, words } = await web('catalogue.js');
// the games as the core describes them (tests/games/test_descriptor.py keeps this file current)
const GAMES = JSON.parse(readFileSync(new URL('./games.json', import.meta.url), 'utf8'));
const game = (id) => GAMES.find((g) => g.id === id);
const { hintText } = await web('table.js');
const { rowTurn, rowWho } = await web('home_tables.js');
before(() => useLang('en'));

test('where each seat shows, this seat at the bottom', () => {
  assert.deepEqual([0, 1, 2, 3].map((s) => place(s, 0, 4)), ['bottom', 'left', 'top', 'right']);
  assert.deepEqual([0, 1, 2, 3].map((s) => place(s, 2, 4)), ['top', 'right', 'bottom', 'left']);
  // the next seat in turn is always on the left
  assert.deepEqual([0, 1, 2, 3].map((s) => place(s, 1, 4)), ['right', 'bottom', 'left', 'top']);
  assert.deepEqual([0, 1, 2, 3].map((s) => place(s, 3, 4)), ['left', 'top', 'right', 'bottom']);
  assert.deepEqual([0, 1].map((s) => place(s, 1, 2)), ['top', 'bottom']);
  // watching (no seat): seat 0 at the bottom
  assert.deepEqual([0, 1].map((s) => place(s, null, 2)), ['bottom', 'top']);
  assert.deepEqual([...PLACES].sort(), ['bottom', 'left', 'right', 'top']);
});

test('a play\'s identity: seat, verb, count and cards (a face-down pass has none)', () => {
  assert.equal(playKey({ seat: 1, verb: 'play', count: 1, cards: ['AS'] }), '1:play:1:AS');
  assert.equal(playKey({ seat: 2, verb: 'pass', count: 2, cards: null }), '2:pass:2:');
  assert.notEqual(playKey({ seat: 0, verb: 'beat', count: 2, cards: ['AS', 'KS'] }),
    playKey({ seat: 0, verb: 'beat', count: 2, cards: ['KS', 'AS'] }));
});

test('base64url for passkeys: no padding, - and _ for + and /, either way round', () => {
  assert.equal(toB64url(new Uint8Array([0xfb, 0xff]).buffer), '-_8');
  assert.equal(toB64url(new Uint8Array([104, 105])), 'aGk');
  // a view into a larger buffer encodes only its own bytes
  assert.equal(toB64url(new Uint8Array([0, 104, 105, 0]).subarray(1, 3)), 'aGk');
  assert.deepEqual([...new Uint8Array(fromB64url('-_8'))], [0xfb, 0xff]);
  assert.deepEqual([...new Uint8Array(fromB64url('aGk='))], [104, 105]);
  const bytes = Uint8Array.from({ length: 33 }, (_, i) => (i * 37) % 256);
  assert.deepEqual(new Uint8Array(fromB64url(toB64url(bytes))), bytes);
});

test('the review\'s address: a table, and a deal and seat where given', () => {
  assert.equal(reviewUrl('abc'), '/review?table=abc');
  assert.equal(reviewUrl('abc', 0, 2), '/review?table=abc&deal=0&seat=2');
  assert.equal(reviewUrl('a b', undefined, 1), '/review?table=a+b&seat=1');
});

test('the review\'s words: actions with suit signs, gains said as what they mean, the solvers named', () => {
  assert.equal(actionText('play:TS'), '10\u2660\uFE0E');
  assert.equal(actionText('lead:AH,KH'), 'A\u2665\uFE0E K\u2665\uFE0E');
  assert.equal(actionText('trump:D'), 'Trump \u2666\uFE0E');
  assert.equal(actionText('pass'), 'pass');
  // the hard bot's choice against the play made, in mean score over the deals it tried
  assert.equal(gainText(0.1234, 24), "the hard bot's choice scores 0.12 more on average than this play"
    + ' (a won deal scores 1; deals tried that fit what the player knew: 24)');
  assert.match(gainText(-0.3333, 8), /^this play scores 0\.33 more on average than the hard bot's choice .*: 8\)$/);
  assert.match(gainText(0.001, 16), /^this play and the hard bot's choice score the same on average .*: 16\)$/);
  assert.doesNotMatch(gainText(0.5, 3), /\+|samples/);
  assert.equal(solverName('dds+taash'), "DDS, the bridge solver (endplay), taash's own solver");
  assert.equal(solverName('other'), 'other');
});

test('completed deals are counted, deals in progress are not', () => {
  assert.equal(completeDeals({ deals: [{ complete: true }, { complete: false }, { complete: true }] }), 2);
  assert.equal(completeDeals({}), 0);
});

test('the quiet hours\' times: HH:MM and minutes after midnight', () => {
  assert.equal(hhmm(0), '00:00');
  assert.equal(hhmm(22 * 60 + 5), '22:05');
  assert.equal(minutes('07:30'), 450);
  assert.equal(minutes('7:05'), 425);
  assert.equal(minutes(hhmm(1439)), 1439);
  assert.equal(minutes(''), null);
  assert.equal(minutes(null), null);
  assert.equal(minutes('7.30'), null);
  assert.equal(minutes('07:3'), null);
});

/** The option fields as the home screen has them: field -> {value, checked}. */
const fields = (values) => (f) => ({ value: '', checked: false, ...values[f] });

test('Court Piece\'s options: double sar enables the ace rule; the session ends by coats, deals or not at all', () => {
  const base = { sar: { value: 'single' }, ace_rule: { checked: true }, trump_rule: { value: 'free' },
    session_end: { value: 'coats' }, session_n: { value: '3' } };
  assert.deepEqual(gameOptions(game('court-piece'), fields(base)),
    { sar: 'single', ace_rule: false, trump_rule: 'free', session_end: { coats: 3 } });
  const dbl = { ...base, sar: { value: 'double' }, session_end: { value: 'deals' }, session_n: { value: '12' } };
  assert.deepEqual(gameOptions(game('court-piece'), fields(dbl)),
    { sar: 'double', ace_rule: true, trump_rule: 'free', session_end: { deals: 12 } });
  assert.equal(gameOptions(game('court-piece'), fields({ ...base, session_end: { value: 'open' } })).session_end, null);
});

test('a number option below 1 or not a number takes the game\'s default; a fraction is cut to a whole number', () => {
  const cp = (n, end = 'coats') => gameOptions(game('court-piece'), fields({ sar: { value: 'single' },
    session_end: { value: end }, session_n: { value: n } })).session_end;
  assert.deepEqual(cp('0'), { coats: 2 });
  assert.deepEqual(cp('-4', 'deals'), { deals: 4 });
  assert.deepEqual(cp('many', 'deals'), { deals: 4 });
  assert.deepEqual(cp('2.9'), { coats: 2 });
  assert.deepEqual(cp('1'), { coats: 1 });
  assert.deepEqual(gameOptions(game('court-piece-2p'), fields({ target: { value: '' } })), { target: 5 });
  assert.deepEqual(gameOptions(game('court-piece-2p'), fields({ target: { value: '9' } })), { target: 9 });
  assert.deepEqual(gameOptions(game('goat'), fields({ target: { value: '0' }, eggs: { value: 'double-next' } })),
    { target: 12, eggs: 'double-next' });
});

test('a number over the core\'s bound is the bound; an unknown choice is the default', () => {
  const cp = (n, end) => gameOptions(game('court-piece'), fields({ sar: { value: 'triple' },
    session_end: { value: end }, session_n: { value: n } }));
  assert.deepEqual(cp('51', 'coats').session_end, { coats: 50 });
  assert.deepEqual(cp('501', 'deals').session_end, { deals: 500 });
  assert.deepEqual(cp('500', 'deals').session_end, { deals: 500 });
  assert.equal(cp('3', 'coats').sar, 'single');
  assert.deepEqual(gameOptions(game('court-piece-2p'), fields({ target: { value: '101' } })), { target: 100 });
  assert.deepEqual(gameOptions(game('goat'), fields({ target: { value: '121' }, eggs: { value: 'none' } })),
    { target: 120, eggs: 'none' });
});

test('a game the page has no words for is built from the core\'s own words and bounds', () => {
  const toy = { id: 'toy', name: 'Toy', seats: 3, teams: [[0], [1], [2]], fields: [
    { name: 'rounds', kind: 'count', default: 3, min: 1, max: 9, label: 'Rounds', key: 'rounds' },
    { name: 'wild', kind: 'flag', default: false, label: 'Wild', needs: { mode: 'x' }, key: 'wild' },
    { name: 'mode', kind: 'choice', default: 'x', values: ['x', 'y'], label: 'Mode', labels: { x: 'X', y: 'Y' }, key: 'mode' },
  ] };
  const get = fields({ rounds: { value: '12' }, wild: { checked: true }, mode: { value: 'y' } });
  assert.deepEqual(gameOptions(toy, get), { rounds: 9, mode: 'y', wild: false });
  assert.equal(gameOptions(toy, fields({ wild: { checked: true }, mode: { value: 'x' } })).wild, true);
  assert.equal(flagMet(toy.fields[1], get), false);
  assert.equal(words('opt_rounds', 'Rounds'), 'Rounds');
  assert.equal(words('opt_sar', 'Sar!'), 'Sar'); // the page's own words first
});

test('a hint in words: a trump call, or the cards to play', () => {
  assert.equal(hintText('trump:H'), 'Hint: call Hearts');
  assert.equal(hintText('play:TS'), 'Hint: Play 10 of spades');
  assert.equal(hintText('lead:AS,KS'), 'Hint: Lead Ace of spades, King of spades');
});

test("a home row says who plays and whose turn it is", () => {
  const seats = [{ seat: 0, type: 'human', name: 'Ayesha', level: null },
    { seat: 1, type: 'human', name: 'Dima', level: null },
    { seat: 2, type: 'bot', name: null, level: 'easy' }, { seat: 3, type: 'human', name: null, level: null }];
  const row = { seat: 0, to_move: 1, your_turn: false, over: false, seats };
  assert.equal(rowTurn(row), "Dima's turn");
  assert.equal(rowTurn({ ...row, to_move: 0, your_turn: true }), 'Your turn');
  assert.equal(rowTurn({ ...row, to_move: null, over: true }), 'Finished');
  assert.equal(rowTurn({ ...row, to_move: 2 }), "Chandni's turn");
  assert.equal(rowWho(row), 'with Dima, Chandni, and Player 4');
  assert.equal(rowWho(row, '5 min ago'), 'with Dima, Chandni, and Player 4 · 5 min ago');
  // an older server, with no seats: the seat and "Waiting", as before
  assert.equal(rowWho({ seat: 1 }), 'Seat 2');
  assert.equal(rowTurn({ seat: 1, to_move: 0, your_turn: false, over: false }), 'Waiting');
});
