// api.js: requests and their errors, the seats and settings this browser keeps.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { brokenStorage, installBrowser } from './browser.mjs';

installBrowser();
const { api, ApiError, forgetSeat, mySeats, newId, saveSeat, seatAt, seatQuery, setSetting, setting } =
  await import('../../src/taash/web/api.js');
const { liftOn, forcedOn } = await import('../../src/taash/web/play_options.js');
const { soundOn, setSound } = await import('../../src/taash/web/sound.js');
const { seenTips } = await import('../../src/taash/web/guide.js');

beforeEach(() => installBrowser());

/** A fetch that answers `status` with `body` (text or JSON) and notes what was asked. */
function answer(status, body) {
  const asked = [];
  globalThis.fetch = async (path, init) => {
    asked.push({ path, ...init });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 ? null : text, { status, statusText: status === 500 ? 'Internal Server Error' : '' });
  };
  return asked;
}

test('a seat\'s credential in a URL: a token, or a seat of the session\'s player', () => {
  assert.equal(seatQuery('a b&c'), 'token=a%20b%26c');
  assert.equal(seatQuery({ seat: 2 }), 'seat=2');
  assert.equal(seatQuery(null), '');
});

test('newId: 24 hex digits, new each time', () => {
  const a = newId();
  assert.match(a, /^[0-9a-f]{24}$/);
  assert.notEqual(newId(), a);
});

test('api: JSON in and out, a seat token as a bearer, a seat of one\'s own in the query', async () => {
  const asked = answer(200, { ok: 1 });
  assert.deepEqual(await api('POST', '/api/tables/x/act', { body: { a: 1 }, token: 'tok' }), { ok: 1 });
  assert.equal(asked[0].method, 'POST');
  assert.equal(asked[0].body, '{"a":1}');
  assert.equal(asked[0].headers.Authorization, 'Bearer tok');
  assert.equal(asked[0].headers['Content-Type'], 'application/json');
  assert.equal(asked[0].cache, 'no-store');
  await api('GET', '/api/tables/x/view?since=3', { token: { seat: 1 } });
  assert.equal(asked[1].path, '/api/tables/x/view?since=3&seat=1');
  assert.equal(asked[1].body, undefined);
  assert.equal(asked[1].headers.Authorization, undefined);
  answer(204, '');
  assert.equal(await api('DELETE', '/api/x'), null);
});

test('api: a refusal becomes an ApiError with the server\'s code, rule and sentence key', async () => {
  answer(409, { error: { code: 'illegal', message: 'follow suit', rule: 'CP-3', key: 'follow', params: { suit: 'H' } } });
  const e = await api('POST', '/api/x').catch((x) => x);
  assert.ok(e instanceof ApiError);
  assert.deepEqual([e.status, e.code, e.message, e.rule, e.key, e.params],
    [409, 'illegal', 'follow suit', 'CP-3', 'follow', { suit: 'H' }]);
  answer(500, 'not json');
  const e2 = await api('GET', '/api/x').catch((x) => x);
  assert.deepEqual([e2.status, e2.code, e2.message, e2.rule], [500, '500', 'Internal Server Error', null]);
  globalThis.fetch = async () => { throw new TypeError('Failed to fetch'); };
  const e3 = await api('GET', '/api/x').catch((x) => x);
  assert.deepEqual([e3.status, e3.code, e3.message], [0, 'network', 'Failed to fetch']);
});

test('the seats this browser holds: saved, found, a new token dropping the old invites, forgotten', () => {
  saveSeat('t1', '2', 'tok-a', 'goat');
  saveSeat('t1', 0, 'tok-b', 'goat');
  saveSeat('t2', 1, 'tok-c');
  assert.equal(mySeats().length, 3);
  assert.deepEqual(seatAt('t1', 2) && [seatAt('t1', 2).seat, seatAt('t1', 2).token], [2, 'tok-a']);
  assert.equal(seatAt('t1', '0').token, 'tok-b');
  assert.equal(seatAt('t1', 3), null);
  assert.equal(seatAt('t1', '').token, 'tok-a', 'no seat asked: the first one');
  assert.equal(seatAt('t3'), null);
  assert.equal(seatAt('t2', 1).game, null);
  // the same token again keeps what was noted with it; a new token drops the old invites
  const all = JSON.parse(localStorage.getItem('taash.seats'));
  all['t1/2'].invites = ['x'];
  localStorage.setItem('taash.seats', JSON.stringify(all));
  saveSeat('t1', 2, 'tok-a');
  assert.deepEqual(seatAt('t1', 2).invites, ['x']);
  assert.equal(seatAt('t1', 2).game, 'goat', 'the game is kept when not given');
  saveSeat('t1', 2, 'tok-z');
  assert.equal(seatAt('t1', 2).invites, undefined);
  forgetSeat('t1', 2);
  assert.equal(seatAt('t1', 2), null);
  assert.equal(mySeats().length, 2);
});

test('settings: a fallback until set; storage that refuses is no error', () => {
  assert.equal(setting('lift', 'off'), 'off');
  assert.equal(liftOn(), false);
  setSetting('lift', 'on');
  assert.equal(liftOn(), true);
  assert.equal(forcedOn(), false);
  assert.equal(soundOn(), true);
  setSound(false);
  assert.equal(localStorage.getItem('taash.sound'), 'off');
  assert.equal(soundOn(), false);
  globalThis.localStorage = brokenStorage;
  assert.equal(setting('lift', 'off'), 'off');
  assert.doesNotThrow(() => setSetting('lift', 'on'));
  assert.deepEqual(mySeats(), []);
  assert.doesNotThrow(() => saveSeat('t', 0, 'x'));
});

test('the tips seen: a list kept as JSON; anything else is none seen', () => {
  assert.deepEqual([...seenTips()], []);
  setSetting('tips', '["follow","pile"]');
  assert.deepEqual([...seenTips()], ['follow', 'pile']);
  setSetting('tips', '{"follow":1}');
  assert.deepEqual([...seenTips()], []);
  setSetting('tips', 'not json');
  assert.deepEqual([...seenTips()], []);
});

/** A WebSocket the test drives: `sent` holds what the page sent, `hear(msg)` answers. */
class FakeSocket {
  static last = null;
  constructor(url) {
    this.url = url;
    this.readyState = 1;
    this.sent = [];
    FakeSocket.last = this;
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; if (this.onclose) this.onclose(); }
  hear(msg) { this.onmessage({ data: JSON.stringify(msg) }); }
}

async function openLive(speak = true) {
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: 'http:', host: 'taash.test' };
  const events = { addEventListener() {}, removeEventListener() {} };
  globalThis.window = events;
  globalThis.document = Object.assign(globalThis.document || {}, events);
  const { Live } = await import('../../src/taash/web/api.js');
  const heard = [];
  const live = new Live({ id: 't1', token: 'tok', getSince: () => 3, onMessage: (m) => heard.push(m),
    onState: () => {}, onFatal: () => {} });
  await live.connect(false);
  if (speak) FakeSocket.last.hear({ type: 'table', version: 3, table: {} }); // its catch-up
  heard.length = 0;
  return { live, heard, ws: FakeSocket.last };
}

test('an action over the socket: its ack answers it and is not passed on as a message', async () => {
  const { live, heard, ws } = await openLive();
  const p = live.request({ type: 'action', action: 'play:AS', id: 'c1', version: 3 });
  assert.deepEqual(ws.sent, [{ type: 'action', action: 'play:AS', id: 'c1', version: 3 }]);
  ws.hear({ type: 'event', version: 4, view: {} });
  ws.hear({ type: 'ack', id: 'c1', version: 4 });
  assert.deepEqual(await p, { type: 'ack', id: 'c1', version: 4 });
  assert.deepEqual(heard.map((m) => m.type), ['event']);
  live.stop();
});

test('a refusal over the socket reads as the same refusal over HTTP (status, code, key)', async () => {
  const { live, ws } = await openLive();
  const p = live.request({ type: 'action', action: 'play:2H', id: 'c2' });
  ws.hear({ type: 'error', id: 'c2', error: { code: 'stale', message: 'the table moved on', rule: null } });
  const e = await p.catch((x) => x);
  assert.ok(e instanceof ApiError);
  assert.deepEqual([e.status, e.code, e.message], [409, 'stale', 'the table moved on']);
  const q = live.request({ type: 'action', action: 'play:2H', id: 'c3' });
  ws.hear({ type: 'error', id: 'c3', error: { code: 'unavailable', message: 'try again' } });
  assert.equal((await q.catch((x) => x)).status, 503);
  live.stop();
});

test('a socket that has said nothing yet is not used: NoAnswer at once', async () => {
  const { NoAnswer } = await import('../../src/taash/web/api.js');
  const { live, ws } = await openLive(false);
  const e = await live.request({ type: 'action', action: 'a', id: 'q1' }).catch((x) => x);
  assert.ok(e instanceof NoAnswer);
  assert.deepEqual(ws.sent, []);
  live.stop();
});

test('offline, the socket is not waited on: NoAnswer at once, and what waited is let go', async () => {
  const { NoAnswer } = await import('../../src/taash/web/api.js');
  const { live, ws } = await openLive();
  const waiting = live.request({ type: 'action', action: 'a', id: 'o1' });
  live.onOffline(); // the browser's 'offline' event
  assert.ok((await waiting.catch((x) => x)) instanceof NoAnswer);
  globalThis.navigator.onLine = false;
  const e = await live.request({ type: 'action', action: 'a', id: 'o2' }).catch((x) => x);
  assert.ok(e instanceof NoAnswer);
  assert.deepEqual(ws.sent.map((m) => m.id), ['o1']);
  live.stop();
});

test('no answer on the socket (closed, not open, silent): NoAnswer, for the caller to POST', async () => {
  const { NoAnswer } = await import('../../src/taash/web/api.js');
  const { live, ws } = await openLive();
  const p = live.request({ type: 'action', action: 'a', id: 'c4' });
  ws.close();
  assert.ok((await p.catch((x) => x)) instanceof NoAnswer);
  assert.ok((await live.request({ type: 'action', action: 'a', id: 'c5' }).catch((x) => x)) instanceof NoAnswer);
  live.stop();
  const again = await openLive();
  const silent = again.live.request({ type: 'action', action: 'a', id: 'c6' }, 10);
  assert.ok((await silent.catch((x) => x)) instanceof NoAnswer);
  again.ws.hear({ type: 'ack', id: 'c6', version: 9 }); // too late: passed on, harmless
  again.live.stop();
});
