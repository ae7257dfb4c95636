// What the table says to a screen reader as it happens (table_news.js, issue 50): each event
// once, as a sentence of the page's language, and on this seat's turn what the rules ask.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { installBrowser, overrides, useLang } from './browser.mjs';

installBrowser();
/** Just enough of an element for the live log: lines appended, the oldest removed. */
class Element {
  constructor(tag) { this.tagName = tag; this.children = []; this.text = ''; this.parent = null; }

  setAttribute() {}

  addEventListener() {}

  append(...xs) {
    for (const x of xs) {
      if (x instanceof Element) { x.parent = this; this.children.push(x); } else this.text += x;
    }
  }

  remove() { this.parent.children.splice(this.parent.children.indexOf(this), 1); }

  get textContent() { return this.text + this.children.map((c) => c.textContent).join(''); }

  get childElementCount() { return this.children.length; }

  get firstElementChild() { return this.children[0]; }
}
globalThis.Node = Element;
globalThis.document.createElement = (tag) => new Element(tag);
overrides.set('games.json', readFileSync(new URL('./games.json', import.meta.url), 'utf8'));
const { announce, sayTurn } = await import('../../src/taash/web/table_news.js');
const { CourtPiece2p } = await import('../../src/taash/web/games/court-piece-2p.js');
const { Goat } = await import('../../src/taash/web/games/goat.js');
const { loadGames } = await import('../../src/taash/web/catalogue.js');
await loadGames();

/** A table as the announcements read it: seat 0 is this one, seat 1 is Bilal. */
function table(Game, view, { turn = false } = {}) {
  const tb = {
    view, me: () => 0, numSeats: () => 2, yourTurn: () => turn,
    name: (s) => (s === 0 ? 'You' : 'Bilal'),
    announcer: new Element('div'),
  };
  tb.game = new Game(tb);
  return tb;
}
const heard = (tb) => tb.announcer.children.map((p) => p.textContent);

const cp = (over) => ({ game: 'court-piece-2p', phase: 'play', trump: 'S', to_move: 1, over: false,
  deal_number: 0, hand: ['AH', 'TH', '7C'], trick: [], legal_actions: [], version: 5, ...over });

test('plays, the call and the trick won are sentences, the trump said once as it is called', async () => {
  await useLang('en');
  const tb = table(CourtPiece2p, cp());
  announce(tb, [{ type: 'action', seat: 1, action: 'trump:S' }], cp({ trump: null, phase: 'trump' }));
  announce(tb, [{ type: 'action', seat: 1, action: 'play:KS' }, { type: 'action', seat: 0, action: 'play:AS' },
    { type: 'trick', winner: 0, leader: 1, cards: ['KS', 'AS'] }], cp());
  assert.deepEqual(heard(tb), ['Bilal calls spades.', 'Spades are trump.', 'Bilal plays the king of spades.',
    'You play the ace of spades.', 'You win the trick.']);
  announce(tb, [{ type: 'action', seat: 0, action: 'play:TH' }, { type: 'trick', winner: 1 }], cp());
  // the log keeps its last six lines
  assert.deepEqual(heard(tb).slice(-3), ['You win the trick.', 'You play the 10 of hearts.', 'Bilal wins the trick.']);
  assert.equal(heard(tb).length, 6);
});

test('on this seat\'s turn the rule is said after the moves, once a view', async () => {
  await useLang('en');
  const v = cp({ to_move: 0, trick: [{ seat: 1, card: 'QH' }], legal_actions: ['play:AH', 'play:TH'] });
  const tb = table(CourtPiece2p, v, { turn: true });
  announce(tb, [{ type: 'action', seat: 1, action: 'play:QH' }], cp());
  sayTurn(tb);
  sayTurn(tb); // a summary closed over the same view: not said again
  assert.deepEqual(heard(tb), ['Bilal plays the queen of hearts.', 'Your turn. You must follow hearts: you hold 2.']);
  tb.view = cp({ to_move: 0, version: 6, legal_actions: ['play:AH', 'play:TH', 'play:7C'] });
  sayTurn(tb);
  assert.equal(heard(tb).at(-1), 'Your turn. You lead: any card may be played.');
});

test('Goat: leads, beats, a pass face down, the molodka; a new deal\'s trump', async () => {
  await useLang('en');
  const g = { game: 'goat', phase: 'play', trump: 'H', k: 2, deal_number: 1, hand: [], trick: [], to_move: 1 };
  const tb = table(Goat, g);
  announce(tb, [{ type: 'action', seat: 1, verb: 'lead', action: 'lead:AS,KS' },
    { type: 'action', seat: 0, verb: 'pass', count: 2 },
    { type: 'action', seat: 1, verb: 'beat', action: 'beat:7H,8H' },
    { type: 'action', seat: 0, verb: 'molodka', action: 'molodka:6H,6D,6C,6S' }], { ...g, deal_number: 0, trump: 'H' });
  assert.deepEqual(heard(tb), ['Bilal leads the ace of spades and the king of spades.', 'You pass 2 cards face down.',
    'Bilal beats with the 7 of hearts and the 8 of hearts.',
    'You play the molodka: the 6 of hearts, the 6 of diamonds, the 6 of clubs, and the 6 of spades.',
    'Hearts are trump.']);
});

test('Urdu and Russian: the same events in their own sentences', async () => {
  await useLang('ur');
  let tb = table(CourtPiece2p, cp());
  announce(tb, [{ type: 'action', seat: 1, action: 'play:KS' }, { type: 'trick', winner: 0 }], cp());
  assert.deepEqual(heard(tb), ['Bilal نے حکم کا بادشاہ چلا۔', 'آپ نے ہاتھ جیتا۔']);
  await useLang('ru');
  tb = table(Goat, { game: 'goat', trump: 'H', k: 3, deal_number: 0 });
  announce(tb, [{ type: 'action', seat: 1, verb: 'pass', count: 3 }, { type: 'action', seat: 0, verb: 'pass', count: 5 }], null);
  assert.deepEqual(heard(tb), ['Bilal сбрасывает 3 карты рубашкой вверх.', 'Вы сбрасываете 5 карт рубашкой вверх.']);
});
