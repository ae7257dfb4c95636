// Voice at the table (docs/API.md, "voice"): audio between the humans of a table, peer to peer
// with WebRTC, one RTCPeerConnection per other seat that has voice on (a mesh: three peers at
// most).  The signalling travels on the table's WebSocket; the server relays it to the named
// seat only.  Nothing is captured until the player presses the microphone button.  Each pair
// negotiates with the "perfect negotiation" pattern (voice_peer.js): the higher seat is the
// polite peer, so two offers made at once (glare) resolve by themselves.  The table never
// waits on voice: every step here is asynchronous and its failure stays in the voice panel
// (voice_panel.js draws it from the state kept here).
import { api } from './api.js';
import { t } from './i18n.js';
import { Peer } from './voice_peer.js';
import { VoicePanel } from './voice_panel.js';

const SPEAKING = 0.02; // an audioLevel (0..1) above this lights the seat up
const LEVEL_MS = 250;

/** Voice at one table view (`tb`: its TableView: live, token, id, name(), root): the microphone,
 * a Peer per other seat with voice on, who is heard; its panel is a VoicePanel (`el`). */
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
    this.ws = null;
    this.meter = null;
    this.view = new VoicePanel(this); // the buttons, the players heard and their audio
    this.el = this.view.el;
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
      this.view.open = true;
      this.note = ['error', (m.error && m.error.message) || t('voice_failed')];
      this.render();
      return;
    }
    if (Array.isArray(m.on)) {
      const others = m.on.filter((s) => s !== this.me);
      if (others.join() !== this.others.join()) this.view.open = true; // who joined or left shows
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
    this.view.open = true;
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
    if (n >= 1) { this.view.open = true; p.setState('failed'); return; }
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
  render() {
    this.view.render();
  }
}
