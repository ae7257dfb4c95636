// The table read from the keyboard (keys.js, issue 50): the hand by suit, the trick, what the
// rules ask on this seat's turn, in English and in Urdu; the list of keys by game.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { installBrowser, overrides, useLang } from './browser.mjs';

installBrowser();
overrides.set('games.json', readFileSync(new URL('./games.json', import.meta.url), 'utf8'));
const { handSentence, keyList, trickSentence, turnSentence } = await import('../../src/taash/web/keys.js');
const { CourtPiece2p } = await import('../../src/taash/web/games/court-piece-2p.js');
const { Goat } = await import('../../src/taash/web/games/goat.js');
const { loadGames } = await import('../../src/taash/web/catalogue.js');
await loadGames();

/** A table as keys.js reads it: its view, its renderer, this seat 0's turn or not. */
function table(Game, view, { turn = true } = {}) {
  const tb = {
    view, shownTrick: null, me: () => 0, numSeats: () => 2, yourTurn: () => turn,
    name: (s) => (s === 0 ? 'You' : `P${s}`),
    status: { querySelector: () => ({ textContent: 'Waiting for P1' }) },
  };
  tb.game = new Game(tb);
  return tb;
}

const cp = (over) => ({ game: 'court-piece-2p', phase: 'play', trump: 'S', to_move: 0, over: false,
  hand: ['AH', 'TH', 'KS', '7C'], trick: [], legal_actions: ['play:AH', 'play:TH', 'play:KS', 'play:7C'], ...over });

test('H: the hand by suit, trumps first and named so', async () => {
  await useLang('en');
  assert.equal(handSentence(table(CourtPiece2p, cp())), '4 cards. Spades, trumps: King. Hearts: Ace and 10. Clubs: 7.');
  assert.equal(handSentence(table(CourtPiece2p, cp({ hand: ['AH', 'TH', '7H'] }))), '3 cards. Hearts: Ace, 10, and 7.');
  assert.equal(handSentence(table(CourtPiece2p, cp({ hand: [] }))), 'Your hand is empty.');
  await useLang('ur');
  // Urdu's own full stop and "and"
  assert.equal(handSentence(table(CourtPiece2p, cp({ hand: ['AH', 'TH'] }))), '2 پتے۔ پان کے پتے: یکا اور دہلا۔');
});

test('W: what the rules ask now: follow the suit led, and how many of it are held', async () => {
  await useLang('en');
  const led = { trick: [{ seat: 1, card: 'QH' }], legal_actions: ['play:AH', 'play:TH'] };
  assert.equal(turnSentence(table(CourtPiece2p, cp(led))), 'Your turn. You must follow hearts: you hold 2.');
  assert.equal(turnSentence(table(CourtPiece2p, cp({ ...led, hand: ['AH', 'KS'], legal_actions: ['play:AH'] }))),
    'Your turn. You must follow hearts: you hold one.');
  assert.equal(turnSentence(table(CourtPiece2p, cp({ trick: [{ seat: 1, card: 'QD' }] }))),
    'Your turn. You hold no diamonds: any card may be played.');
  assert.equal(turnSentence(table(CourtPiece2p, cp())), 'Your turn. You lead: any card may be played.');
  assert.equal(turnSentence(table(CourtPiece2p, cp({ phase: 'trump', trump: null }))),
    'Your turn to call trump: pick one of the four suits.');
  assert.equal(turnSentence(table(CourtPiece2p, cp(), { turn: false })), 'Waiting for P1.');
  await useLang('ur');
  assert.equal(turnSentence(table(CourtPiece2p, cp(led))), 'آپ کی باری۔ آپ کو پان کا پتا دینا ہے: آپ کے پاس 2 ہیں۔');
});

test('T: the trick, each play with its player; Goat names the verb and a pass face down', async () => {
  await useLang('en');
  assert.equal(trickSentence(table(CourtPiece2p, cp())), 'No cards on the table.');
  assert.equal(trickSentence(table(CourtPiece2p, cp({ trick: [{ seat: 1, card: 'QH' }] }))),
    'On the table: P1: Queen of hearts.');
  const goat = { game: 'goat', phase: 'play', trump: 'H', k: 2, hand: [], legal_actions: [],
    trick: [{ seat: 1, verb: 'lead', cards: ['AS', 'KS'] }, { seat: 0, verb: 'pass', cards: null, count: 2 }] };
  assert.equal(trickSentence(table(Goat, goat)),
    'On the table: P1 (Lead): Ace of spades and King of spades. You (Pass): 2 cards face down.');
});

test('the list of keys has the verbs only where cards are picked first', () => {
  const keys = (Game) => keyList(table(Game, cp()).game).map(([, k]) => k);
  assert.ok(keys(Goat).includes('keys_verbs') && keys(Goat).includes('keys_select'));
  assert.ok(!keys(CourtPiece2p).includes('keys_verbs') && keys(CourtPiece2p).includes('keys_play'));
});
