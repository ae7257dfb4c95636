// One peer connection of voice at the table (voice.js): audio with one other seat over an
// RTCPeerConnection.  The pair negotiates with the "perfect negotiation" pattern: the higher
// seat is the polite peer, so two offers made at once (glare) resolve by themselves; signals
// are handled one after another, in order, and a failure stays with this peer.
import { setting } from './api.js';
import { h } from './ui.js';

const CONNECT_MS = 15000; // not connected by then: start over once by itself, then say failed

/** The connection with `seat`, owned by `voice` (its Voice: the stream, the ICE servers, the
 * players' volumes and the table's socket). */
export class Peer {
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
    voice.view.audioBox.append(this.audio); // kept out of the panel's re-renders
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
