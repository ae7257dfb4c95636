// The player's hand: a fan of card buttons, kept by card code so that a view arriving while a
// finger is on a card does not break the gesture.
//
// The gesture: press a card and release on it to use it; press, slide off the card and release
// elsewhere to cancel.  Pointer capture keeps the pointer's events coming to the pressed card
// wherever the pointer goes, so the release point is known.  Enter or Space on a focused card
// uses it too.
//
// From the keyboard the hand is one Tab stop (a roving tabindex, issue 50): one card, the
// last one focused (at first the first), is reached by Tab; the arrows, Home and End move
// between the cards.
import { cardEl } from './cards.js';

export class Hand {
  constructor(container, onActivate) {
    this.box = container;
    this.onActivate = onActivate;
    this.els = new Map();
    this.press = null;
    this.codes = [];
    this.current = null; // the card the hand's Tab stop is on
    this.drawn = false; // the first update shows the hand as it was before the page: not new
    this.box.addEventListener('contextmenu', (e) => e.preventDefault());
    this.box.addEventListener('keydown', (e) => this.keydown(e));
    this.box.addEventListener('focusin', (e) => {
      const code = e.target.dataset && e.target.dataset.card;
      if (code && this.els.get(code) === e.target) this.rove(code);
    });
    this.size = null; // the box's width and a card's size, kept until the box is resized
    this.resize = new ResizeObserver(() => { this.size = null; this.layout(); });
    this.resize.observe(this.box);
  }

  destroy() {
    this.resize.disconnect();
  }

  /** A new deal: every card of the next update arrives (a code kept from the last deal's
   * hand is a card dealt anew). */
  newDeal() {
    this.refocus = this.box.contains(document.activeElement); // the new hand's first card
    for (const el of this.els.values()) el.remove();
    this.els.clear();
    this.press = null;
    this.codes = [];
    this.current = null;
  }

  /** Put the hand's Tab stop on a card (tabindex 0 there, -1 on the others). */
  rove(code) {
    this.current = code;
    for (const [c, el] of this.els) el.tabIndex = c === code ? 0 : -1;
  }

  /** Focus the hand (its Tab stop's card); false when it holds no card. */
  focus() {
    const el = this.els.get(this.current) || this.els.get(this.codes[0]);
    if (!el) return false;
    el.focus({ preventScroll: true });
    return true;
  }

  /** cards: [{code, playable, dim, selected, trump, pending, hinted, lifted}] in display
   * order.
   * Returns the elements of the cards that came into the hand (dealt, drawn), for motion. */
  update(cards, trump) {
    const arrived = [];
    const keep = new Set(cards.map((c) => c.code));
    // A card played from the keyboard leaves the hand: the focus moves to its neighbour
    // instead of being lost (the next Enter plays again, the arrows go on working).
    const focused = this.codes.indexOf(document.activeElement && document.activeElement.dataset.card);
    const wasIn = focused >= 0 && this.box.contains(document.activeElement);
    for (const [code, el] of this.els) {
      if (!keep.has(code)) {
        if (this.press && this.press.el === el) this.press = null;
        el.remove();
        this.els.delete(code);
      }
    }
    cards.forEach((c, i) => {
      let el = this.els.get(c.code);
      if (!el || el.classList.contains('trump') !== (c.code[1] === trump)) {
        const fresh = cardEl(c.code, { tag: 'button', trump });
        this.wire(fresh, c.code);
        // a card drawn anew (the trump called) was there already: only a new code arrives
        if (el) el.replaceWith(fresh);
        else if (this.drawn) arrived.push(fresh);
        el = fresh;
        this.els.set(c.code, el);
      }
      el.dataset.playable = c.playable ? 'true' : 'false';
      el.setAttribute('aria-disabled', c.playable ? 'false' : 'true');
      el.classList.toggle('dim', !!c.dim);
      el.classList.toggle('selected', !!c.selected);
      el.classList.toggle('pending', !!c.pending);
      el.classList.toggle('hinted', !!c.hinted);
      el.classList.toggle('lifted', !!c.lifted);
      if (c.selected !== undefined) el.setAttribute('aria-pressed', c.selected ? 'true' : 'false');
      else el.removeAttribute('aria-pressed');
      if (this.box.children[i] !== el) this.box.insertBefore(el, this.box.children[i] || null);
    });
    // the Tab stop stays on its card; a card gone gives it to its neighbour
    const stop = this.current === null ? -1 : this.codes.indexOf(this.current);
    this.codes = cards.map((c) => c.code);
    if (this.codes.length) {
      this.rove(this.els.has(this.current) ? this.current
        : this.codes[Math.min(Math.max(stop, 0), this.codes.length - 1)]);
    } else {
      this.current = null;
    }
    if (wasIn && !this.box.contains(document.activeElement) && this.codes.length) {
      this.els.get(this.codes[Math.min(focused, this.codes.length - 1)]).focus({ preventScroll: true });
    }
    if (this.refocus && this.codes.length) {
      this.refocus = false;
      this.els.get(this.codes[0]).focus({ preventScroll: true });
    }
    this.box.dataset.count = String(cards.length);
    this.drawn = true;
    this.layout();
    return arrived;
  }

  layout() {
    const n = this.codes.length;
    if (!n) return;
    const roomy = n <= 6;
    this.box.classList.toggle('roomy', roomy);
    // measured once per size of the box and of its cards: each measure forces a layout
    if (!this.size || this.size.roomy !== roomy) {
      const first = this.els.get(this.codes[0]);
      this.size = { roomy, width: this.box.clientWidth, cw: first.offsetWidth || 60,
        ch: first.offsetHeight || 86 };
    }
    const { width, cw, ch } = this.size;
    const gap = Math.max(4, cw * 0.08);
    // A gentle fan only when the cards overlap; keep the outer cards' tilted corners on screen.
    let spread = n > 1 ? Math.min(1.8, 18 / n) : 0;
    let step = n > 1 ? Math.min(cw + gap, (width - cw - 8) / (n - 1)) : 0;
    if (step >= cw) spread = 0;
    const edge = (spread * (n - 1)) / 2;
    const pad = spread ? Math.sin((edge * Math.PI) / 180) * ch * 0.9 : 0;
    if (n > 1 && spread) step = Math.min(step, (width - cw - 8 - 2 * pad) / (n - 1));
    const total = cw + step * (n - 1);
    const start = Math.max(0, (width - total) / 2);
    this.codes.forEach((code, i) => {
      const el = this.els.get(code);
      const off = i - (n - 1) / 2;
      el.style.left = `${start + i * step}px`;
      el.style.setProperty('--rot', `${off * spread}deg`);
      el.style.setProperty('--drop', `${spread ? off * off * 0.3 : 0}px`);
      el.style.zIndex = String(i + 1);
    });
  }

  wire(el, code) {
    el.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || this.press) return;
      e.preventDefault(); // no text selection, no focus ring from a tap
      try { el.setPointerCapture(e.pointerId); } catch { /* already released */ }
      this.press = { id: e.pointerId, el, code, rect: el.getBoundingClientRect() };
      el.classList.add('pressed');
    });
    el.addEventListener('pointermove', (e) => {
      const p = this.press;
      if (!p || p.id !== e.pointerId) return;
      el.classList.toggle('pressed', this.inside(p, e));
    });
    el.addEventListener('pointerup', (e) => {
      const p = this.press;
      if (!p || p.id !== e.pointerId) return;
      const inside = this.inside(p, e);
      this.release();
      if (inside) this.onActivate(code, el);
    });
    const cancel = (e) => {
      if (this.press && this.press.id === e.pointerId) this.release();
    };
    el.addEventListener('pointercancel', cancel);
    el.addEventListener('lostpointercapture', cancel);
    // A click from the keyboard (Enter or Space on the focused card) has detail 0; clicks made
    // by a pointer were already handled above.
    el.addEventListener('click', (e) => {
      if (e.detail === 0) this.onActivate(code, el);
    });
  }

  /** Is the pointer still on the pressed card (where it was pressed, or where it is now)? */
  inside(p, e) {
    const x = e.clientX;
    const y = e.clientY;
    const within = (r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    return within(p.rect) || within(p.el.getBoundingClientRect());
  }

  release() {
    const p = this.press;
    this.press = null;
    if (!p) return;
    p.el.classList.remove('pressed');
    try { p.el.releasePointerCapture(p.id); } catch { /* gone */ }
  }

  /** The arrows move to the next card (the hand is laid out left to right whatever the
   * page's direction), Home and End to the first and the last. */
  keydown(e) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (!(e.key in moves) || e.altKey || e.ctrlKey || e.metaKey) return;
    const i = this.codes.indexOf(document.activeElement && document.activeElement.dataset.card);
    if (i < 0) return;
    const j = Math.max(0, Math.min(this.codes.length - 1, i + moves[e.key]));
    this.rove(this.codes[j]);
    this.els.get(this.codes[j]).focus();
    e.preventDefault();
  }
}
