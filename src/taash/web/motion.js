// Motion at the table: a card played flies to the trick from where it was (the player's hand,
// or the seat that played it).  Short (at most 300 ms), made with the Web Animations API on
// the `translate` and `scale` properties (the play's own `transform` places it), never in the
// way: the flying play takes no pointer events, nothing waits for it, and a new view simply
// draws the trick anew (the animation goes with the old element).  With reduced motion asked
// for, nothing moves.
export const FLY_MS = 240;

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
