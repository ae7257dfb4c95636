// The table: one seat's view of a match, kept live over the WebSocket.  Everything shown is
// rendered from the latest view the server sent; the only local state is the Goat selection,
// the action in flight, a hint, and a completed trick held on screen for a moment.  What is
// particular to a game is its renderer's (games/), chosen by the game id of the first view.
// TableView keeps the table's life (the connection, the view, the timers) and composes its
// parts: who sits where (table_seating.js, which it extends), the messages in order
// (table_feed.js), the board and the hand drawn (table_board.js), what it says beside them
// (table_news.js: the rematch notice, the screen reader's log, the sounds), the player's
// acts (acting.js) and the keys of the table (keys.js).
import { act as sendAction, askHint, askRematch } from './acting.js';
import { api, knownMe, Live, seatAt, forgetSeat, setting } from './api.js';
import { watchChallenges } from './challenge_notice.js';
import { loadGames } from './catalogue.js';
import { FairWatch } from './fair.js';
import { rendererFor } from './games/index.js';
import { t } from './i18n.js';
import { Chat } from './chat.js';
import { TableKeys } from './keys.js';
import { ForcedPlay } from './play_options.js';
import { showRefusal } from './refusal.js';
import { renderStatus } from './render.js';
import { noteSeen, recapAway, seenAt } from './recap.js';
import { renderSeats, tickTimers } from './seats.js';
import { Summaries } from './summaries.js';
import { buildBoard, drawActions, drawHand, drawTable } from './table_board.js';
import { handleMessage, pumpFeed } from './table_feed.js';
import { announce, hear, noticeRematch, sayTurn } from './table_news.js';
import { TableSeating } from './table_seating.js';
import { Voice } from './voice.js';
import { h, fill, closeDialogs } from './ui.js';

export { hintText } from './acting.js';

/** A table: the server's, or (`source`) one played in this page (offline_table.js). */
export function mountTable(root, { id, seat, token, navigate, source = null }) {
  const view = new TableView(root, { id, seat, token, navigate, source });
  view.start();
  return () => view.destroy();
}

class TableView extends TableSeating {
  constructor(root, { id, seat, token, navigate, source }) {
    super();
    Object.assign(this, { root, id, token, navigate, source });
    this.seatWanted = seat;
    this.view = null;
    this.game = null; // the game's renderer, from the first view
    this.info = null;
    this.version = -1;
    this.queue = [];
    this.holdTimer = null;
    this.shownTrick = null;
    this.pending = null;
    this.waiters = []; // moves waiting for the connection to come back
    this.hint = null;
    this.summaries = new Summaries(this);
    this.forced = new ForcedPlay(this); // "play a forced card for me" (play_options.js)
    this.chat = new Chat(this); // quick chat (chat.js)
    this.fair = new FairWatch(this);
    this.conn = 'connecting';
    this.live = null;
    this.poll = null;
    this.clockOffset = 0; // the server's clock minus this one (pings bring the server's time)
    this.pace = Number(setting('pace', '1500')); // a finished trick's stay (issue 43: 0.9 s was too short to see)
    buildBoard(this);
    this.keys = new TableKeys(this); // the table from the keyboard (keys.js)
  }

  // -- life -----------------------------------------------------------------------------------
  /** The seat's view (the public view when watching without a token). */
  fetchView() {
    return this.token
      ? api('GET', `/api/tables/${this.id}/view`, { token: this.token })
      : api('GET', `/api/tables/${this.id}`);
  }

  async start() {
    // the games as the core describes them (a hand sorts in its game's rank order): loaded
    // before the first view is drawn, a table opened by its link included
    const games = loadGames().catch(() => null);
    if (this.source) return this.source.start(this, await games);
    try {
      const [v] = await Promise.all([this.fetchView(), games]);
      const seen = typeof v.seat === 'number' ? seenAt(this.id, v.seat) : undefined;
      handleMessage(this, { type: 'view', version: v.version, view: v });
      recapAway(this, seen); // a play-anytime table: what happened since this seat's last move
    } catch (e) {
      if (e.status === 401 || e.status === 403 || e.status === 404) return this.fatal(e);
      this.setConn('offline');
      await games;
    }
    this.live = new Live({
      id: this.id,
      token: this.token,
      getSince: () => this.version,
      onMessage: (m) => {
        if (m.type === 'chat') this.chat.message(m); // at once: not held behind a trick
        else if (m.type === 'voice' || m.voice) this.voice.message(m);
        else this.enqueue(m);
      },
      onState: (s) => { this.setConn(s); this.voice.conn(s); },
      onFatal: (e) => this.fatal(e),
    });
    this.voice = new Voice(this); // voice at the table (voice.js): off until the player turns it on
    this.titleEl.after(this.voice.el);
    this.live.start();
    // Seat changes (a friend connects, a seat is taken or left, a rematch) come at once as
    // table messages; a slow look now and then is only a fallback.
    this.poll = setInterval(() => this.refreshInfo(), 60000);
    // a friend's challenge while at the table: a notice in the message row (Accept, Decline)
    this.stopChallenges = watchChallenges(this.notices, this.navigate, () => (knownMe() ? knownMe().id : null));
    this.ticker = setInterval(() => tickTimers(this.root, this.info, this.clockOffset), 1000);
    // a page hidden with a backlog drawing a view a frame (no frames come): it draws the rest
    this.onVisibility = () => this.pump();
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  async refreshInfo() {
    if (document.visibilityState !== 'visible' || this.conn !== 'live') return;
    try {
      const pub = await api('GET', `/api/tables/${this.id}`);
      if (pub && pub.table && pub.version === this.version && !this.dead) this.setInfo(pub.table);
    } catch { /* the live channel reports trouble */ }
  }

  /** New table info (who sits where, who is connected, the rematch): shown at once. */
  setInfo(info) {
    const waited = this.waitingFor().length > 0;
    this.info = info;
    if (this.view && waited !== this.waitingFor().length > 0) {
      this.render(); // the friends came, or someone started it: the table plays now
    } else if (this.view) {
      renderSeats(this);
      renderStatus(this);
      this.noticeRematch();
    }
  }

  destroy() {
    this.dead = true;
    if (this.source) this.source.stop();
    if (this.voice) this.voice.destroy();
    if (this.live) this.live.stop();
    if (this.stopChallenges) this.stopChallenges();
    clearInterval(this.poll);
    clearInterval(this.ticker);
    clearTimeout(this.holdTimer);
    cancelAnimationFrame(this.frameWait);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.forced.stop();
    this.chat.destroy();
    this.keys.destroy();
    if (this.hand) this.hand.destroy();
    if (this.guide) this.guide.destroy();
    if (this.trickFit) this.trickFit.disconnect();
    closeDialogs();
    document.title = 'taash';
  }

  fatal(e) {
    if (this.dead) return;
    if (this.live) this.live.stop();
    const msg = e.status === 404 ? t('err_no_table') : t('err_bad_link');
    fill(this.status, h('span', { class: 'status-error' }, msg));
    this.setConn('offline');
    if (e.status === 401 || e.status === 403) {
      const mine = seatAt(this.id, this.seatWanted);
      if (mine && mine.token === this.token) forgetSeat(this.id, mine.seat);
    }
  }

  setConn(state) {
    this.conn = state;
    this.connEl.dataset.conn = state;
    this.connEl.title = t(`conn_${state}`);
    this.connEl.textContent = t(`conn_${state}`);
    this.connEl.hidden = state === 'live' || (state === 'connecting' && !!this.view);
    if (state === 'live') for (const w of [...this.waiters]) w();
  }

  // -- messages -------------------------------------------------------------------------------
  enqueue(msg) {
    this.queue.push(msg);
    this.pump();
  }

  /** The messages that came, in order (table_feed.js); whether the table was drawn. */
  pump(drawn = false) { return pumpFeed(this, drawn); }

  async resync() {
    if (this.resyncing) return;
    this.resyncing = true;
    try {
      const v = await this.fetchView();
      this.enqueue({ type: 'view', version: v.version, view: v });
    } catch { /* the live channel will catch up */ }
    this.resyncing = false;
  }

  setView(v, events) {
    const prev = this.view;
    if (v.table) this.info = v.table;
    else if (Array.isArray(v.seats)) this.info = v;
    if (!this.game) this.game = rendererFor(v.game, this);
    this.view = v;
    this.version = v.version;
    this.fair.seen(v);
    if (this.token && typeof v.seat === 'number' && this.info && this.info.live === false) noteSeen(this.id, v.seat, v.version);
    let done = null;
    if (prev && events) {
      const ev = events.find((e) => e.type === 'trick');
      if (ev) done = this.game.completedTrick(prev, v, events, ev);
    }
    if (prev && events) {
      announce(this, events, prev);
      hear(this, events);
    }
    this.summaries.seen(prev, v, done);
    this.summaries.refreshSheet();
    if (this.pending && v.version > this.pending.from) this.pending = null;
    if (prev && (prev.version !== v.version)) this.hint = null;
    this.game.update(v);
    sayTurn(this); // on this seat's turn, what the rules ask now (its selection updated): after the moves
    this.guideSaw(prev, v, events);
    if (done && this.pace > 0) {
      this.shownTrick = done;
      this.holdTimer = setTimeout(() => {
        this.holdTimer = null;
        this.shownTrick = null;
        if (this.dead) return;
        this.render();
        this.summaries.show();
        this.pump(true); // drawn just now: the next view waits for a frame
      }, this.pace);
      this.render();
    } else {
      this.render();
      this.summaries.show();
    }
  }

  // -- drawing (table_board.js) ---------------------------------------------------------------
  render() { drawTable(this); }

  renderActions() { drawActions(this); if (this.guide && this.guide.actionsDrawn) this.guide.actionsDrawn(); }

  renderHand() { drawHand(this); }

  noticeRematch() { noticeRematch(this); }

  /** A table made by "Learn to play" (home.js marks it in taash.guided): its tips
   * (guide.js, loaded only here) hear of each view. */
  guideSaw(prev, v, events) {
    if (this.guide) { this.guide.seen(prev, v, events); return; }
    if (this.guide === null) return; // loading
    let ids = [];
    try { ids = JSON.parse(setting('guided', '[]')); } catch { /* none */ }
    if (!Array.isArray(ids) || !ids.includes(this.id) || this.me() === null) return;
    this.guide = null;
    import('./guide.js').then(({ Guide }) => {
      if (this.dead) return;
      this.guide = new Guide(this);
      this.main.dataset.guide = 'on';
      this.guide.render();
    }).catch(() => { /* no tips: the table plays as any other */ });
  }

  // -- acting ---------------------------------------------------------------------------------
  cardActivated(code) {
    if (!this.view || !this.token || this.summaries.showing()) return;
    this.game.cardActivated(code);
  }

  /** Post an action (acting.js: one at a time, with the version tapped on, waiting for the
   * connection if it is down). */
  act(action, cards = []) { return sendAction(this, action, cards); }

  showError(e) {
    showRefusal(e, (seat) => this.name(seat), this.view ? this.view.game : null);
  }

  getHint() { return askHint(this); }

  rematch() { return askRematch(this); }

  tool(name) {
    if (name === 'last-trick') this.summaries.showLastTrick();
    else if (name === 'hint') this.getHint();
  }
}
