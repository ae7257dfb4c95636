// The guided first deal (issue 27): at a table made by "Learn to play", short tips at the
// moments they matter — a suit to follow, a trick to trump, the double-sar pile, a molodka.
// A tip sits in the table's message row (between the felt and the status line), so it takes
// room from the felt and never lies over a control.  A tip dismissed, or shown until its
// moment passed, is remembered in this browser (taash.tips) and not shown again.
// Loaded only at a guided table (table.js); the home page marks one in taash.guided.
import { setting, setSetting } from './api.js';
import { gameOf } from './catalogue.js';
import { t } from './i18n.js';
import { h } from './ui.js';

const SEEN = 'tips';
// the rules' section each tip's "Rules" button opens (help.js)
const SECTION = {
  call: 'trump', follow: 'follow', trump: 'follow', pile: 'double-sar', collect: 'double-sar',
  answer: 'beat-pass', molodka: 'molodka',
};

export function seenTips() {
  try {
    const s = JSON.parse(setting(SEEN, '[]'));
    return new Set(Array.isArray(s) ? s : []);
  } catch {
    return new Set();
  }
}

function markSeen(id) {
  const s = seenTips();
  s.add(id);
  setSetting(SEEN, JSON.stringify([...s]));
}

const sum = (x) => (x || [0, 0]).reduce((a, b) => a + b, 0);
const suitOf = (card) => card[card.length - 1];

export class Guide {
  constructor(table) {
    this.table = table;
    this.waiting = []; // tips of something that happened (the pile), shown in turn
    this.shown = null; // {id, text, moment}
    this.el = null;
  }

  /** A new view and the events that brought it: what happened that a tip explains. */
  seen(prev, v, events) {
    if (!prev || !events || (v.options || {}).sar !== 'double') return; // the double-sar pile
    const tb = this.table;
    const ev = events.find((e) => e.type === 'trick');
    if (!ev) return;
    // a trick that ended the deal: its deal_over event has the deal's tricks (the view may
    // be the next deal's already)
    const over = events.find((e) => e.type === 'deal_over');
    const after = over ? over.tricks : prev.deal_number === v.deal_number ? v.tricks : null;
    if (!after) return;
    if (sum(after) > sum(prev.tricks)) {
      this.wait('collect', ev.winner === tb.me() ? t('tip_collect_you') : t('tip_collect', { name: tb.name(ev.winner) }));
    } else if (!over && (v.pile || 0) > (prev.pile || 0)) {
      this.wait('pile', t('tip_pile'));
    }
  }

  wait(id, text) {
    if (!seenTips().has(id) && !this.waiting.some((w) => w.id === id)) this.waiting.push({ id, text });
  }

  /** The moment this view is, if a tip explains it: {id, text}. */
  moment(v) {
    const tb = this.table;
    const me = tb.me();
    if (me === null || v.over) return null;
    const hand = v.hand || [];
    const trick = v.trick || [];
    const legal = v.legal_actions || [];
    if ((gameOf(v.game) || {}).plays_card_sets) { // Goat's beating and molodka
      if (v.phase !== 'play') return null;
      const four = legal.some((a) => a.startsWith('molodka:')
        || (a.startsWith('lead:') && a.split(',').length === 4));
      if (v.can_molodka || four) return { id: 'molodka', text: t('tip_molodka') };
      if (tb.yourTurn() && trick.length) return { id: 'answer', text: t('tip_answer') };
      return null;
    }
    if (v.phase === 'trump') {
      return v.caller === me && tb.yourTurn() ? { id: 'call', text: t('tip_call') } : null;
    }
    if (v.phase !== 'play' || !tb.yourTurn() || !trick.length) return null;
    const led = suitOf(trick[0].card);
    const suit = t(`suit_${led}`);
    if (hand.some((c) => suitOf(c) === led)) return { id: 'follow', text: t('tip_follow', { suit }) };
    if (v.trump && led !== v.trump && hand.some((c) => suitOf(c) === v.trump)) {
      return { id: 'trump', text: t('tip_trump', { suit, trump: t(`suit_${v.trump}`) }) };
    }
    return null;
  }

  /** Show the tip for the table as it is drawn now (nothing changes while a finished trick
   * is held on screen). */
  render() {
    const tb = this.table;
    const v = tb.view;
    if (!v || tb.shownTrick) return;
    const seen = seenTips();
    let tip = this.moment(v);
    if (tip && seen.has(tip.id)) tip = null;
    // a moment's tip that was shown while its moment lasted has been seen
    if (this.shown && this.shown.moment && (!tip || tip.id !== this.shown.id)) {
      markSeen(this.shown.id);
      seen.add(this.shown.id);
    }
    if (tip) tip.moment = true;
    else tip = this.waiting.find((w) => !seen.has(w.id)) || null;
    this.show(tip);
    tb.main.dataset.tipsAt = String(v.version);
  }

  show(tip) {
    if (tip && this.shown && this.el && this.el.isConnected && tip.id === this.shown.id
      && tip.text === this.shown.text) return;
    if (this.el) this.el.remove();
    this.el = null;
    this.shown = tip;
    if (!tip) return;
    const tb = this.table;
    this.el = h('div', { class: 'tip', 'data-tip': tip.id },
      h('p', null, tip.text),
      h('div', { class: 'tip-actions' },
        h('button', { class: 'btn tool', type: 'button', 'data-action': 'tip-rules',
          onclick: async (e) => {
            const button = e.currentTarget;
            const { openRules } = await import('./help.js');
            openRules({ game: (tb.view || {}).game, section: SECTION[tip.id], returnTo: button });
          } }, t('rules')),
        h('button', { class: 'btn tool primary', type: 'button', 'data-action': 'tip-ok',
          onclick: () => this.dismiss(tip.id) }, t('tip_ok'))));
    tb.notices.append(this.el);
  }

  dismiss(id) {
    const had = this.el && this.el.contains(document.activeElement);
    markSeen(id);
    this.waiting = this.waiting.filter((w) => w.id !== id);
    if (this.el) this.el.remove();
    this.el = null;
    this.shown = null;
    this.render();
    // the focus does not fall to the page's start: to the next tip, else the hand
    if (had) {
      const next = (this.el && this.el.querySelector('[data-action="tip-ok"]'))
        || this.table.handBox.querySelector('[data-playable="true"]') || this.table.handBox.querySelector('[data-card]');
      if (next) next.focus({ preventScroll: true });
    }
  }

  destroy() {
    if (this.el) this.el.remove();
    this.el = null;
  }
}
