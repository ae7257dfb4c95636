// The table: one seat's view of a match, kept live over the WebSocket.  Everything shown is
// rendered from the latest view the server sent; the only local state is the Goat selection,
// the action in flight, a hint, and a completed trick held on screen for a moment.  What is
// particular to a game is its renderer's (games/), chosen by the game id of the first view.
import { act as sendAction } from './acting.js';
import { api, knownMe, Live, seatAt, saveSeat, forgetSeat, setting } from './api.js';
import { watchChallenges } from './challenge_notice.js';
import { sortHand, cardName } from './cards.js';
import { loadGames } from './catalogue.js';
import { FairWatch } from './fair.js';
import { rendererFor } from './games/index.js';
import { cardsOf, verbOf } from './games/base.js';
import { Hand } from './hand.js';
import { dealIn } from './motion.js';
import { t } from './i18n.js';
import { Chat } from './chat.js';
import { openMenu } from './menu.js';
import { ForcedPlay } from './play_options.js';
import { showRefusal } from './refusal.js';
import { setSound, sound, soundOn } from './sound.js';
import { fitTrick, flightOrigins, renderBar, renderStatus, renderTrick } from './render.js';
import { noteSeen, recapAway, seenAt } from './recap.js';
import { PLACES, place, renderSeats, tickTimers } from './seats.js';
import { Summaries } from './summaries.js';
import { Voice } from './voice.js';
import { h, fill, toast, closeDialogs } from './ui.js';

export function mountTable(root, { id, seat, token, navigate }) {
  const view = new TableView(root, { id, seat, token, navigate });
  view.start();
  return () => view.destroy();
}

class TableView {
  constructor(root, { id, seat, token, navigate }) {
    Object.assign(this, { root, id, token, navigate });
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
    this.build();
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
    try {
      const [v] = await Promise.all([this.fetchView(), games]);
      const seen = typeof v.seat === 'number' ? seenAt(this.id, v.seat) : undefined;
      this.handle({ type: 'view', version: v.version, view: v });
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
    this.info = info;
    if (this.view) {
      renderSeats(this);
      renderStatus(this);
      this.noticeRematch();
    }
  }

  /** Once another seat has asked for the rematch, a notice says so, with a button to join it:
   * in the table's message row (over no control) and at the top of the match's summary when
   * that is open.  Dismissed, it stays away for that rematch. */
  noticeRematch() {
    const rid = this.info && this.info.rematch;
    const want = !!(rid && this.token && this.view && this.view.over && this.dismissedRematch !== rid);
    for (const old of document.querySelectorAll('[data-rematch-notice]')) {
      if (!want || old.dataset.rematchNotice !== rid) old.remove();
    }
    if (!want) return;
    const make = (inDialog) => h('div', { class: 'banner rematch-notice', 'data-rematch-notice': rid, role: 'status' },
      h('span', { class: 'banner-text' }, t('rematch_asked')),
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch-join', onclick: () => this.rematch() },
        t('rematch_join')),
      inDialog ? null : h('button', { class: 'btn icon', type: 'button', 'data-action': 'rematch-dismiss',
        'aria-label': t('close'), onclick: () => { this.dismissedRematch = rid; this.noticeRematch(); } }, '×'));
    if (!this.notices.querySelector('[data-rematch-notice]')) this.notices.append(make(false));
    const body = document.querySelector("dialog[data-dialog='match-summary'] .dialog-body");
    if (body && !body.querySelector('[data-rematch-notice]')) body.prepend(make(true));
  }

  destroy() {
    this.dead = true;
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

  /** Handle the messages that came, in order; while a trick is held on screen or a deal's
   * summary is open, the next ones wait (the next deal's trump call is not made behind the
   * summary, unseen).  A backlog (the bots' plays that came while a trick was held, the next
   * deal's behind a summary) is drawn one view a frame: each draw reads the table's layout
   * and writes it anew, so several in one task each forced a layout of their own and held the
   * page past its frame budget on a slow phone.  A hidden page draws them all at once.
   * `drawn`: the caller drew the table in this task already.  Returns whether the table was
   * drawn in this task. */
  pump(drawn = false) {
    if (this.frameWait) {
      if (document.visibilityState === 'visible') return drawn; // the next frame goes on
      cancelAnimationFrame(this.frameWait);
      this.frameWait = 0;
    }
    while (!this.holdTimer && !this.summaries.holding && this.queue.length && !this.dead) {
      if (drawn && document.visibilityState === 'visible') {
        this.frameWait = requestAnimationFrame(() => {
          this.frameWait = 0;
          this.pump();
        });
        return true;
      }
      drawn = this.handle(this.queue.shift()) || drawn;
    }
    return drawn;
  }

  /** One message from the server; true when it drew a view. */
  handle(msg) {
    if (msg.type === 'ping') {
      const now = typeof msg.now === 'string' ? Date.parse(msg.now) : NaN;
      if (!Number.isNaN(now)) this.clockOffset = now - Date.now();
      if (typeof msg.version === 'number' && msg.version > this.version) this.resync();
      return false;
    }
    if (msg.type === 'error') {
      this.showError(msg.error || msg);
      return false;
    }
    if (msg.type === 'table') {
      if (msg.table && typeof msg.version === 'number' && msg.version >= this.version) this.setInfo(msg.table);
      return false;
    }
    if (msg.type !== 'view' && msg.type !== 'event') return false;
    if (!msg.view || typeof msg.version !== 'number') return false;
    if (msg.version < this.version || (msg.version === this.version && this.view)) return false;
    this.setView({ ...msg.view, version: msg.version }, msg.type === 'event' ? msg.events : null);
    return true;
  }

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
      this.announce(events);
      this.hear(events);
    }
    this.summaries.seen(prev, v, done);
    this.summaries.refreshSheet();
    if (this.pending && v.version > this.pending.from) this.pending = null;
    if (prev && (prev.version !== v.version)) this.hint = null;
    this.game.update(v);
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

  /** Tell a screen reader what just happened (the live region under the table): each play
   * with its player and cards (a pass as its count, face down), the trump called, who won
   * the trick.  The seats' own lines are read as they come, in order. */
  announce(events) {
    const lines = [];
    for (const e of events) {
      if (e.type === 'trick' && typeof e.winner === 'number') {
        lines.push(t('won_by', { name: this.name(e.winner) }));
      } else if (e.type === 'action' && typeof e.seat === 'number') {
        const verb = e.verb || verbOf(e.action || '');
        const cards = e.action ? cardsOf(e.action) : [];
        let what;
        if (verb === 'trump') what = `${t('trump')}: ${t(`suit_${(e.action || '').slice(6)}`)}`;
        else if (!cards.length || verb === 'pass') what = `${t(`verb_${verb}`)}: ${t('n_cards', { n: e.count ?? cards.length })}`;
        else what = `${t(`verb_${verb}`)}: ${cards.map(cardName).join(', ')}`;
        lines.push(`${this.name(e.seat)}: ${what}`);
      }
    }
    if (!lines.length) return;
    for (const line of lines) this.announcer.append(h('p', null, line));
    // the last few lines stay (a screen reader reads what is added; a reader's review finds
    // the latest moves)
    while (this.announcer.childElementCount > 6) this.announcer.firstElementChild.remove();
  }

  /** One sound for what a message brought: a deal won or lost (for this seat's side), else a
   * trick won, else a card played. */
  hear(events) {
    const over = events.find((e) => e.type === 'deal_over');
    if (over) {
      const side = this.game.dealWinner(over);
      if (this.me() !== null && side !== null) sound(side === this.game.mySide() ? 'won' : 'lost');
    } else if (events.some((e) => e.type === 'trick')) {
      sound('trick');
    } else if (events.some((e) => e.type === 'action')) {
      sound('play');
    }
  }

  toggleSound() {
    setSound(!soundOn());
    this.showSound();
  }

  showSound() {
    const on = soundOn();
    this.soundBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
    this.soundBtn.textContent = on ? '\u{1F50A}' : '\u{1F507}';
  }

  // -- skeleton -------------------------------------------------------------------------------
  build() {
    const act = (name, label) => h('button', {
      class: 'btn tool', type: 'button', 'data-action': name, onclick: () => this.tool(name),
    }, label);
    this.titleEl = h('div', { class: 'title' });
    this.connEl = h('div', { class: 'conn', 'data-conn': 'connecting', role: 'status', hidden: true });
    this.bar = h('header', { class: 'bar' },
      h('button', { class: 'btn icon back', type: 'button', 'data-action': 'home',
        'aria-label': t('home'), onclick: () => this.navigate('/') }, h('span', { class: 'chev' })),
      this.titleEl,
      this.chat.btn,
      this.soundBtn = h('button', { class: 'btn icon sound', type: 'button', 'data-action': 'sound',
        'aria-label': t('sound'), onclick: () => this.toggleSound() }),
      h('button', { class: 'btn icon', type: 'button', 'data-action': 'menu',
        'aria-label': t('menu'), onclick: () => openMenu(this) }, '⋯'));
    this.lastTrickBtn = act('last-trick', t('last_trick'));
    this.hintBtn = act('hint', t('hint'));
    this.scores = h('div', { class: 'scores' });
    // the score sheet of every deal so far: a tap on the scores' own button
    this.sheetBtn = h('button', { class: 'btn icon sheet', type: 'button', 'data-action': 'scores',
      'aria-label': t('score_sheet'), title: t('score_sheet'), onclick: () => this.summaries.showSheet() }, '☰');
    this.seatEls = {};
    for (const pos of PLACES) this.seatEls[pos] = h('div', { class: `seat pos-${pos}` });
    this.trick = h('div', { class: 'trick', role: 'group', 'aria-label': t('trick') });
    this.info2 = h('div', { class: 'table-info' });
    this.felt = h('section', { class: 'felt', dir: 'ltr' },
      this.seatEls.top, this.seatEls.left, this.seatEls.right,
      h('div', { class: 'center' }, this.trick), this.info2, this.seatEls.bottom,
      // The tools sit in the felt's free corners: the status line keeps the whole row, so
      // long words (Russian) never squeeze it into many lines.
      h('div', { class: 'tools', dir: document.documentElement.dir || 'ltr' }, this.lastTrickBtn, this.hintBtn));
    this.status = h('div', { class: 'status', 'aria-live': 'polite' });
    this.statusRow = h('div', { class: 'status-row' }, this.status);
    // Messages (a refusal, a hint) have a row of their own: they never cover a control.
    this.notices = h('div', { class: 'notices', 'data-notices': '', role: 'status', 'aria-live': 'polite' },
      this.connEl);
    this.actions = h('div', { class: 'actions' });
    this.handBox = h('div', { class: 'hand', 'data-hand': '', dir: 'ltr', role: 'group',
      'aria-label': t('your_hand') });
    // what happens at the table, said to a screen reader (plays, tricks): hidden from sight
    this.announcer = h('div', { class: 'sr-only', 'data-announce': '', role: 'log',
      'aria-live': 'polite', 'aria-label': t('moves') });
    this.main = h('main', { class: 'table', 'data-table': this.id,
      'data-your-turn': 'false' },
    this.bar, this.scores, this.felt, this.notices, this.statusRow, this.actions, this.handBox,
    this.announcer);
    fill(this.root, this.main);
    this.showSound();
    this.hand = new Hand(this.handBox, (code) => this.cardActivated(code));
    this.trickFit = new ResizeObserver(() => fitTrick(this));
    this.trickFit.observe(this.trick.parentElement);
    this.status.textContent = t('loading');
  }

  // -- helpers --------------------------------------------------------------------------------
  numSeats() {
    const v = this.view;
    if (v && Array.isArray(v.hand_counts)) return v.hand_counts.length;
    return this.game ? this.game.seats : 4;
  }

  me() {
    const s = this.view && this.view.seat;
    return typeof s === 'number' ? s : null;
  }

  pos(seat) {
    return place(seat, this.me(), this.numSeats());
  }

  seatInfo(seat) {
    const seats = this.info && Array.isArray(this.info.seats) ? this.info.seats : [];
    return seats[seat] || {};
  }

  name(seat) {
    if (seat === this.me()) return t('you');
    const s = this.seatInfo(seat);
    if (s.name) return s.name;
    if (s.type === 'bot') return t(`bot_name_${seat % 4}`);
    return t('player_n', { n: seat + 1 });
  }

  /** Team labels from this seat's side: "Us"/"Them", or "Team 1"/"Team 2" when watching. */
  teamName(team) {
    const me = this.me();
    if (me === null) return t('team_n', { n: team + 1 });
    return team === me % 2 ? t('us') : t('them');
  }

  sideName(side) {
    return this.numSeats() === 2 ? this.name(side) : this.teamName(side);
  }

  /** A sentence about a side: "You won…", "They won…" or "{name} won…". */
  said(side, base, params = {}) {
    const me = this.me();
    const two = this.numSeats() === 2;
    if (me !== null && side === (two ? me : me % 2)) return t(`${base}_we`, params);
    if (me !== null && !two) return t(`${base}_they`, params);
    return t(`${base}_name`, { ...params, name: this.sideName(side) });
  }

  yourTurn() {
    const v = this.view;
    return !!v && !v.over && this.me() !== null && v.to_move === this.me() && !this.summaries.showing();
  }

  // -- render ---------------------------------------------------------------------------------
  render() {
    const v = this.view;
    if (!v || this.dead) return;
    const m = this.main;
    this.flyFrom = flightOrigins(this); // read before anything is written: no extra layout
    const turn = this.yourTurn();
    if (turn && m.dataset.yourTurn === 'false' && document.visibilityState === 'visible' && navigator.vibrate) {
      try { navigator.vibrate(25); } catch { /* not allowed yet */ }
    }
    // your turn, with a chime where another player made you wait (against bots it is always
    // soon: no chime)
    const others = ((this.info && this.info.seats) || []).some((s) => s.seat !== this.me() && s.type === 'human');
    if (turn && m.dataset.yourTurn === 'false' && m.dataset.version && others) sound('turn');
    m.dataset.game = v.game;
    m.dataset.version = String(v.version);
    m.dataset.yourTurn = turn ? 'true' : 'false';
    m.dataset.phase = v.phase || '';
    m.dataset.over = v.over ? 'true' : 'false';
    m.dataset.seats = String(this.numSeats());
    if (this.me() !== null) m.dataset.seat = String(this.me());
    this.game.mark(m, v);
    document.title = `${turn ? `(${t('your_turn_short')}) ` : ''}${t(`game_${v.game}`)} · taash`;
    renderBar(this);
    fill(this.scores, ...this.game.scoreChips(v), this.sheetBtn);
    renderSeats(this);
    renderTrick(this);
    renderStatus(this);
    this.renderActions();
    this.renderHand();
    if (this.guide) this.guide.render();
    this.noticeRematch();
    this.forced.check();
  }

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

  renderActions() {
    // while a deal's end is shown, the next deal's buttons wait for the player to go on
    const { className, buttons } = this.summaries.showing()
      ? { className: 'actions', buttons: [] } : this.game.actions(this.view);
    // The buttons are made anew: one that had the focus gives it to its successor.
    const had = this.actions.contains(document.activeElement) ? document.activeElement.dataset.action : null;
    this.actions.className = className;
    fill(this.actions, ...buttons);
    const again = had && [...this.actions.querySelectorAll('button')].find((b) => b.dataset.action === had);
    if (again) again.focus({ preventScroll: true });
  }

  renderHand() {
    const v = this.view;
    const trumpSuit = v.trump || null;
    const cards = sortHand(v.hand || [], v.game, trumpSuit);
    const marks = {
      pending: new Set(this.pending ? this.pending.cards : []),
      hinted: new Set(this.hint && this.hint.action ? cardsOf(this.hint.action) : []),
    };
    // a deal being played that is not the one the hand was dealt for: every card is dealt
    // anew (between deals a hand keeps its last cards, still)
    if (v.phase === 'trump' || v.phase === 'play') {
      if (this.handDeal !== undefined && this.handDeal !== v.deal_number) this.hand.newDeal();
      this.handDeal = v.deal_number;
    }
    const arrived = this.hand.update(this.game.handItems(v, cards, marks), trumpSuit);
    this.handBox.classList.toggle('my-turn', this.yourTurn());
    // dealt cards come from the middle of the felt, Goat's drawn ones from its stock
    if (arrived.length) dealIn(arrived, this.info2.querySelector('.stock:not(.out)') || this.trick.parentElement);
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
    showRefusal(e, (seat) => this.name(seat));
  }

  tool(name) {
    if (name === 'last-trick') this.summaries.showLastTrick();
    else if (name === 'hint') this.getHint();
  }

  async getHint() {
    if (!this.token) return;
    try {
      const res = await api('GET', `/api/tables/${this.id}/hint`, { token: this.token });
      if (!res || !res.action) { toast(t('no_hint')); return; }
      this.hint = { action: res.action };
      this.game.hinted(res.action);
      toast(hintText(res.action), 'hint');
      this.renderActions();
      this.renderHand();
    } catch (e) {
      this.showError(e);
    }
  }

  async rematch() {
    try {
      const r = await api('POST', `/api/tables/${this.id}/rematch`, { token: this.token });
      // asked through the session cookie, the answer has no token: the seat is the player's
      if (r.token) saveSeat(r.id, r.seat, r.token, this.view.game);
      closeDialogs();
      this.navigate(`/t/${r.id}?seat=${r.seat}`);
    } catch (e) {
      this.showError(e);
    }
    return false;
  }
}

/** A hint's action in words: "Hint: call hearts", "Hint: Play 10 of spades". */
export function hintText(action) {
  const verb = verbOf(action);
  if (verb === 'trump') return t('hint_trump', { suit: t(`suit_${action.slice(6)}`) });
  return t('hint_play', { verb: t(`verb_${verb}`), cards: cardsOf(action).map(cardName).join(', ') });
}
