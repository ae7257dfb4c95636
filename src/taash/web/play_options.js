// Two ways of playing a player may turn on for this device (the table's menu): "tap to lift,
// tap again to play" (a first tap only lifts a card, a second tap on it plays it), and "play
// a forced card for me" (when the seat has exactly one legal move, it is made after a short
// delay the player sees and may cancel).  `tb` is the table (table.js).
import { setting, setSetting } from './api.js';
import { cardName } from './cards.js';
import { cardsOf, verbOf } from './games/base.js';
import { t } from './i18n.js';
import { h } from './ui.js';

export const liftOn = () => setting('lift', 'off') === 'on';
export const forcedOn = () => setting('auto_forced', 'off') === 'on';

/** The options' part of the table's menu: a checkbox each. */
export function optionsMenu(tb) {
  const box = (name, key, on, set) => h('label', { class: 'check-row' },
    h('input', { type: 'checkbox', 'data-option': name, checked: on, onchange: (e) => {
      set(e.target.checked);
      tb.forced.check();
      tb.renderHand();
    } }), h('span', null, t(key)));
  return [h('h3', null, t('play_options')),
    box('lift', 'option_lift', liftOn(), (v) => setSetting('lift', v ? 'on' : 'off')),
    box('auto-forced', 'option_forced', forcedOn(), (v) => setSetting('auto_forced', v ? 'on' : 'off'))];
}

/** The forced move, made for the seat after a delay, shown in the message row with a
 * Cancel button; cancelled, it waits for the player for the rest of this turn. */
export class ForcedPlay {
  constructor(tb) {
    this.tb = tb;
    this.timer = null;
    this.el = null;
    this.version = -1; // the version a forced move is waiting (or was cancelled) on
    this.cancelled = -1;
    this.made = -1; // the version a forced move was made on: never twice (a refusal redraws)
  }

  /** The one legal move now, if it is forced (not a trump call), else null. */
  only() {
    const tb = this.tb;
    const v = tb.view;
    if (!v || !tb.token || !tb.yourTurn() || v.phase !== 'play' || tb.pending || tb.inflight) return null;
    const legal = v.legal_actions || [];
    if (legal.length !== 1 || verbOf(legal[0]) === 'trump') return null;
    return legal[0];
  }

  /** After each drawing of the table: start, keep or drop the forced move. */
  check() {
    const tb = this.tb;
    const action = forcedOn() ? this.only() : null;
    if (!action || this.cancelled === tb.version || this.made === tb.version) {
      this.stop();
      return;
    }
    if (this.timer && this.version === tb.version) return;
    this.stop();
    this.version = tb.version;
    const cards = cardsOf(action);
    const delay = Number(setting('forced_ms', '1500'));
    this.el = h('div', { class: 'banner forced', 'data-forced': action, role: 'status' },
      h('span', { class: 'banner-text' }, t('forced_playing', { cards: cards.map(cardName).join(', ') })),
      h('span', { class: 'forced-bar', style: { animationDuration: `${delay}ms` } }),
      h('button', { class: 'btn', type: 'button', 'data-action': 'forced-cancel', onclick: () => this.cancel() }, t('forced_cancel')));
    tb.notices.append(this.el);
    this.timer = setTimeout(() => {
      this.timer = null;
      const still = this.only();
      this.drop();
      if (still === action && tb.version === this.version && !tb.dead) {
        this.made = this.version;
        tb.act(action, cards);
      }
    }, delay);
  }

  cancel() {
    this.cancelled = this.tb.version;
    this.stop();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.drop();
  }

  drop() {
    if (this.el) this.el.remove();
    this.el = null;
  }
}
