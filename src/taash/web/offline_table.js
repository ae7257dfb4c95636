// An offline table (issue 46): /offline/<game>?bots=hard|easy|random&<option>=<value>, the
// same table view as an online table (table.js) with the engine in a Web Worker
// (offline_engine.js: Pyodide running taash's own rules core and bots) as its source in place
// of the server.  The source sends the table view the messages the server would (a `view`,
// then an `event` with the core's events and the seat's view after each action), applies the
// player's moves (a refusal is the core's, with its rule id), lets the bots move at the
// server's pace (a bot moves `bot_delay_ms` after the last change, thinking in the worker), and
// keeps the match's record in IndexedDB after every deal (offline_records.js).
import { setting } from './api.js';
import { t } from './i18n.js';
import { OfflineEngine } from './offline_engine.js';
import { keepRecord, uploadRecords } from './offline_records.js';
import { mountTable } from './table.js';
import { h, fill } from './ui.js';

export const LEVELS = ['random', 'easy', 'hard'];
const HUMAN = 0; // the player's seat; the bots sit in the others
// The hard bot's budget per move, ms: at the server's, single-sar Court Piece's search took up
// to 2.5 s on a 4x slower CPU; at 300 ms every game stayed under 1.3 s, within issue 46's
// 1.5 s (bench/RESULTS.md, 2026-12-06, bench/offline_engine.py --budget 300)
const HARD_BUDGET_MS = 300;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A query value as the options want it: JSON where it reads as JSON (4, true,
 * {"deals":2}), else the text itself (double-next). */
function valueOf(text) {
  try { return JSON.parse(text); } catch { return text; }
}

/** What an offline table's address asks for: the game, the bots' level, a seed (optional:
 * the same seed deals the same match) and the options (checked by the engine, as a new table's
 * are by the server). */
export function offlineAsk(game, search) {
  const q = new URLSearchParams(search);
  const ask = { game, bots: q.get('bots') || 'easy', seed: null, options: {} };
  for (const [k, v] of q) {
    if (k === 'seed') ask.seed = valueOf(v);
    else if (k !== 'bots') ask.options[k] = valueOf(v);
  }
  return ask;
}

/** The address of an offline table of `game` against bots of `level`, with `options` (as
 * gameOptions gives them): what offlineAsk reads back.  A text that would read as JSON
 * (a number, true) goes as JSON text; any other text as it is (double-next). */
export function offlineAddress(game, level, options = {}) {
  const q = new URLSearchParams({ bots: level });
  for (const [k, v] of Object.entries(options)) {
    q.set(k, typeof v === 'string' && valueOf(v) === v ? v : JSON.stringify(v));
  }
  return `/offline/${encodeURIComponent(game)}?${q}`;
}

/** Open /offline/<game> in `root`; returns the unmount. */
export function mountOfflineTable(root, { game, search, navigate }) {
  // offline play's own screen (/offline) loaded too, so that the service worker keeps it with
  // this one: a page that played offline once opens either with no connection
  import('./offline_list.js').catch(() => {});
  const source = new OfflineSource(offlineAsk(game, search), navigate);
  return mountTable(root, { id: 'offline', seat: HUMAN, token: 'offline', navigate, source });
}

export class OfflineSource {
  constructor(ask, navigate) {
    this.ask = ask;
    this.navigate = navigate;
    this.version = -1;
    this.changedAt = 0;
    this.delay = Number(setting('bot_delay_ms', '700')); // the server's default pace
    this.lock = Promise.resolve();
    this.declined = new Set(); // `${seat}/${version}`: a bot that wants no move there
    this.again = false;
    this.driving = false;
  }

  /** One step at a time (a move applied and its view sent): the player's and the bots'. */
  serial(work) {
    const run = this.lock.then(work);
    this.lock = run.catch(() => {});
    return run;
  }

  async start(tb) {
    this.tb = tb;
    tb.chat.btn.hidden = true; // nobody to talk to
    const { game, bots, seed, options } = this.ask;
    if (!LEVELS.includes(bots)) return this.fail(`bots: one of ${LEVELS.join(', ')}, not ${JSON.stringify(bots)}`);
    this.engine = new OfflineEngine();
    let made;
    try {
      made = await this.engine.ask({ op: 'new', game, options, seed });
    } catch (e) {
      made = { error: { message: e.message } };
    }
    if (tb.dead) return undefined;
    if (made.error) return this.fail(made.error.message);
    Object.assign(this, { match: made.match, seed: made.seed, options: made.options });
    this.seats = made.view.hand_counts.length;
    this.key = `${game}-${Date.now()}-${made.seed}`;
    this.created = Date.now();
    this.changedAt = Date.now();
    await this.guarded(async () => {
      await this.serial(() => this.publish(null));
      await this.keep(false);
    });
    this.kick();
    return undefined;
  }

  /** Work on the engine that may end with the table (the engine closed under it: nothing to
   * say) or with a fault of the engine's (said in the status line). */
  async guarded(work) {
    try {
      await work();
    } catch (e) {
      if (!this.stopped) this.fail(e.message);
    }
  }

  stop() {
    this.stopped = true;
    if (this.engine) this.engine.close();
  }

  /** Say why the table cannot play (an address the rules refuse, an engine that cannot
   * start) where the status line shows; the engine, if any, is let go. */
  fail(message) {
    if (this.tb.dead) return;
    this.failed = message;
    this.stop();
    fill(this.tb.status, h('span', { class: 'status-error', 'data-error': 'offline' },
      `${t('error')}: ${message}`));
  }

  /** The table's info as the server gives it: the player and the bots, nothing to wait for. */
  info(v) {
    const seats = [];
    for (let s = 0; s < this.seats; s++) {
      seats.push(s === HUMAN
        ? { seat: s, type: 'human', level: null, name: setting('name', '') || null, claimed: true, connected: true }
        : { seat: s, type: 'bot', level: this.ask.bots, name: null, claimed: true, connected: true });
    }
    return {
      id: 'offline', game: this.ask.game, options: this.options, live: true, open: false, offline: true,
      bot_delay_ms: this.delay, turn_timer_s: null, turn_ends: null, version: this.version,
      over: !!v.over, to_move: v.to_move ?? null, rematch: null, rematch_of: null, chat_text: false,
      pass_and_play: false, waiting: [], fair: null, idle: false, seats,
    };
  }

  /** The seat's view after the last change, to the table view as the server would send it. */
  async publish(events) {
    const r = await this.engine.ask({ op: 'view', match: this.match, seat: HUMAN });
    if (r.error) { this.fail(r.error.message); return; }
    this.version = r.version;
    const view = { ...r.view, version: r.version, table: this.info(r.view) };
    this.tb.enqueue(events
      ? { type: 'event', version: r.version, events, view }
      : { type: 'view', version: r.version, view });
  }

  /** An action applied: its events and the new view sent; the record kept after a deal. */
  async applied(r) {
    this.changedAt = Date.now();
    await this.publish(r.events);
    if (r.over || r.events.some((e) => e.type === 'deal_over')) await this.keep(!!r.over);
  }

  /** The match's record, kept in IndexedDB (each deal's end, the match's); a finished match
   * goes to the player's history when the server can be reached. */
  async keep(over) {
    const r = await this.engine.ask({ op: 'record', match: this.match });
    if (r.error) return;
    const { game, bots } = this.ask;
    try {
      await keepRecord({ key: this.key, game, seat: HUMAN, bots, created: this.created,
        updated: Date.now(), over, deals: r.record.deals.length, record: r.record });
      this.tb.main.dataset.kept = String(r.version);
    } catch { /* no IndexedDB here (private mode): the match plays on, unkept */ }
    if (over && navigator.onLine) uploadRecords();
  }

  // -- the table view's acts (acting.js asks these of a table with a source) ----------------
  /** The player's action: applied, or the core's refusal shown (nothing changed). */
  act(action, cards) {
    const tb = this.tb;
    if (!this.match || this.failed) return Promise.resolve();
    return this.guarded(() => this.serial(async () => {
      tb.pending = { action, cards, from: tb.version };
      tb.renderHand();
      const r = await this.engine.ask({ op: 'apply', match: this.match, seat: HUMAN, action });
      if (r.error) {
        tb.pending = null;
        tb.showError(r.error);
        tb.render();
        return;
      }
      tb.game.posted(cards);
      await this.applied(r);
      this.kick();
    }));
  }

  /** What the easy bot would do for the player now. */
  async hint() {
    const r = await this.engine.ask({ op: 'bot', match: this.match, seat: HUMAN, level: 'easy' });
    if (r.error) throw Object.assign(new Error(r.error.message), r.error);
    return { action: r.action };
  }

  /** Another match of the same game, options and bots (a new deck: the seed is not kept). */
  rematch() {
    const q = new URLSearchParams(location.search);
    q.delete('seed');
    const rest = q.toString();
    this.navigate(`${location.pathname}${rest ? `?${rest}` : ''}`);
  }

  // -- the bots ---------------------------------------------------------------------------
  /** Let the bots move (after the start and after each of the player's moves). */
  kick() {
    this.again = true;
    if (!this.driving) this.drive();
  }

  async drive() {
    this.driving = true;
    await this.guarded(async () => {
      while (this.again && !this.stopped) {
        this.again = false;
        while (!this.stopped && await this.botMove());
      }
    });
    this.driving = false;
  }

  /** One bot's move, paced as the server paces its bots; false when no bot wants to move. */
  async botMove() {
    const { match } = this;
    const a = await this.engine.ask({ op: 'actors', match });
    if (a.error) throw new Error(a.error.message);
    if (a.over) return false;
    const seat = a.actors.find((s) => s !== HUMAN && !this.declined.has(`${s}/${a.version}`));
    if (seat === undefined) return false;
    const wait = this.changedAt + this.delay - Date.now();
    if (wait > 0) await sleep(wait);
    if (this.stopped || this.version !== a.version) return true; // the player moved: look again
    const level = this.ask.bots;
    const b = await this.engine.ask({ op: 'bot', match, seat, level,
      budget_ms: level === 'hard' ? HARD_BUDGET_MS : undefined });
    if (b.error) throw new Error(b.error.message);
    return this.serial(async () => {
      if (this.stopped || this.version !== a.version) return true;
      const r = b.action === null ? null
        : await this.engine.ask({ op: 'apply', match, seat, action: b.action });
      if (!r || r.error) this.declined.add(`${seat}/${a.version}`);
      else await this.applied(r);
      return true;
    });
  }
}
