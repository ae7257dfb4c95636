// The guided first deal (issue 49): /learn/<game>, one fixed deal played at the real table
// view (table.js, with this module's source in place of the server, as offline play's), the
// learner in seat 0 making every move.  The deal was played once by the rules core
// (taash.learn, shipped as /assets/learn/<game>.json): each step is a seat's move with the
// core's events and the learner's view after it.  The others' moves come at the bots' pace;
// at each of the learner's moves the lesson (learn_lesson.js) points at the card or button
// and says why in one sentence, and the move is checked against the script: a move the rules
// refuse is answered with the core's refusal worked out beforehand (its rule in plain words,
// a link to the rule's page, the card to look at), a move they allow but the lesson does not
// with what the lesson asks.  Loaded only when asked for: none of it is home's first load.
import { setting } from './api.js';
import { t } from './i18n.js';
import { Lesson, keyOf } from './learn_lesson.js';
import { mountTable } from './table.js';
import { h, fill } from './ui.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Open /learn/<game> in `root`; returns the unmount. */
export function mountLearn(root, { game, navigate }) {
  const source = new LessonSource(game, navigate);
  return mountTable(root, { id: 'learn', seat: 0, token: 'learn', navigate, source });
}

export class LessonSource {
  constructor(game, navigate) {
    this.gameId = game;
    this.navigate = navigate;
    this.at = 0; // the next step of the script
    this.version = 0;
    this.expected = null; // the learner's step the lesson waits for
    this.delay = Math.min(Number(setting('bot_delay_ms', '700')), 1500);
  }

  async start(tb) {
    this.tb = tb;
    tb.chat.btn.hidden = true; // nobody to talk to
    tb.hintBtn.hidden = true; // the lesson points at the move itself
    let s;
    try {
      const res = await fetch(`/assets/learn/${encodeURIComponent(this.gameId)}.json`);
      if (!res.ok) throw new Error(t('learn_no_deal'));
      s = await res.json();
    } catch (e) {
      if (!tb.dead) this.fail(e.message);
      return;
    }
    if (tb.dead) return;
    this.script = s;
    this.seats = s.start.hand_counts.length;
    this.lesson = new Lesson(tb, this);
    tb.guide = this.lesson; // drawn with the table (table_board.js asks the guide after the hand)
    tb.main.dataset.learn = s.game;
    this.send(s.start, null);
    this.run();
  }

  stop() { this.stopped = true; }

  fail(message) {
    this.failed = message;
    fill(this.tb.status, h('span', { class: 'status-error', 'data-error': 'learn' }, `${t('error')}: ${message}`));
  }

  /** The table's info as the server gives it: the learner and three (or one) bots. */
  info(v) {
    const seats = [];
    for (let s = 0; s < this.seats; s++) {
      seats.push(s === this.script.learner
        ? { seat: s, type: 'human', level: null, name: setting('name', '') || null, claimed: true, connected: true }
        : { seat: s, type: 'bot', level: 'easy', name: null, claimed: true, connected: true });
    }
    return {
      id: 'learn', game: this.script.game, options: this.script.options, live: true, open: false,
      offline: true, bot_delay_ms: this.delay, turn_timer_s: null, turn_ends: null,
      version: this.version, over: false, to_move: v.to_move ?? null, rematch: null,
      rematch_of: null, chat_text: false, pass_and_play: false, waiting: [], fair: null,
      idle: false, seats,
    };
  }

  send(view, events) {
    this.version += 1;
    const v = { ...view, version: this.version, table: this.info(view) };
    this.tb.enqueue(events
      ? { type: 'event', version: this.version, events, view: v }
      : { type: 'view', version: this.version, view: v });
  }

  step() { return this.script.steps[this.at]; }

  /** The others' moves, at the bots' pace, until the learner's move or a lesson to read. */
  async run() {
    if (this.running) return;
    this.running = true;
    while (!this.stopped && !this.tb.dead && this.at < this.script.steps.length) {
      const step = this.step();
      if (step.seat === this.script.learner) {
        this.expected = step;
        this.lesson.expect(step);
        break;
      }
      await sleep(this.delay);
      if (this.stopped || this.tb.dead) break;
      if (this.advance()) break;
    }
    this.running = false;
    if (this.at >= this.script.steps.length && !this.stopped) this.lesson.finish();
  }

  /** The next step played; true when it brings lessons to read first (Next goes on). */
  advance() {
    const step = this.step();
    this.at += 1;
    this.send(step.view, step.events);
    if (step.notes && step.notes.length) {
      this.lesson.notes(step.notes, () => this.run());
      return true;
    }
    return false;
  }

  // -- the table view's acts (acting.js asks these of a table with a source) ----------------
  /** The learner's move: the script's goes on; another is answered (nothing changes). */
  async act(action, cards) {
    const step = this.expected;
    if (!step || this.lesson.reading()) { this.lesson.wait(); return; }
    if (keyOf(action) !== keyOf(step.action)) {
      const refusal = (step.refusals || {})[keyOf(action)];
      this.lesson.wrong(refusal || null, step);
      return;
    }
    this.expected = null;
    this.tb.game.posted(cards);
    this.lesson.right();
    if (!this.advance()) this.run();
  }

  /** The hint is the lesson's move. */
  async hint() {
    return { action: this.expected ? this.expected.action : null };
  }

  /** The lesson again, from the start. */
  rematch() { this.navigate(location.pathname); }
}
