// The table's sounds: a card played, your turn, a trick won, a deal won or lost.  The files
// (sounds/*.wav, a few KB each, made by scripts/make_sounds.py) are fetched only when first
// played, so the first load carries none; muting is remembered on this device.
import { setting, setSetting } from './api.js';

const kept = new Map(); // name -> the Audio that plays it

export const soundOn = () => setting('sound', 'on') !== 'off';

export function setSound(on) {
  setSetting('sound', on ? 'on' : 'off');
  if (!on) for (const a of kept.values()) a.pause();
}

/** Play a sound, unless muted; never an error (a browser that will not play before a tap, or
 * has no audio, stays silent). */
export function sound(name) {
  if (!soundOn()) return;
  let a = kept.get(name);
  if (!a) {
    a = new Audio(`/assets/sounds/${name}.wav`);
    a.volume = 0.6;
    kept.set(name, a);
  }
  try {
    a.currentTime = 0;
    const p = a.play();
    if (p && p.catch) p.catch(() => {});
  } catch { /* no audio here */ }
}
