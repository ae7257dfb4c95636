// offline_table.js: what an offline table's address asks for, and the source's turns with an
// engine that answers as the worker's does (a stand-in: the real one is Chromium's, in
// tests/web/test_offline_table.py): the bots wait the pace, a bot's move thought out for a
// table the player has moved on is not played, a bot that wants no move is asked no more there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installBrowser } from './browser.mjs';

installBrowser();
const { offlineAsk, offlineAddress, OfflineSource } = await import('../../src/taash/web/offline_table.js');

test("an offline table's address: the bots' level, a seed, options read as JSON where they are", () => {
  const q = `?bots=hard&seed=9&session_end=${encodeURIComponent('{"deals":2}')}&eggs=double-next&target=4&ace_rule=true`;
  assert.deepEqual(offlineAsk('goat', q), { game: 'goat', bots: 'hard', seed: 9,
    options: { session_end: { deals: 2 }, eggs: 'double-next', target: 4, ace_rule: true } });
  assert.deepEqual(offlineAsk('court-piece', ''), { game: 'court-piece', bots: 'easy', seed: null, options: {} });
  assert.equal(offlineAsk('goat', '?seed=x').seed, 'x'); // for the engine to refuse, in words
});

test("the offline screen's address reads back as the options chosen, texts that look like JSON included", () => {
  const options = { sar: 'double', ace_rule: true, trump_rule: 'most-held', session_end: { deals: 2 } };
  const url = new URL(offlineAddress('court-piece', 'hard', options), 'http://x');
  assert.equal(url.pathname, '/offline/court-piece');
  assert.equal(url.searchParams.get('sar'), 'double'); // plain text stays plain in the address
  assert.deepEqual(offlineAsk('court-piece', url.search), { game: 'court-piece', bots: 'hard', seed: null, options });
  const odd = { eggs: 'double-next', target: 7, name: '4', open: null, flag: 'true' };
  assert.deepEqual(offlineAsk('goat', new URL(offlineAddress('goat', 'easy', odd), 'http://x').search).options, odd);
});

/** A two-seat match where the seats move in turn (seat 0 the player's), to `moves` actions;
 * `think(seat, version)` may hold a bot's answer back. */
function fakeEngine(moves, think = async () => {}) {
  const e = { version: 0, toMove: 1, applied: [], asked: [] };
  const view = () => ({ version: e.version, view: { hand_counts: [1, 1], to_move: e.toMove, over: e.version >= moves } });
  e.ask = async (msg) => {
    e.asked.push(msg.op);
    if (msg.op === 'view') return view();
    if (msg.op === 'record') return { version: e.version, record: { deals: [] } };
    if (msg.op === 'actors') return { version: e.version, actors: e.version >= moves ? [] : [e.toMove], over: e.version >= moves };
    if (msg.op === 'bot') {
      await think(msg.seat, e.version);
      return { version: e.version, action: e.declines ? null : `play:${e.version}` };
    }
    if (msg.op === 'apply') {
      if (msg.seat !== e.toMove) return { version: e.version, error: { code: 'illegal', rule: 'TW-1', message: 'not your turn' } };
      e.applied.push([msg.seat, msg.action, e.version]);
      e.version += 1;
      e.toMove = 1 - e.toMove;
      return { version: e.version, events: [{ type: 'action', seat: msg.seat }], actors: [e.toMove], over: e.version >= moves };
    }
    throw new Error(msg.op);
  };
  e.close = () => {};
  return e;
}

/** The table view as the source sees it: what it is sent, what it is told. */
function fakeTable() {
  return {
    sent: [], errors: [], dead: false, version: -1,
    enqueue(m) { this.sent.push(m); this.version = m.version; },
    showError(e) { this.errors.push(e); },
    render() {}, renderHand() {},
    game: { posted() {} },
    main: { dataset: {} },
  };
}

function started(engine, delay = 0) {
  localStorage.setItem('taash.bot_delay_ms', String(delay));
  const src = new OfflineSource(offlineAsk('court-piece-2p', '?bots=easy'), () => {});
  src.engine = engine;
  src.tb = fakeTable();
  Object.assign(src, { match: 1, seats: 2, options: {}, key: 'k', created: 0, changedAt: Date.now() });
  return src;
}

const until = async (cond) => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(cond(), 'waited too long');
};

test('the bots and the player take turns; each action reaches the table as its event, in order', async () => {
  const e = fakeEngine(4);
  const src = started(e);
  await src.serial(() => src.publish(null));
  src.kick();
  await until(() => e.version === 1);
  await src.act('play:p1', []);
  await until(() => e.version === 3);
  await src.act('play:p3', []);
  await until(() => !src.driving && e.version === 4);
  assert.deepEqual(e.applied.map(([s]) => s), [1, 0, 1, 0]);
  assert.deepEqual(src.tb.sent.map((m) => [m.type, m.version]), [['view', 0], ['event', 1], ['event', 2], ['event', 3], ['event', 4]]);
  assert.equal(src.tb.sent.at(-1).view.table.over, true);
  assert.deepEqual(src.tb.sent[0].view.table.seats.map((s) => s.type), ['human', 'bot']);
});

test("a bot's move waits the pace from the last change", async () => {
  const e = fakeEngine(1);
  const src = started(e, 60);
  // the clock starts before the change: the wait is counted from it, and on a loaded machine
  // the change may be well behind by the time the test reads the clock after it (measured
  // from there, it once "moved after 53 ms")
  const t0 = Date.now();
  await src.serial(() => src.publish(null));
  src.kick();
  await until(() => e.version === 1);
  assert.ok(Date.now() - t0 >= 59, `moved after ${Date.now() - t0} ms`);
});

test("the player's refusal is the engine's, with its rule id; nothing changes", async () => {
  const e = fakeEngine(4);
  const src = started(e);
  await src.serial(() => src.publish(null));
  await src.act('play:x', []); // seat 1 (a bot) is to move
  assert.deepEqual(src.tb.errors.map((x) => x.rule), ['TW-1']);
  assert.equal(e.version, 0);
  assert.equal(src.tb.pending, null);
});

test("a bot's move thought out before the table moved on is not played: the bot thinks again", async () => {
  let release;
  const held = new Promise((r) => { release = r; });
  let first = true;
  const e = fakeEngine(3, async () => { if (first) { first = false; await held; } });
  const src = started(e);
  await src.serial(() => src.publish(null));
  src.kick();
  await until(() => e.asked.includes('bot'));
  // the table moves on while the bot thinks (as a Goat molodka may): its answer is for version 0
  await src.serial(async () => src.applied(await e.ask({ op: 'apply', match: 1, seat: 1, action: 'play:other' })));
  await src.act('play:p', []);
  release();
  await until(() => !src.driving && e.version === 3);
  assert.deepEqual(e.applied, [[1, 'play:other', 0], [0, 'play:p', 1], [1, 'play:2', 2]]);
});

test('a bot that wants no move there is asked no more until the table changes', async () => {
  const e = fakeEngine(2);
  e.declines = true;
  const src = started(e);
  await src.serial(() => src.publish(null));
  src.kick();
  await until(() => !src.driving);
  assert.equal(e.asked.filter((op) => op === 'bot').length, 1);
  assert.equal(e.version, 0);
});
