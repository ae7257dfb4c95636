// Voice at the table (docs/API.md, "voice"): audio between the humans of a table, peer to peer
// with WebRTC, one RTCPeerConnection per other seat that has voice on (a mesh: three peers at
// most).  The signalling travels on the table's WebSocket; the server relays it to the named
// seat only.  Nothing is captured until the player presses the microphone button.  Each pair
// negotiates with the "perfect negotiation" pattern: the higher seat is the polite peer, so
// two offers made at once (glare) resolve by themselves.  The table never waits on voice:
// every step here is asynchronous and its failure stays in the voice panel.
import { api, setting } from './api.js';
import { t } from './i18n.js';
import { h, fill } from './ui.js';

const SPEAKING = 0.02; // an audioLevel (0..1) above this lights the seat up
const LEVEL_MS = 250;
const FOLD_MS = 5000;
const CONNECT_MS = 15000; // not connected by then: start over once by itself, then say failed
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

class Peer {
  constructor(voice, seat) {
    this.voice = voice;
    this.seat = seat;
    this.polite = voice.me > seat;
    this.makingOffer = false;
    this.ignoreOffer = false;
    this.state = 'connecting';
    this.level = 0;
    this.chain = Promise.resolve(); // signals are handled one after another, in order
    this.watch = setTimeout(() => {
      if (this.state !== 'connected') voice.stalled(seat);
    }, CONNECT_MS);
    this.audio = h('audio', { autoplay: true });
    this.audio.volume = voice.volumes.get(seat) ?? 1;
    this.audio.muted = voice.silenced.has(seat);
    voice.audioBox.append(this.audio);
    const pc = new RTCPeerConnection({
      iceServers: voice.iceServers,
      iceTransportPolicy: setting('voice_relay', '') === '1' ? 'relay' : 'all',
    });
    this.pc = pc;
    // The lower seat offers first; the higher (polite) one adds its microphone to the
    // answer: two first offers crossing would be glare on every new pair.
    this.sending = false;
    if (!this.polite) this.addTracks();
    pc.onnegotiationneeded = async () => {
      try {
        this.makingOffer = true;
        await pc.setLocalDescription();
        this.send({ description: pc.localDescription });
      } catch (e) {
        this.fail(e);
      } finally {
        this.makingOffer = false;
      }
    };
    pc.onicecandidate = (e) => this.send({ candidate: e.candidate ? e.candidate.toJSON() : null });
    pc.ontrack = (e) => { this.audio.srcObject = e.streams[0] || new MediaStream([e.track]); };
    pc.onconnectionstatechange = () => {
      const s = pc.connectionState;
      if (s === 'connected') { voice.retries.delete(seat); this.setState('connected'); }
      else if (s === 'failed') this.setState('failed');
      else if (s === 'new' || s === 'connecting') this.setState('connecting');
      else if (s === 'disconnected') this.setState('connecting'); // it may come back by itself
    };
  }

  send(data) {
    this.voice.send({ type: 'voice', to: this.seat, data });
  }

  addTracks() {
    if (this.sending) return;
    this.sending = true;
    const stream = this.voice.stream;
    for (const track of stream.getTracks()) this.pc.addTrack(track, stream);
  }

  fail(e) {
    console.warn(`voice: seat ${this.seat}: ${e && e.message}`);
    if (this.pc.signalingState !== 'closed') this.setState('failed');
  }

  setState(s) {
    this.state = s;
    this.voice.render();
  }

  signal(data) {
    this.chain = this.chain.then(() => this.handle(data));
  }

  async handle(data) {
    const pc = this.pc;
    try {
      if (data.description) {
        const d = data.description;
        const collision = d.type === 'offer' && (this.makingOffer || pc.signalingState !== 'stable');
        this.ignoreOffer = !this.polite && collision;
        if (this.ignoreOffer) return;
        await pc.setRemoteDescription(d);
        if (d.type === 'offer') {
          this.addTracks(); // into the offered audio line: the answer sends as well
          await pc.setLocalDescription();
          this.send({ description: pc.localDescription });
        }
      } else if ('candidate' in data) {
        try {
          await pc.addIceCandidate(data.candidate || undefined);
        } catch (e) {
          if (!this.ignoreOffer) throw e;
        }
      }
    } catch (e) {
      this.fail(e);
    }
  }

  /** The audio level heard from this peer now (0..1), from the inbound RTP statistics. */
  async measure() {
    if (this.pc.connectionState !== 'connected') { this.level = 0; return; }
    try {
      const stats = await this.pc.getStats();
      let level = 0;
      stats.forEach((r) => {
        if (r.type === 'inbound-rtp' && r.kind === 'audio' && typeof r.audioLevel === 'number') level = r.audioLevel;
      });
      this.level = level;
    } catch { this.level = 0; }
  }

  close() {
    clearTimeout(this.watch);
    this.pc.onnegotiationneeded = this.pc.onicecandidate = this.pc.onconnectionstatechange = null;
    this.pc.close();
    this.audio.srcObject = null;
    this.audio.remove();
  }
}

/** The voice panel of one table view (`tb`: its TableView: live, token, id, name(), root). */
export class Voice {
  constructor(tb) {
    this.tb = tb;
    this.on = false; // the microphone is captured and this seat takes part
    this.busy = false;
    this.muted = false;
    this.stream = null;
    this.peers = new Map(); // seat -> Peer
    this.others = []; // other seats with voice on, as the server last said
    this.volumes = new Map();
    this.silenced = new Set(); // seats this player muted
    this.retries = new Map(); // seat -> times started over by itself since last connected
    this.iceServers = [];
    this.note = null; // [kind, text] under the buttons
    this.open = true; // the list of players under the buttons is shown
    this.folding = null;
    this.pinned = false;
    this.ws = null;
    this.meter = null;
    this.panel = h('div', { class: 'voice-panel' });
    this.audioBox = h('div', { hidden: true }); // the players' audio, kept out of re-renders
    this.el = h('section', { class: 'voice', 'data-voice': 'off', 'aria-label': t('voice') },
      this.panel, this.audioBox);
    this.el.hidden = !tb.token;
    this.onHide = () => this.destroy();
    window.addEventListener('pagehide', this.onHide);
    this.render();
  }

  get me() {
    return this.tb.me();
  }

  send(msg) {
    return this.tb.live ? this.tb.live.send(msg) : false;
  }

  // -- from the table ---------------------------------------------------------------------
  /** A voice message (or a refusal of one) from the table's socket. */
  message(m) {
    if (m.type === 'error') {
      this.open = true;
      this.note = ['error', (m.error && m.error.message) || t('voice_failed')];
      this.render();
      return;
    }
    if (Array.isArray(m.on)) {
      const others = m.on.filter((s) => s !== this.me);
      if (others.join() !== this.others.join()) this.open = true; // who joined or left shows
      this.others = others;
      this.sync();
      return;
    }
    if (typeof m.from !== 'number' || !m.data || !this.on) return;
    if (m.data.bye) { // the other side started over (a retry): so do we
      this.drop(m.from);
      this.sync();
      return;
    }
    let peer = this.peers.get(m.from);
    if (!peer) { // its offer came before the news that it turned voice on
      peer = new Peer(this, m.from);
      this.peers.set(m.from, peer);
      this.render();
    }
    peer.signal(m.data);
  }

  /** The table's connection state: a new socket is a new voice session on the server, so
   * every peer connection starts over once the server knows this seat's voice is on. */
  conn(state) {
    const ws = this.tb.live && this.tb.live.ws;
    if (state !== 'live' || !ws || ws === this.ws) return;
    this.ws = ws;
    if (!this.on) return;
    for (const seat of [...this.peers.keys()]) this.drop(seat);
    this.send({ type: 'voice', on: true });
    this.render();
  }

  // -- the player's buttons ---------------------------------------------------------------
  async start() {
    if (this.on || this.busy) return;
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || !window.RTCPeerConnection) {
      this.note = ['error', t('voice_unsupported')];
      this.render();
      return;
    }
    this.busy = true;
    this.note = null;
    this.render();
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
        video: false,
      });
    } catch (e) {
      this.busy = false;
      const key = e && e.name === 'NotAllowedError' ? 'voice_denied'
        : e && (e.name === 'NotFoundError' || e.name === 'OverconstrainedError') ? 'voice_no_mic' : 'voice_failed';
      this.note = ['error', t(key)];
      this.render();
      return;
    }
    if (this.tb.dead) { this.stopTracks(); return; }
    try {
      const ice = await api('GET', `/api/tables/${this.tb.id}/ice`, { token: this.tb.token });
      this.iceServers = Array.isArray(ice.ice_servers) ? ice.ice_servers : [];
      if (ice.same_network_only) this.note = ['info', t('voice_same_network')];
    } catch {
      this.iceServers = [];
      this.note = ['info', t('voice_same_network')];
    }
    this.busy = false;
    this.on = true;
    this.open = true;
    this.muted = false;
    // Told on the table's socket if it is open; one still connecting (or reconnecting)
    // tells it from conn() once it is live: taking its socket as told here would lose it.
    const told = this.send({ type: 'voice', on: true });
    this.ws = told ? this.tb.live.ws : null;
    this.meter = setInterval(() => this.measure(), LEVEL_MS);
    this.sync();
  }

  stop() {
    if (!this.on) return;
    this.on = false;
    this.send({ type: 'voice', on: false });
    for (const seat of [...this.peers.keys()]) this.drop(seat);
    this.stopTracks();
    clearInterval(this.meter);
    this.meter = null;
    this.note = null;
    this.render();
  }

  stopTracks() {
    if (this.stream) for (const tr of this.stream.getTracks()) tr.stop();
    this.stream = null;
  }

  setMuted(muted) {
    this.muted = muted;
    if (this.stream) for (const tr of this.stream.getAudioTracks()) tr.enabled = !muted;
    this.render();
  }

  setVolume(seat, value) {
    this.volumes.set(seat, value);
    const p = this.peers.get(seat);
    if (p) p.audio.volume = value;
  }

  silence(seat, yes) {
    if (yes) this.silenced.add(seat); else this.silenced.delete(seat);
    const p = this.peers.get(seat);
    if (p) p.audio.muted = yes;
    this.render();
  }

  /** A peer that did not connect in time: started over once by itself, then failed (the
   * player has a retry button). */
  stalled(seat) {
    const n = this.retries.get(seat) || 0;
    const p = this.peers.get(seat);
    if (!p) return;
    if (n >= 1) { this.open = true; p.setState('failed'); return; }
    this.retries.set(seat, n + 1);
    this.retry(seat);
  }

  retry(seat) {
    const p = this.peers.get(seat);
    if (p) p.send({ bye: true });
    this.drop(seat);
    this.sync();
  }

  destroy() {
    window.removeEventListener('pagehide', this.onHide);
    this.stop();
  }

  // -- peers ------------------------------------------------------------------------------
  /** One peer connection per other seat with voice on, while this seat's voice is on. */
  sync() {
    if (this.on) {
      for (const seat of this.others) {
        if (!this.peers.has(seat)) this.peers.set(seat, new Peer(this, seat));
      }
    }
    for (const seat of [...this.peers.keys()]) {
      if (!this.on || !this.others.includes(seat)) this.drop(seat);
    }
    this.render();
  }

  drop(seat) {
    const p = this.peers.get(seat);
    if (!p) return;
    p.close();
    this.peers.delete(seat);
    this.speaking(seat, false);
  }

  async measure() {
    await Promise.all([...this.peers.values()].map((p) => p.measure()));
    for (const p of this.peers.values()) this.speaking(p.seat, p.level > SPEAKING && !p.audio.muted);
    const mine = this.stream && !this.muted && [...this.peers.values()].some((p) => p.state === 'connected');
    this.speaking(this.me, !!mine && this.localLevel > SPEAKING);
    this.localLevel = await this.ownLevel();
  }

  /** This seat's own microphone level, from a sender's media-source statistics. */
  async ownLevel() {
    const p = [...this.peers.values()].find((x) => x.state === 'connected');
    if (!p) return 0;
    try {
      let level = 0;
      (await p.pc.getStats()).forEach((r) => {
        if (r.type === 'media-source' && r.kind === 'audio' && typeof r.audioLevel === 'number') level = r.audioLevel;
      });
      return level;
    } catch { return 0; }
  }

  /** Light a seat on the felt while its player is heard. */
  speaking(seat, yes) {
    if (seat === null || seat === undefined) return;
    const el = this.tb.root.querySelector(`.seat[data-seat="${seat}"]`);
    if (!el) return;
    if (yes) el.dataset.speaking = 'true'; else delete el.dataset.speaking;
  }

  // -- the panel --------------------------------------------------------------------------
  /** Once every player is connected and nothing is wrong, the list folds away after a few
   * seconds, leaving the felt free (the n/m button opens it again). */
  foldLater(up) {
    const fine = this.on && this.others.length > 0 && up === this.others.length
      && !(this.note && this.note[0] === 'error');
    if (!fine) { clearTimeout(this.folding); this.folding = null; return; }
    if (this.folding || !this.open || this.pinned) return; // opened by hand: stays open
    this.folding = setTimeout(() => {
      this.folding = null;
      if (this.open && !this.tb.dead) { this.open = false; this.render(); }
    }, FOLD_MS);
  }

  render() {
    const el = this.el;
    el.dataset.voice = this.on ? (this.muted ? 'muted' : 'on') : 'off';
    const micLabel = this.on ? t('voice_stop') : t('voice_start');
    const mic = h('button', {
      class: `btn icon voice-mic${this.on ? ' on' : ''}`, type: 'button', 'data-voice-mic': '', 'data-action': 'voice-mic',
      'aria-pressed': this.on ? 'true' : 'false', disabled: this.busy, 'aria-label': micLabel, title: micLabel,
      onclick: () => (this.on ? this.stop() : this.start()),
    }, micIcon(false));
    const muteLabel = this.muted ? t('voice_unmute') : t('voice_mute');
    const mute = this.on ? h('button', {
      class: 'btn icon voice-mute', type: 'button', 'data-voice-mute': '', 'data-action': 'voice-mute',
      'aria-pressed': this.muted ? 'true' : 'false', 'aria-label': muteLabel, title: muteLabel,
      onclick: () => this.setMuted(!this.muted),
    }, micIcon(true)) : null;
    const rows = [];
    if (this.on) {
      for (const seat of this.others) {
        const p = this.peers.get(seat);
        const state = p ? p.state : 'connecting';
        const name = this.tb.name(seat);
        const off = this.silenced.has(seat);
        rows.push(h('li', { class: 'voice-peer', 'data-peer': String(seat), 'data-state': state },
          h('span', { class: 'voice-name' }, name),
          h('span', { class: 'voice-state' }, t(`voice_state_${state}`)),
          state === 'failed' ? h('button', {
            class: 'btn small', type: 'button', 'data-voice-retry': '', 'data-action': 'voice-retry', onclick: () => this.retry(seat),
          }, t('voice_retry')) : null,
          h('input', {
            type: 'range', min: '0', max: '1', step: '0.05', value: String(this.volumes.get(seat) ?? 1),
            'aria-label': t('voice_volume', { name }), 'data-voice-volume': '',
            oninput: (e) => this.setVolume(seat, Number(e.target.value)),
          }),
          h('button', {
            class: 'btn small', type: 'button', 'data-voice-silence': '', 'data-action': 'voice-silence', 'aria-pressed': off ? 'true' : 'false',
            onclick: () => this.silence(seat, !off),
          }, off ? t('voice_unsilence') : t('voice_silence'))));
      }
      if (!rows.length) rows.push(h('li', { class: 'voice-alone' }, t('voice_alone')));
    }
    const note = this.note ? h('p', { class: `voice-note ${this.note[0]}`, 'data-voice-note': this.note[0], role: 'status' }, this.note[1]) : null;
    const has = note || rows.length;
    const up = [...this.peers.values()].filter((p) => p.state === 'connected').length;
    const toggle = this.on && has ? h('button', {
      class: 'btn voice-toggle', type: 'button', 'data-voice-toggle': '', 'data-action': 'voice-toggle', 'aria-expanded': this.open ? 'true' : 'false',
      'aria-label': t('voice_players'), onclick: () => { this.open = !this.open; this.pinned = this.open; this.render(); },
    }, `${up}/${this.others.length}`) : null;
    const pop = has && (this.open || !this.on)
      ? h('div', { class: 'voice-pop' }, note, rows.length ? h('ul', { class: 'voice-peers' }, rows) : null) : null;
    fill(this.panel, h('div', { class: 'voice-buttons' }, mic, mute, toggle), pop);
    this.foldLater(up);
  }
}
