// The voice panel at the table (voice.js draws it from its state): the microphone and mute
// buttons in the table's bar, the list of the other players heard (each with its state, a
// volume, a mute and, once failed, a retry) that folds away once all is well, and the
// players' audio elements.
import { t } from './i18n.js';
import { h, fill } from './ui.js';

const FOLD_MS = 5000;
const SVG = 'http://www.w3.org/2000/svg';

/** A microphone drawn in the button's colour (an emoji may be missing from the device's
 * fonts), crossed out for mute: the buttons are 44 px squares that fit a phone's bar. */
function micIcon(crossed) {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of Object.entries({ viewBox: '0 0 24 24', width: '22', height: '22', fill: 'none',
    stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'aria-hidden': 'true' })) svg.setAttribute(k, v);
  const lines = ['M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z', 'M5 11a7 7 0 0 0 14 0', 'M12 18v3'];
  if (crossed) lines.push('M4 4l16 16');
  for (const d of lines) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

/** The panel of one Voice (`voice`: its state is read here, its buttons call it). */
export class VoicePanel {
  constructor(voice) {
    this.voice = voice;
    this.open = true; // the list of players under the buttons is shown
    this.folding = null;
    this.pinned = false;
    this.panel = h('div', { class: 'voice-panel' });
    this.audioBox = h('div', { hidden: true }); // the players' audio, kept out of re-renders
    this.el = h('section', { class: 'voice', 'data-voice': 'off', 'aria-label': t('voice') },
      this.panel, this.audioBox);
  }

  /** Once every player is connected and nothing is wrong, the list folds away after a few
   * seconds, leaving the felt free (the n/m button opens it again). */
  foldLater(up) {
    const v = this.voice;
    const fine = v.on && v.others.length > 0 && up === v.others.length
      && !(v.note && v.note[0] === 'error');
    if (!fine) { clearTimeout(this.folding); this.folding = null; return; }
    if (this.folding || !this.open || this.pinned) return; // opened by hand: stays open
    this.folding = setTimeout(() => {
      this.folding = null;
      if (this.open && !v.tb.dead) { this.open = false; this.render(); }
    }, FOLD_MS);
  }

  render() {
    const v = this.voice;
    const el = this.el;
    el.dataset.voice = v.on ? (v.muted ? 'muted' : 'on') : 'off';
    const micLabel = v.on ? t('voice_stop') : t('voice_start');
    const mic = h('button', {
      class: `btn icon voice-mic${v.on ? ' on' : ''}`, type: 'button', 'data-voice-mic': '', 'data-action': 'voice-mic',
      'aria-pressed': v.on ? 'true' : 'false', disabled: v.busy, 'aria-label': micLabel, title: micLabel,
      onclick: () => (v.on ? v.stop() : v.start()),
    }, micIcon(false));
    const muteLabel = v.muted ? t('voice_unmute') : t('voice_mute');
    const mute = v.on ? h('button', {
      class: 'btn icon voice-mute', type: 'button', 'data-voice-mute': '', 'data-action': 'voice-mute',
      'aria-pressed': v.muted ? 'true' : 'false', 'aria-label': muteLabel, title: muteLabel,
      onclick: () => v.setMuted(!v.muted),
    }, micIcon(true)) : null;
    const rows = [];
    if (v.on) {
      for (const seat of v.others) {
        const p = v.peers.get(seat);
        const state = p ? p.state : 'connecting';
        const name = v.tb.name(seat);
        const off = v.silenced.has(seat);
        rows.push(h('li', { class: 'voice-peer', 'data-peer': String(seat), 'data-state': state },
          h('span', { class: 'voice-name' }, name),
          h('span', { class: 'voice-state' }, t(`voice_state_${state}`)),
          state === 'failed' ? h('button', {
            class: 'btn small', type: 'button', 'data-voice-retry': '', 'data-action': 'voice-retry', onclick: () => v.retry(seat),
          }, t('voice_retry')) : null,
          h('input', {
            type: 'range', min: '0', max: '1', step: '0.05', value: String(v.volumes.get(seat) ?? 1),
            'aria-label': t('voice_volume', { name }), 'data-voice-volume': '',
            oninput: (e) => v.setVolume(seat, Number(e.target.value)),
          }),
          h('button', {
            class: 'btn small', type: 'button', 'data-voice-silence': '', 'data-action': 'voice-silence', 'aria-pressed': off ? 'true' : 'false',
            onclick: () => v.silence(seat, !off),
          }, off ? t('voice_unsilence') : t('voice_silence'))));
      }
      if (!rows.length) rows.push(h('li', { class: 'voice-alone' }, t('voice_alone')));
    }
    const note = v.note ? h('p', { class: `voice-note ${v.note[0]}`, 'data-voice-note': v.note[0], role: 'status' }, v.note[1]) : null;
    const has = note || rows.length;
    const up = [...v.peers.values()].filter((p) => p.state === 'connected').length;
    const toggle = v.on && has ? h('button', {
      class: 'btn voice-toggle', type: 'button', 'data-voice-toggle': '', 'data-action': 'voice-toggle', 'aria-expanded': this.open ? 'true' : 'false',
      'aria-label': t('voice_players'), onclick: () => { this.open = !this.open; this.pinned = this.open; this.render(); },
    }, `${up}/${v.others.length}`) : null;
    const pop = has && (this.open || !v.on)
      ? h('div', { class: 'voice-pop' }, note, rows.length ? h('ul', { class: 'voice-peers' }, rows) : null) : null;
    fill(this.panel, h('div', { class: 'voice-buttons' }, mic, mute, toggle), pop);
    this.foldLater(up);
  }
}
