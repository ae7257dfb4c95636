// fair.js: the browser's own check of a fair deal (taash-shuffle/1, docs/RECORD.md "Fair
// deals") must give the decks the server's taash.fair gives.  The vectors are RECORD.md's
// test vector, and full decks computed by src/taash/fair.py.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { installBrowser, overrides } from './browser.mjs';

installBrowser();
// the games as the core describes them (their ranks, the shown trump card's stock), served as
// the server serves /assets/games.json
overrides.set('games.json', readFileSync(new URL('./games.json', import.meta.url), 'utf8'));
const GAMES = JSON.parse(overrides.get('games.json'));
const game = (id) => GAMES.find((g) => g.id === id);
const { canonicalPack, checkDeal, commitOf, derive, SCHEME } = await import('../../src/taash/web/fair.js');

const SECRET = '5a194091da224dc213651c3361141787dd3207216a25e7d17ee44548965f508f';
const COMMIT = '1328691e31a77df42f274d24fabca11667fea2ff7d4b09c12638f47a5a1f51ec';
// taash.fair.derive('court-piece', 'k3v9x2', 0, ['a1', '', '', ''], SECRET)
const CP_DECK = ('6D AD 2S AH JS 7D 5S 6H 3C 9S 9D 7H KC 4C QC 3S 4S TD 6S AC 3D KH TC 5D KS 8S '
  + '5C 5H 2D KD 8C 9C 4D JH 3H QD AS QH JD 7C QS TH 8H 4H 8D TS 9H 2C 7S 6C JC 2H').split(' ');
// taash.fair.derive('goat', 'k3v9x2', 2, ['a1', 'b2', '', 'ff'], SECRET)
const GOAT_DECK = ('KH AH 7C 8C KD QS 7D 8H 7H 6S TS QD 9D 8D 6H JD QH 6C AD JS 7S 8S TH TC AC '
  + 'JC JH AS 6D TD 9H 9C 9S KC KS QC').split(' ');

test('the canonical packs: 52 cards, Goat 36 (6 to A), suits S H D C, ranks ascending', () => {
  const cp = canonicalPack(game('court-piece'));
  assert.equal(cp.length, 52);
  assert.equal(new Set(cp).size, 52);
  assert.deepEqual(cp.slice(0, 3), ['2S', '3S', '4S']);
  assert.equal(cp[13], '2H');
  assert.equal(cp[51], 'AC');
  assert.deepEqual(canonicalPack(game('court-piece-2p')), cp);
  const goat = canonicalPack(game('goat'));
  assert.equal(goat.length, 36);
  assert.deepEqual(goat.slice(0, 9), ['6S', '7S', '8S', '9S', 'TS', 'JS', 'QS', 'KS', 'AS']);
});

test('the commit of the test vector\'s secret', async () => {
  assert.equal(await commitOf(SECRET), COMMIT);
});

test('RECORD.md\'s test vector, in each game', async () => {
  const seeds = (n) => ['a1', ...Array(n - 1).fill('')];
  const cp = await derive('court-piece', 'k3v9x2', 0, seeds(4), SECRET);
  assert.deepEqual(cp.deck.slice(0, 8), '6D AD 2S AH JS 7D 5S 6H'.split(' '));
  assert.equal(cp.trumpCard, null);
  const cp2 = await derive('court-piece-2p', 'k3v9x2', 0, seeds(2), SECRET);
  assert.deepEqual(cp2.deck.slice(0, 8), 'QH JH 8S JC 3H 2S AD 4H'.split(' '));
  const goat = await derive('goat', 'k3v9x2', 0, seeds(4), SECRET);
  assert.deepEqual(goat.deck.slice(0, 8), 'TD 8D 9H 7S KC QC 6D JC'.split(' '));
  assert.equal(goat.trumpCard, '8S');
});

test('whole decks as the server derives them', async () => {
  assert.deepEqual((await derive('court-piece', 'k3v9x2', 0, ['a1', '', '', ''], SECRET)).deck, CP_DECK);
  const goat = await derive('goat', 'k3v9x2', 2, ['a1', 'b2', '', 'ff'], SECRET);
  assert.deepEqual(goat.deck, GOAT_DECK);
  assert.equal(goat.trumpCard, '9C');
});

const fairDeal = (over = {}) => ({
  deck: CP_DECK.slice(),
  fair: { scheme: SCHEME, table: 'k3v9x2', seeds: ['a1', '', '', ''], secret: SECRET, commit: COMMIT },
  ...over,
});

test('checkDeal: a true deal passes, with and without this page\'s seed', async () => {
  assert.deepEqual(await checkDeal('court-piece', 0, fairDeal()), { ok: true, key: 'fair_checked_noseed' });
  assert.deepEqual(await checkDeal('court-piece', 0, fairDeal(), { commit: COMMIT, seed: 'a1', seat: 0 }),
    { ok: true, key: 'fair_checked' });
  // cards written as "10s" in a record are the same cards
  const lower = fairDeal({ deck: CP_DECK.map((c) => c.replace('T', '10').toLowerCase()) });
  assert.equal((await checkDeal('court-piece', 0, lower)).ok, true);
});

test('checkDeal: each way a deal can be wrong has its own warning', async () => {
  const key = async (...args) => (await checkDeal(...args)).key;
  assert.equal(await key('court-piece', 0, { deck: CP_DECK }), 'fair_warn_missing');
  assert.equal(await key('court-piece', 0, fairDeal({ fair: { ...fairDeal().fair, scheme: 'x/2' } })), 'fair_warn_missing');
  assert.equal(await key('court-piece', 0, fairDeal({ fair: { ...fairDeal().fair, commit: '0'.repeat(64) } })), 'fair_warn_commit');
  assert.equal(await key('court-piece', 0, fairDeal({ fair: { ...fairDeal().fair, secret: 'not hex' } })), 'fair_warn_commit');
  // the commit shown before the deal is not the one revealed after it
  assert.equal(await key('court-piece', 0, fairDeal(), { commit: 'f'.repeat(64) }), 'fair_warn_commit');
  const swapped = CP_DECK.slice();
  [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
  assert.equal(await key('court-piece', 0, fairDeal({ deck: swapped })), 'fair_warn_deck');
  assert.equal(await key('court-piece', 0, fairDeal({ deck: CP_DECK.slice(1) })), 'fair_warn_deck');
  // another deal number derives another deck
  assert.equal(await key('court-piece', 1, fairDeal()), 'fair_warn_deck');
  // the seed this page sent is not the seat's seed in the record
  assert.equal(await key('court-piece', 0, fairDeal(), { seed: 'b7', seat: 0 }), 'fair_warn_seed');
});

test('checkDeal: Goat\'s shown trump card is checked too', async () => {
  const deal = {
    deck: GOAT_DECK, trump_card: '9C',
    fair: { scheme: SCHEME, table: 'k3v9x2', seeds: ['a1', 'b2', '', 'ff'], secret: SECRET, commit: COMMIT },
  };
  assert.equal((await checkDeal('goat', 2, deal)).ok, true);
  assert.equal((await checkDeal('goat', 2, { ...deal, trump_card: '9S' })).key, 'fair_warn_deck');
});
