// What the guided deal says and points at (learn.js's lesson): one sentence in the table's
// message row (never over a control) for the learner's move, with the card or button marked
// (data-point, and the hint's glow); a lesson about what just happened (a trick won, the draw,
// the deal's end) with a Next button; a wrong move answered with the rule in plain words, the
// rule's page and the card to look at.  The table draws it after the hand (table_board.js asks
// tb.guide), so the marks are put back on every drawing.
import { setSetting, setting } from './api.js';
import { cardName } from './cards.js';
import { gameOf } from './catalogue.js';
import { cardsOf, verbOf } from './games/base.js';
import { t } from './i18n.js';
import { ruleText } from './refusal.js';
import { h, fill } from './ui.js';

/** An action's key as the script keys refusals: the verb and its cards sorted. */
export const keyOf = (action) => `${verbOf(action)}:${[...cardsOf(action)].sort().join(',')}`;

/** The guided deals this browser has finished (home's first-visit offer asks). */
export function learned() {
  try {
    const s = JSON.parse(setting('learned', '[]'));
    return Array.isArray(s) ? s : [];
  } catch {
    return [];
  }
}

/** The link to a rule's explanation: /rules/<game>#<rule>. */
export const ruleHref = (game, rule) => `/rules/${encodeURIComponent(game)}#${encodeURIComponent(rule)}`;

export class Lesson {
  constructor(tb, source) {
    Object.assign(this, { tb, source });
    this.box = h('div', { class: 'lesson', 'data-lesson-box': '' });
    tb.notices.prepend(this.box);
    this.step = null; // the learner's step waited for
    this.reads = null; // {notes, i, then}: lessons about what happened, read with Next
  }

  game() { return this.source.script.game; }

  reading() { return !!this.reads; }

  /** A suit, trump, count or seat of a lesson as words. */
  params(p) {
    const out = { ...p };
    for (const k of ['suit', 'trump']) if (typeof p[k] === 'string') out[k] = t(`suit_${p[k]}`);
    if (typeof p.seat === 'number') out.name = this.tb.name(p.seat);
    if (Array.isArray(p.tricks)) out.tricks = p.tricks.join(' – ');
    if (Array.isArray(p.points)) {
      const mine = this.tb.me() % 2;
      Object.assign(out, { we: p.points[mine], they: p.points[1 - mine] });
    }
    if (typeof p.winner === 'number') out.name = this.tb.sideName(p.winner);
    return out;
  }

  /** The learner's move to make: what to do and why. */
  expect(step) {
    this.step = step;
    this.say('move', step.lesson.id, t(`learn_${step.lesson.id}`, this.params(step.lesson)));
  }

  /** The script's move was made. */
  right() {
    this.step = null;
    fill(this.box);
    this.clearPoints();
  }

  /** Lessons about what just happened, each read with Next; then `then`. */
  notes(list, then) {
    this.reads = { notes: list, i: 0, then };
    this.showNote();
  }

  showNote() {
    const r = this.reads;
    const n = r.notes[r.i];
    const sets = (gameOf(this.game()) || {}).plays_card_sets; // Goat: tricks of card sets
    const key = n.id === 'trick_won' && sets ? 'learn_trick_won_sets' : `learn_${n.id}`;
    this.say('note', n.id, t(key, this.params(n)), h('button', {
      class: 'btn tool primary', type: 'button', 'data-action': 'learn-next',
      onclick: () => this.next(),
    }, t('learn_next')));
  }

  next() {
    const r = this.reads;
    if (!r) return;
    r.i += 1;
    if (r.i < r.notes.length) { this.showNote(); return; }
    this.reads = null;
    fill(this.box);
    r.then();
  }

  /** A move tried while the others play, or while a lesson is being read. */
  wait() {
    if (this.reads) this.flash();
  }

  flash() {
    this.box.classList.remove('flash');
    void this.box.offsetWidth; // restart the animation
    this.box.classList.add('flash');
  }

  /** A move the script does not make: the core's refusal (its rule in plain words, the rule's
   * page, the card to look at), or, where the rules allow it, what this lesson asks. */
  wrong(refusal, step) {
    const look = cardsOf(step.action).filter((c) => c.length === 2);
    const lookText = look.length ? t('learn_look', { cards: look.map(cardName).join(', ') }) : '';
    const why = refusal
      ? [h('strong', null, `${t('not_allowed')}: `), ruleText(refusal, (s) => this.tb.name(s)) || refusal.message]
      : [t('learn_allowed')];
    const rule = refusal && refusal.rule ? h('a', {
      class: 'rule-link', href: ruleHref(this.game(), refusal.rule), 'data-rule': refusal.rule,
      target: '_blank', rel: 'noopener',
    }, t('learn_rule', { rule: refusal.rule })) : null;
    fill(this.box, h('div', { class: 'lesson-wrong', 'data-lesson-wrong': refusal ? refusal.rule || '' : 'lesson', role: 'alert' },
      h('p', null, ...why, ' ', lookText, rule ? ' ' : null, rule)),
    h('p', { class: 'lesson-text', 'data-lesson': step.lesson.id }, t(`learn_${step.lesson.id}`, this.params(step.lesson))));
    this.box.dataset.kind = 'wrong';
    this.render();
  }

  /** The deal is over: done, again, the rules, a real game. */
  finish() {
    this.step = null;
    const game = this.game();
    setSetting('learned', JSON.stringify([...new Set([...learned(), game])]));
    this.tb.main.dataset.learned = 'true';
    const nav = this.source.navigate;
    fill(this.box, h('div', { class: 'lesson-done', 'data-lesson-done': '' },
      h('p', null, t('learn_done')),
      h('div', { class: 'tip-actions' },
        h('a', { class: 'btn tool', href: `/rules/${encodeURIComponent(game)}`, 'data-action': 'learn-rules',
          onclick: (e) => { e.preventDefault(); nav(`/rules/${encodeURIComponent(game)}`); } }, t('rules')),
        h('button', { class: 'btn tool', type: 'button', 'data-action': 'learn-again',
          onclick: () => nav(location.pathname) }, t('learn_again')),
        h('button', { class: 'btn tool primary', type: 'button', 'data-action': 'learn-play',
          onclick: () => { setSetting('game', game); nav('/'); } }, t('learn_play')))));
    this.box.dataset.kind = 'done';
  }

  say(kind, id, text, button = null) {
    fill(this.box, h('div', { class: 'tip', 'data-lesson': id },
      h('p', null, text), button ? h('div', { class: 'tip-actions' }, button) : null));
    this.box.dataset.kind = kind;
    this.render();
  }

  clearPoints() {
    for (const el of this.tb.main.querySelectorAll('[data-point]')) {
      el.removeAttribute('data-point');
      el.classList.remove('hinted');
    }
  }

  /** The marks on what to tap: the step's cards in the hand and its button (a trump's suit,
   * Goat's verb), put back after each drawing of the table. */
  render() {
    const tb = this.tb;
    this.clearPoints();
    const step = this.step;
    if (!step || this.reads || tb.shownTrick) return;
    tb.hint = { action: step.action };
    const verb = verbOf(step.action);
    const marks = [];
    if (verb === 'trump') marks.push(tb.actions.querySelector(`[data-action="${step.action}"]`));
    else if (verb !== 'play') marks.push(tb.actions.querySelector(`[data-action="${verb}"]`));
    if (verb !== 'trump') {
      for (const c of cardsOf(step.action)) marks.push(tb.handBox.querySelector(`[data-card="${c}"]`));
    }
    for (const el of marks) {
      if (!el) continue;
      el.dataset.point = 'true';
      el.classList.add('hinted');
    }
    tb.main.dataset.lessonAt = `${this.source.at}`;
  }

  /** The actions were drawn again without the rest of the table: their marks put back. */
  actionsDrawn() {
    if (this.step && !this.reads) this.render();
  }

  /** The table saw a view (the guide's hook; the lesson follows the script, not the views). */
  seen() {}

  destroy() { this.box.remove(); }
}
