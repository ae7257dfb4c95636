// Acting at the table: posting a player's action to the server, one at a time, with the
// version of the table it was chosen on, and waiting for the connection when it is down.
// Also the player's asks: a hint, a rematch.  `tb` is the table (table.js).
import { NoAnswer, api, newId, saveSeat } from './api.js';
import { cardName } from './cards.js';
import { cardsOf, verbOf } from './games/base.js';
import { t } from './i18n.js';
import { closeDialogs, toast } from './ui.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Post an action.  One at a time: a tap made while the previous action is still on its
 * way (the next view may come before the answer) waits for it instead of being lost.  The
 * action carries the version of the table the player tapped on, so the server refuses it
 * ('stale') if the table moved on in between: a card chosen for one trick never lands in the
 * next.  A molodka is the exception: it may be played at any moment, so it goes whatever
 * has happened since. */
export async function act(tb, action, cards = []) {
  if (!tb.token) return;
  if (tb.source) { await tb.source.act(action, cards); return; } // played in this page
  if (tb.inflight && tb.inflight.action === action) return;
  const prev = tb.inflight;
  const seen = action.startsWith('molodka:') || tb.version < 0 ? null : tb.version;
  const run = (async () => {
    if (prev) await prev.done;
    await post(tb, action, cards, seen);
  })();
  const entry = { action, done: run };
  tb.inflight = entry;
  await run;
  if (tb.inflight === entry) tb.inflight = null;
}

async function post(tb, action, cards, seen = null) {
  tb.pending = { action, cards, from: tb.version };
  tb.renderHand();
  const cid = newId();
  const body = seen === null ? { action, id: cid } : { action, id: cid, version: seen };
  let queued = null; // the notice that the move waits for the connection
  try {
    let res;
    for (let i = 0, busy = 0; ; i++) {
      if (tb.dead) return;
      try {
        res = await send(tb, body);
        break;
      } catch (e) {
        if (e.status === 0) {
          // No connection: the move waits (shown as pending, with a notice) and goes, with
          // the same id and version, once the connection is back; the server applies an id
          // once and refuses a stale version, which the page then says.
          if (!queued) queued = toast(t('queued'), 'queued', 24 * 3600 * 1000);
          await backOnline(tb, i);
          continue;
        }
        if ((e.status === 429 || e.status >= 500) && busy++ < 5) {
          await sleep(400 * busy);
          continue;
        }
        throw e;
      }
    }
    if (queued) queued.remove();
    tb.game.posted(cards);
    const want = res && typeof res.version === 'number' ? res.version : tb.version + 1;
    setTimeout(() => { if (!tb.dead && tb.version < want) tb.resync(); }, 1500);
  } catch (e) {
    if (queued) queued.remove();
    if (tb.pending && tb.pending.action === action) tb.pending = null;
    if (e.code === 'stale') {
      // Nothing was played: show the table as it is now, for the player to choose again.
      toast(t('stale'), 'error');
      tb.resync();
    } else {
      tb.showError(e);
    }
    tb.render();
  }
}

/** The action over the table's open WebSocket (no new request: the server's cheapest way,
 * bench/RESULTS.md), else, or when the socket gives no answer, as a POST with the same id:
 * the server applies an id once, so an action that went through before the socket closed is
 * answered again, not played twice. */
async function send(tb, body) {
  if (tb.live) {
    try {
      return await tb.live.request({ type: 'action', ...body });
    } catch (e) {
      if (!(e instanceof NoAnswer)) throw e;
    }
  }
  return api('POST', `/api/tables/${tb.id}/actions`, { body, token: tb.token });
}

/** Resolves when the live channel is back, or after a while (1 s, 2 s, … 8 s) to try
 * again anyway. */
function backOnline(tb, attempt) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      tb.waiters = tb.waiters.filter((w) => w !== done);
      resolve();
    };
    const timer = setTimeout(done, Math.min(8000, 1000 * 2 ** attempt));
    window.addEventListener('online', done);
    tb.waiters.push(done);
  });
}

/** Ask for a hint: shown as a toast, its cards marked in the hand. */
export async function askHint(tb) {
  if (!tb.token) return;
  try {
    const res = tb.source ? await tb.source.hint()
      : await api('GET', `/api/tables/${tb.id}/hint`, { token: tb.token });
    if (!res || !res.action) { toast(t('no_hint')); return; }
    tb.hint = { action: res.action };
    tb.game.hinted(res.action);
    toast(hintText(res.action), 'hint');
    tb.renderActions();
    tb.renderHand();
  } catch (e) {
    tb.showError(e);
  }
}

/** Start a table that waits for its invited friends without them: bots and the turn timer
 * play for whoever has not come (the table's next message draws it). */
export async function startTable(tb) {
  try {
    await api('POST', `/api/tables/${tb.id}/start`, { token: tb.token });
  } catch (e) {
    tb.showError(e);
  }
}

/** Join the rematch: its new table opens at this seat. */
export async function askRematch(tb) {
  if (tb.source) { closeDialogs(); tb.source.rematch(); return false; }
  try {
    const r = await api('POST', `/api/tables/${tb.id}/rematch`, { token: tb.token });
    // asked through the session cookie, the answer has no token: the seat is the player's
    if (r.token) saveSeat(r.id, r.seat, r.token, tb.view.game);
    closeDialogs();
    tb.navigate(`/t/${r.id}?seat=${r.seat}`);
  } catch (e) {
    tb.showError(e);
  }
  return false;
}

/** A hint's action in words: "Hint: call hearts", "Hint: Play 10 of spades". */
export function hintText(action) {
  const verb = verbOf(action);
  if (verb === 'trump') return t('hint_trump', { suit: t(`suit_${action.slice(6)}`) });
  return t('hint_play', { verb: t(`verb_${verb}`), cards: cardsOf(action).map(cardName).join(', ') });
}
