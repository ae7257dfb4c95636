// Motion at the table: a card played flies to the trick from where it was (the player's hand,
// or the seat that played it); cards dealt (or drawn from Goat's stock) fly into the hand.
// Short (at most 300 ms), made with the Web Animations API on the `translate` and `scale`
// properties (the element's own `transform` places it), never in the way: the flying play
// takes no pointer events, nothing waits for it, and a new view simply draws the trick anew
// (the animation goes with the old element).  With reduced motion asked for, nothing moves.
export const FLY_MS = 240;
/** Cards coming into the hand: each flies for DEAL_FLY_MS, one after the other, all of them
 * landed within DEAL_MS. */
export const DEAL_MS = 300;
const DEAL_FLY_MS = 180;
const START = 0.6; // a card's size when it leaves the deck

const reduced = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

/** A play's identity in its trick: who, how, how many (a play drawn again is not new). */
export const playKey = (p) => `${p.seat}:${p.verb}:${p.count}:${(p.cards || []).join(',')}`;

/** Fly each new play (`fresh`: [{el, from}] — from: the rectangle it comes from). */
export function flyIn(fresh) {
  if (!fresh.length || reduced() || typeof Element.prototype.animate !== 'function') return;
  // at the next frame, before it is painted: where the play lands is then the frame's own
  // layout, not one more forced in the middle of drawing the table
  requestAnimationFrame(() => fly(fresh));
}

function fly(fresh) {
  for (const { el, from } of fresh) {
    if (!from || !from.width || !el.isConnected) continue;
    const to = el.getBoundingClientRect();
    if (!to.width) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    const s = Math.max(0.5, Math.min(1.6, from.width / to.width));
    // while it flies (over the hand, maybe) a tap goes through it to what lies under it
    el.classList.add('flying');
    const a = el.animate([
      { translate: `${dx}px ${dy}px`, scale: String(s), opacity: 0.85 },
      { translate: '0px 0px', scale: '1', opacity: 1 },
    ], { duration: FLY_MS, easing: 'cubic-bezier(.2, .7, .3, 1)' });
    const landed = () => el.classList.remove('flying');
    a.addEventListener('finish', landed);
    a.addEventListener('cancel', landed);
  }
}

/** Fly cards that came into the hand (`els`, in the hand's order) from `source` (an element:
 * the stock, the middle of the felt), one after the other.  The cards are in the hand and
 * usable from the start: only their look moves, and a card played while it flies leaves with
 * its animation. */
export function dealIn(els, source) {
  if (!els.length || !source || reduced() || typeof Element.prototype.animate !== 'function') return;
  requestAnimationFrame(() => deal(els, source));
}

function deal(els, source) {
  if (!source.isConnected) return;
  const from = source.getBoundingClientRect();
  if (!from.width && !from.height) return;
  const cx = from.left + from.width / 2;
  const cy = from.top + from.height / 2;
  const live = els.filter((el) => el.isConnected);
  const step = live.length > 1 ? Math.min(24, (DEAL_MS - DEAL_FLY_MS) / (live.length - 1)) : 0;
  live.forEach((el, i) => {
    const to = el.getBoundingClientRect();
    if (!to.width) return;
    // a hand card scales about its bottom's middle: at the start, scaled down, its middle
    // lies (1 - START) half-heights lower than the offset says (its small turn in the fan
    // aside: a few pixels at the ends)
    const dx = cx - (to.left + to.width / 2);
    const dy = cy - (to.top + to.height / 2) - ((1 - START) * el.offsetHeight) / 2;
    el.animate([
      { translate: `${dx}px ${dy}px`, scale: String(START), opacity: 0 },
      { opacity: 1, offset: 0.4 },
      { translate: '0px 0px', scale: '1', opacity: 1 },
    ], { duration: DEAL_FLY_MS, delay: Math.round(i * step), easing: 'ease-out', fill: 'backwards' });
  });
}
