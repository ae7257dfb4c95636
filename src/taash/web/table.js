// The table: one seat's view of a match, kept live over the WebSocket.  Everything shown is
// rendered from the latest view the server sent; the only local state is the Goat selection,
// the action in flight, a hint, and a completed trick held on screen for a moment.
import { api, Live, newId, seatAt, saveSeat, forgetSeat, setting, mySeats } from './api.js';
import { backEl, cardEl, sortHand, SUIT_SIGN, cardName, rankText } from './cards.js';
import { Hand } from './hand.js';
import { t } from './i18n.js';
import { h, fill, toast, showDialog, closeDialogs, copyText } from './ui.js';

const POSITIONS = { 2: ['bottom', 'top'], 4: ['bottom', 'left', 'top', 'right'] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const completeDeals = (v) => (v.deals || []).filter((d) => d.complete).length;
const cardsOf = (action) => {
  const i = action.indexOf(':');
  return i < 0 ? [] : action.slice(i + 1).split(',').filter(Boolean);
};
const verbOf = (action) => action.split(':')[0];
const setKey = (verb, cards) => `${verb}:${cards.slice().sort().join(',')}`;
/** An illegal action's reason in the page's language, from the key and parameters the server
 * gives (cards as codes, suits as letters); null where the page has no words for it (the
 * server's English sentence is shown then). */
const ruleText = (e, nameOf) => {
  if (!e || !e.key) return null;
  const key = `illegal_${e.key}`;
  const p = { ...(e.params || {}) };
  if (typeof p.suit === 'string') p.suit = t(`suit_${p.suit}`);
  if (typeof p.suits === 'string') p.suits = [...p.suits].map((x) => t(`suit_${x}`)).join(' / ');
  if (typeof p.seat === 'number') p.name = nameOf(p.seat);
  for (const k of ['cards', 'top']) {
    if (typeof p[k] === 'string') p[k] = p[k].split(',').map((c) => rankText(c[0]) + (SUIT_SIGN[c[1]] || c[1])).join(' ');
  }
  const text = t(key, p);
  return text === key ? null : text;
};
/** Seconds as a clock: 0:09, 4:05, 1:02:03 (a play-anytime turn may last hours). */
const clockText = (sec) => {
  const hh = Math.floor(sec / 3600), mm = Math.floor((sec % 3600) / 60), ss = sec % 60;
  const two = (x) => String(x).padStart(2, '0');
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
};

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
    this.info = null;
    this.version = -1;
    this.queue = [];
    this.holdTimer = null;
    this.shownTrick = null;
    this.selected = new Set();
    this.pending = null;
    this.hint = null;
    this.summaries = [];
    this.conn = 'connecting';
    this.live = null;
    this.poll = null;
    this.clockOffset = 0; // the server's clock minus this one (pings bring the server's time)
    this.pace = Number(setting('pace', '900'));
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
    try {
      const v = await this.fetchView();
      this.handle({ type: 'view', version: v.version, view: v });
    } catch (e) {
      if (e.status === 401 || e.status === 403 || e.status === 404) return this.fatal(e);
      this.setConn('offline');
    }
    this.live = new Live({
      id: this.id,
      token: this.token,
      getSince: () => this.version,
      onMessage: (m) => this.enqueue(m),
      onState: (s) => this.setConn(s),
      onFatal: (e) => this.fatal(e),
    });
    this.live.start();
    // Seat changes (a friend connects, a seat is taken or left, a rematch) come at once as
    // table messages; a slow look now and then is only a fallback.
    this.poll = setInterval(() => this.refreshInfo(), 60000);
    this.ticker = setInterval(() => this.tickTimers(), 1000);
  }

  /** The turn timer's countdown on the seat to move, by the server's clock (pings bring it). */
  tickTimers() {
    const ends = this.info && this.info.turn_ends ? Date.parse(this.info.turn_ends) : NaN;
    for (const el of this.root.querySelectorAll('.seat .timer')) {
      if (Number.isNaN(ends)) { el.remove(); continue; }
      const left = Math.max(0, Math.ceil((ends - (Date.now() + this.clockOffset)) / 1000));
      el.textContent = clockText(left);
      el.dataset.left = String(left);
      el.classList.toggle('low', left <= 10);
    }
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
      this.renderSeats();
      this.renderStatus();
    }
  }

  destroy() {
    this.dead = true;
    if (this.live) this.live.stop();
    clearInterval(this.poll);
    clearInterval(this.ticker);
    clearTimeout(this.holdTimer);
    if (this.hand) this.hand.destroy();
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
  }

  // -- messages -------------------------------------------------------------------------------
  enqueue(msg) {
    this.queue.push(msg);
    this.pump();
  }

  pump() {
    while (!this.holdTimer && this.queue.length && !this.dead) this.handle(this.queue.shift());
  }

  handle(msg) {
    if (msg.type === 'ping') {
      const now = typeof msg.now === 'string' ? Date.parse(msg.now) : NaN;
      if (!Number.isNaN(now)) this.clockOffset = now - Date.now();
      if (typeof msg.version === 'number' && msg.version > this.version) this.resync();
      return;
    }
    if (msg.type === 'error') {
      this.showError(msg.error || msg);
      return;
    }
    if (msg.type === 'table') {
      if (msg.table && typeof msg.version === 'number' && msg.version >= this.version) this.setInfo(msg.table);
      return;
    }
    if (msg.type !== 'view' && msg.type !== 'event') return;
    if (!msg.view || typeof msg.version !== 'number') return;
    if (msg.version < this.version || (msg.version === this.version && this.view)) return;
    this.setView({ ...msg.view, version: msg.version }, msg.type === 'event' ? msg.events : null);
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
    this.view = v;
    this.version = v.version;
    const n = this.numSeats();
    let done = null;
    if (prev && events) {
      const ev = events.find((e) => e.type === 'trick');
      if (ev) done = this.completedTrick(prev, v, events, ev, n);
    }
    if (prev && completeDeals(v) > completeDeals(prev)) {
      const i = completeDeals(v) - 1;
      this.summaries.push({ index: i, deal: v.deals[i], trick: done, match: v.match });
    } else if (!prev && v.over) {
      this.summaries.push({ index: completeDeals(v) - 1, deal: v.deals[completeDeals(v) - 1],
        trick: null, match: v.match, quiet: true });
    }
    if (this.pending && v.version > this.pending.from) this.pending = null;
    if (prev && (prev.version !== v.version)) this.hint = null;
    const hand = new Set(v.hand || []);
    for (const c of [...this.selected]) if (!hand.has(c)) this.selected.delete(c);
    if (done && this.pace > 0) {
      this.shownTrick = done;
      this.holdTimer = setTimeout(() => {
        this.holdTimer = null;
        this.shownTrick = null;
        if (this.dead) return;
        this.render();
        this.showSummaries();
        this.pump();
      }, this.pace);
      this.render();
    } else {
      this.render();
      this.showSummaries();
    }
  }

  /** The trick just completed, as plays [{seat, verb, cards|null, count}] and its winner. */
  completedTrick(prev, v, events, ev, n) {
    if (ev.cards && typeof ev.leader === 'number') {
      return {
        winner: ev.winner,
        plays: ev.cards.map((c, i) => ({ seat: (ev.leader + i) % n, verb: 'play', cards: [c], count: 1 })),
      };
    }
    if (v.last_trick && v.last_trick.plays && v.deal_number === prev.deal_number) {
      return { winner: v.last_trick.winner, plays: v.last_trick.plays, top: v.last_trick.winner };
    }
    const plays = this.plays(prev);
    for (const e of events) {
      if (e.type !== 'action') continue;
      const cards = e.action ? cardsOf(e.action) : null;
      plays.push({ seat: e.seat, verb: e.verb || verbOf(e.action || ''), cards,
        count: e.count || (cards ? cards.length : 1) });
    }
    return { winner: ev.winner, plays, top: ev.winner };
  }

  // -- skeleton -------------------------------------------------------------------------------
  build() {
    const act = (name, label, extra = {}) => h('button', {
      class: 'btn tool', type: 'button', 'data-action': name,
      onclick: () => this.tool(name), ...extra,
    }, label);
    this.titleEl = h('div', { class: 'title' });
    this.connEl = h('div', { class: 'conn', 'data-conn': 'connecting', role: 'status', hidden: true });
    this.bar = h('header', { class: 'bar' },
      h('button', { class: 'btn icon back', type: 'button', 'data-action': 'home',
        'aria-label': t('home'), onclick: () => this.navigate('/') }, h('span', { class: 'chev' })),
      this.titleEl,
      h('button', { class: 'btn icon', type: 'button', 'data-action': 'menu',
        'aria-label': t('menu'), onclick: () => this.menu() }, '⋯'));
    this.lastTrickBtn = act('last-trick', t('last_trick'));
    this.hintBtn = act('hint', t('hint'));
    this.scores = h('div', { class: 'scores' });
    this.seatEls = {};
    for (const pos of ['top', 'left', 'right', 'bottom']) {
      this.seatEls[pos] = h('div', { class: `seat pos-${pos}` });
    }
    this.trick = h('div', { class: 'trick', 'aria-label': t('trick') });
    this.info2 = h('div', { class: 'table-info' });
    this.felt = h('section', { class: 'felt', dir: 'ltr' },
      this.seatEls.top, this.seatEls.left, this.seatEls.right,
      h('div', { class: 'center' }, this.trick), this.info2, this.seatEls.bottom, this.connEl);
    this.status = h('div', { class: 'status', 'aria-live': 'polite' });
    this.statusRow = h('div', { class: 'status-row' }, this.lastTrickBtn, this.status, this.hintBtn);
    this.actions = h('div', { class: 'actions' });
    this.handBox = h('div', { class: 'hand', 'data-hand': '', dir: 'ltr', role: 'group',
      'aria-label': t('your_hand') });
    this.main = h('main', { class: 'table', 'data-table': this.id,
      'data-your-turn': 'false' },
    this.bar, this.scores, this.felt, this.statusRow, this.actions, this.handBox);
    fill(this.root, this.main);
    this.hand = new Hand(this.handBox, (code, el) => this.cardActivated(code, el));
    this.status.textContent = t('loading');
  }

  // -- helpers --------------------------------------------------------------------------------
  numSeats() {
    const v = this.view;
    if (v && Array.isArray(v.hand_counts)) return v.hand_counts.length;
    return v && v.game === 'court-piece-2p' ? 2 : 4;
  }

  me() {
    const s = this.view && this.view.seat;
    return typeof s === 'number' ? s : null;
  }

  pos(seat) {
    const n = this.numSeats();
    const me = this.me() ?? 0;
    return POSITIONS[n][(seat - me + n) % n];
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

  yourTurn() {
    const v = this.view;
    return !!v && !v.over && this.me() !== null && v.to_move === this.me();
  }

  plays(v) {
    if (v.game === 'goat') {
      return (v.trick || []).map((p) => ({ seat: p.seat, verb: p.verb, cards: p.cards || null,
        count: p.count }));
    }
    return (v.trick || []).map((p) => ({ seat: p.seat, verb: 'play', cards: [p.card], count: 1 }));
  }

  // -- render ---------------------------------------------------------------------------------
  render() {
    const v = this.view;
    if (!v || this.dead) return;
    const m = this.main;
    const turn = this.yourTurn();
    if (turn && m.dataset.yourTurn === 'false' && document.visibilityState === 'visible' && navigator.vibrate) {
      try { navigator.vibrate(25); } catch { /* not allowed yet */ }
    }
    m.dataset.game = v.game;
    m.dataset.version = String(v.version);
    m.dataset.yourTurn = this.yourTurn() ? 'true' : 'false';
    m.dataset.phase = v.phase || '';
    m.dataset.over = v.over ? 'true' : 'false';
    m.dataset.seats = String(this.numSeats());
    if (this.me() !== null) m.dataset.seat = String(this.me());
    if (v.game === 'goat') m.dataset.k = String(v.k || 0);
    document.title = `${this.yourTurn() ? `(${t('your_turn_short')}) ` : ''}${t(`game_${v.game}`)} · taash`;
    this.renderBar();
    this.renderScores();
    this.renderSeats();
    this.renderTrick();
    this.renderStatus();
    this.renderActions();
    this.renderHand();
  }

  renderBar() {
    const v = this.view;
    const dealNo = (v.deal_number || 0) + (v.phase === 'over' ? 0 : 1);
    const o = v.options || {};
    const sub = [];
    if (v.over) sub.push(t('match_over'));
    else if (v.game === 'court-piece' && o.session_end && o.session_end.deals) {
      sub.push(t('deal_of', { n: dealNo, m: o.session_end.deals }));
    } else sub.push(t(v.game === 'goat' ? 'game_no' : 'deal_no', { n: dealNo }));
    if (v.game === 'court-piece' && o.session_end && o.session_end.coats) {
      sub.push(t('to_n_coats', { n: o.session_end.coats }));
    } else if (v.game === 'court-piece-2p' && o.target) {
      sub.push(t('to_n_points', { n: o.target }));
    } else if (v.game === 'goat' && o.target) {
      sub.push(t('goat_at_n', { n: o.target }));
    }
    fill(this.titleEl, h('b', null, t(`game_${v.game}`)), h('small', null, sub.join(' · ')));
    this.lastTrickBtn.disabled = !v.last_trick;
    this.hintBtn.disabled = !this.token || !(v.legal_actions || []).length;
  }

  chip(label, value, extra = {}) {
    return h('div', { class: 'chip', ...extra }, h('span', { class: 'chip-label' }, label),
      h('span', { class: 'chip-value' }, value));
  }

  renderScores() {
    const v = this.view;
    const out = [];
    const trumpChip = () => {
      if (v.trump) {
        return this.chip(t('trump'), h('span', { class: `suit-sign suit-${v.trump}` },
          SUIT_SIGN[v.trump], ' ', t(`suit_${v.trump}`)), { 'data-trump': v.trump });
      }
      return this.chip(t('trump'), v.phase === 'trump' ? t('calling') : '—');
    };
    const pair = (a, b) => `${a} – ${b}`;
    const me = this.me();
    const live = !v.over;
    if (v.game === 'court-piece') {
      const my = me === null ? 0 : me % 2;
      const tr = v.tricks || [0, 0];
      if (live) out.push(trumpChip());
      const double = v.options && v.options.sar === 'double';
      if (live) {
        out.push(this.chip(t(double ? 'collected' : 'tricks'), `${this.teamName(my)} ${tr[my]} · ${this.teamName(1 - my)} ${tr[1 - my]}`,
          { 'data-score': 'tricks' }));
      }
      if (live && double) {
        out.push(this.chip(t('pile'), String(v.pile || 0), { 'data-score': 'pile' }));
      }
      const mt = v.match || {};
      const dw = mt.deals_won || [0, 0];
      const co = mt.coats || [0, 0];
      out.push(this.chip(t('deals_won'), `${pair(dw[my], dw[1 - my])} · ${t('coats')} ${pair(co[my], co[1 - my])}`,
        { 'data-score': 'deals' }));
    } else if (v.game === 'court-piece-2p') {
      const my = me ?? 0;
      const tr = v.tricks || [0, 0];
      const pts = (v.match && v.match.points) || [0, 0];
      if (live) {
        out.push(trumpChip());
        const [a, b] = me === null ? [this.name(0), this.name(1)] : [t('you'), t('opponent')];
        out.push(this.chip(t('tricks'), `${a} ${tr[my]} · ${b} ${tr[1 - my]}`,
          { 'data-score': 'tricks' }));
      }
      out.push(this.chip(t('points'), `${pair(pts[my], pts[1 - my])} / ${(v.options || {}).target}`,
        { 'data-score': 'points' }));
    } else {
      const my = me === null ? 0 : me % 2;
      const tr = v.tricks || [0, 0];
      const df = (v.match && v.match.defeat) || [0, 0];
      if (live) {
        out.push(trumpChip());
        out.push(this.chip(t('tricks'), `${this.teamName(my)} ${tr[my]} · ${this.teamName(1 - my)} ${tr[1 - my]}`,
          { 'data-score': 'tricks' }));
      }
      out.push(this.chip(t('defeat'), `${pair(df[my], df[1 - my])} / ${(v.options || {}).target}`,
        { 'data-score': 'defeat' }));
    }
    fill(this.scores, ...out);
  }

  renderSeats() {
    const v = this.view;
    const n = this.numSeats();
    const used = new Set();
    for (let s = 0; s < n; s++) {
      const pos = this.pos(s);
      used.add(pos);
      const el = this.seatEls[pos];
      const info = this.seatInfo(s);
      const count = (v.hand_counts || [])[s] || 0;
      const badges = [];
      if (v.dealer === s) badges.push(h('span', { class: 'badge', title: t('dealer') }, t('dealer_short')));
      if (v.caller === s && v.game !== 'goat') badges.push(h('span', { class: 'badge caller', title: t('caller') }, t('caller_short')));
      const turn = !v.over && v.to_move === s;
      el.dataset.seat = String(s);
      el.dataset.turn = turn ? 'true' : 'false';
      el.dataset.team = n === 4 ? String(s % 2) : String(s);
      el.hidden = false;
      const sub = [];
      if (s !== this.me()) {
        if (n === 4 && this.me() !== null) sub.push(s % 2 === this.me() % 2 ? t('partner') : t('opponent'));
        else if (info.type === 'bot') sub.push(t(`level_${info.level || 'easy'}`));
        if (info.type === 'human' && info.claimed === false) sub.push(t('not_joined'));
      }
      const online = info.type === 'human' && s !== this.me()
        ? h('span', { class: `dot${info.connected ? ' on' : ''}`, title: info.connected ? t('online') : t('offline') }) : null;
      const mini = pos === 'bottom' ? null : h('div', { class: 'mini-hand', title: t('n_cards', { n: count }), 'data-count': count },
        h('span', { class: 'backs', 'aria-hidden': 'true' }, Array.from({ length: Math.min(count, 8) }, () => h('i'))),
        h('span', { class: 'n' }, String(count)));
      const timer = turn && this.info && this.info.turn_ends
        ? h('span', { class: 'timer', title: t('time_left'), role: 'timer' }) : null;
      fill(el,
        h('div', { class: 'avatar', 'aria-hidden': 'true' }, (this.name(s)[0] || '?').toUpperCase()),
        h('div', { class: 'who' },
          h('b', null, this.name(s), online),
          sub.length ? h('small', null, sub.join(' · ')) : null, timer),
        badges.length ? h('div', { class: 'badges' }, badges) : null,
        mini);
    }
    for (const pos of ['top', 'left', 'right', 'bottom']) if (!used.has(pos)) this.seatEls[pos].hidden = true;
    this.tickTimers();
  }

  renderTrick() {
    const v = this.view;
    const done = this.shownTrick;
    const plays = done ? done.plays : this.plays(v);
    const topSeat = done ? (done.top ?? null) : (v.game === 'goat' ? v.top_seat : null);
    const slots = plays.map((p) => {
      const pos = this.pos(p.seat);
      const cards = p.cards
        ? p.cards.map((c) => cardEl(c, { trump: v.trump, small: true }))
        : Array.from({ length: p.count }, () => backEl({ small: true }));
      const label = v.game === 'goat' && p.verb !== 'play' ? t(`verb_${p.verb}`) : null;
      return h('div', {
        class: `play at-${pos}${p.seat === topSeat && v.game === 'goat' ? ' top' : ''}${p.verb === 'pass' ? ' passed' : ''}`,
        'data-seat': p.seat, 'data-verb': p.verb,
        style: { '--k': String(cards.length) },
      }, h('div', { class: 'play-cards' }, cards), label ? h('span', { class: 'play-label' }, label) : null);
    });
    this.trick.classList.toggle('done', !!done);
    this.trick.style.setProperty('--pace', `${this.pace}ms`);
    if (done) {
      this.trick.dataset.winner = this.pos(done.winner);
      slots.push(h('div', { class: 'trick-won' }, t('won_by', { name: this.name(done.winner) })));
    } else {
      delete this.trick.dataset.winner;
    }
    if (v.pile > 0 && !done) {
      slots.push(h('div', { class: 'pile', title: t('pile'), 'data-pile': String(v.pile) },
        Array.from({ length: Math.min(v.pile, 4) }, () => backEl({ small: true })),
        h('span', { class: 'stock-count' }, String(v.pile))));
    }
    if (!plays.length && v.phase === 'trump' && v.caller !== this.me()) {
      slots.push(h('div', { class: 'trick-note' }, t('waiting_trump', { name: this.name(v.caller) })));
    }
    fill(this.trick, ...slots);
    // Goat: the shown trump card and the stock; Court Piece: the trump sign.
    if (v.game === 'goat' && v.trump_card) {
      fill(this.info2, h('div', { class: 'stock', 'data-stock': String(v.stock), title: t('stock_n', { n: v.stock }) },
        v.stock > 0 ? backEl({ small: true }) : null,
        cardEl(v.trump_card, { trump: v.trump, small: true }),
        h('span', { class: 'stock-count', 'aria-label': t('stock_n', { n: v.stock }) }, String(v.stock))));
    } else if (v.trump) {
      const out = v.out_of_play && v.phase !== 'over'
        ? h('div', { class: 'stock out', title: t('out_of_play', { n: v.out_of_play }) }, backEl({ small: true }),
          h('span', { class: 'stock-count', 'aria-label': t('out_of_play', { n: v.out_of_play }) }, String(v.out_of_play)))
        : null;
      fill(this.info2, h('div', { class: `trump-sign suit-${v.trump}`, title: t('trump') },
        SUIT_SIGN[v.trump]), out);
    } else {
      fill(this.info2);
    }
  }

  renderStatus() {
    const v = this.view;
    const me = this.me();
    let text;
    let cls = '';
    if (v.over) {
      text = this.matchResult(v);
      cls = 'over';
      // Once a seat has asked for the rematch, the others are asked to join it.
      const ready = !!(this.info && this.info.rematch);
      const label = t(ready ? 'rematch_join' : 'rematch');
      const inDialog = document.querySelector("dialog[data-dialog='match-summary'] [data-action='rematch']");
      if (inDialog) {
        inDialog.textContent = label;
        inDialog.dataset.ready = String(ready);
      }
      fill(this.status, h('span', { class: 'result' }, text),
        this.token ? h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch', 'data-ready': String(ready), onclick: () => this.rematch() }, label) : null,
        h('button', { class: 'btn', type: 'button', 'data-action': 'summary', onclick: () => this.showMatchDialog() }, t('summary')));
      this.status.className = `status ${cls}`;
      return;
    }
    if (v.phase === 'trump') {
      text = v.caller === me ? t('call_trump') : t('waiting_trump', { name: this.name(v.caller) });
    } else if (v.phase !== 'play') {
      text = t('dealing');
    } else if (this.yourTurn()) {
      cls = 'turn';
      if (v.game === 'goat') {
        text = (v.trick || []).length ? t('goat_answer', { n: v.k }) : t('goat_lead');
      } else {
        const led = (v.trick || [])[0];
        const legal = (v.legal_actions || []).length;
        const restricted = led && legal < (v.hand || []).length;
        text = restricted ? t('your_turn_follow', { suit: t(`suit_${led.card[1]}`) }) : t('your_turn_play');
      }
    } else if (me === null) {
      text = `${t('watching')} · ${t('waiting_for', { name: this.name(v.to_move) })}`;
    } else {
      text = t('waiting_for', { name: this.name(v.to_move) });
      if (v.game === 'goat' && v.can_molodka) text = `${text} · ${t('molodka_ready')}`;
    }
    this.status.className = `status ${cls}`;
    fill(this.status, h('span', null, text));
  }

  /** A sentence about a side: "You won…", "They won…" or "{name} won…". */
  said(side, base, params = {}) {
    const me = this.me();
    const two = this.numSeats() === 2;
    if (me !== null && side === (two ? me : me % 2)) return t(`${base}_we`, params);
    if (me !== null && !two) return t(`${base}_they`, params);
    return t(`${base}_name`, { ...params, name: this.sideName(side) });
  }

  matchResult(v) {
    const mt = v.match || {};
    if (v.game === 'goat') {
      if (mt.loser === null || mt.loser === undefined) return t('match_over');
      return this.said(mt.loser, 'goat');
    }
    if (mt.winner === 'draw') return t('draw');
    if (mt.winner === null || mt.winner === undefined) return t('match_over');
    return this.said(mt.winner, 'match_won');
  }

  renderActions() {
    const v = this.view;
    const legal = v.legal_actions || [];
    const out = [];
    if (v.game !== 'goat' && v.phase === 'trump' && v.caller === this.me() && this.me() !== null) {
      const hinted = new Set(v.trump_hint || []);
      for (const s of ['S', 'H', 'D', 'C']) {
        const ok = legal.includes(`trump:${s}`);
        out.push(h('button', {
          class: `btn suit-btn suit-${s}${hinted.has(s) ? ' suggested' : ''}${this.hint && this.hint.action === `trump:${s}` ? ' hinted' : ''}`,
          type: 'button', 'data-action': `trump:${s}`, 'aria-disabled': ok ? 'false' : 'true',
          onclick: () => this.act(`trump:${s}`),
        }, h('span', { class: 'suit-sign' }, SUIT_SIGN[s]), h('span', null, t(`suit_${s}`)),
        hinted.has(s) ? h('small', null, t('most_held')) : null));
      }
      this.actions.className = 'actions trump-call';
    } else if (v.game === 'goat' && this.me() !== null && v.phase === 'play') {
      const sel = [...this.selected];
      const keys = new Set(legal.map((a) => setKey(verbOf(a), cardsOf(a))));
      const hinted = this.hint && this.hint.action ? verbOf(this.hint.action) : null;
      for (const verb of ['lead', 'beat', 'pass']) {
        const ok = sel.length > 0 && keys.has(setKey(verb, sel));
        out.push(h('button', {
          class: `btn verb${ok ? ' primary' : ''}${hinted === verb ? ' hinted' : ''}`, type: 'button',
          'data-action': verb, 'aria-disabled': ok ? 'false' : 'true',
          onclick: () => this.goatVerb(verb),
        }, t(`verb_${verb}`)));
      }
      const molodka = legal.find((a) => a.startsWith('molodka:'));
      if (molodka) {
        out.push(h('button', {
          class: 'btn molodka primary', type: 'button', 'data-action': 'molodka',
          onclick: () => this.act(molodka, cardsOf(molodka)),
        }, t('verb_molodka')));
      }
      this.actions.className = `actions goat${this.yourTurn() ? '' : ' idle'}`;
    } else {
      this.actions.className = 'actions';
    }
    fill(this.actions, ...out);
  }

  renderHand() {
    const v = this.view;
    const legal = v.legal_actions || [];
    const trumpSuit = v.trump || null;
    const cards = sortHand(v.hand || [], v.game, trumpSuit);
    const pendingCards = new Set(this.pending ? this.pending.cards : []);
    const hintCards = new Set(this.hint && this.hint.action ? cardsOf(this.hint.action) : []);
    let items;
    if (v.game === 'goat') {
      const usable = new Set(legal.flatMap(cardsOf));
      items = cards.map((code) => ({
        code, playable: usable.has(code), selected: this.selected.has(code),
        pending: pendingCards.has(code), hinted: hintCards.has(code),
        dim: this.yourTurn() && !usable.has(code),
      }));
    } else {
      const playable = new Set(legal.filter((a) => a.startsWith('play:')).map((a) => a.slice(5)));
      const turn = this.yourTurn() && v.phase === 'play';
      items = cards.map((code) => ({
        code, playable: playable.has(code), pending: pendingCards.has(code),
        hinted: hintCards.has(code), dim: turn && !playable.has(code),
      }));
    }
    this.hand.update(items, trumpSuit);
    this.handBox.classList.toggle('my-turn', this.yourTurn());
  }

  // -- acting ---------------------------------------------------------------------------------
  cardActivated(code) {
    const v = this.view;
    if (!v || !this.token) return;
    if (v.game === 'goat') {
      if (this.selected.has(code)) this.selected.delete(code);
      else this.selected.add(code);
      this.hint = null;
      this.renderActions();
      this.renderHand();
      return;
    }
    this.act(`play:${code}`, [code]);
  }

  goatVerb(verb) {
    const sel = [...this.selected];
    if (!sel.length) {
      toast(t('select_cards'));
      return;
    }
    const legal = (this.view.legal_actions || []).find((a) => setKey(verbOf(a), cardsOf(a)) === setKey(verb, sel));
    this.act(legal || `${verb}:${sel.join(',')}`, sel);
  }

  /** Post an action.  One at a time: a tap made while the previous action is still on its
   * way (the next view may come before the answer) waits for it instead of being lost.  The
   * action carries the version of the table the player tapped on, so the server refuses it
   * ('stale') if the table moved on in between: a card chosen for one trick never lands in the
   * next.  A molodka is the exception: it may be played at any moment, so it goes whatever
   * has happened since. */
  async act(action, cards = []) {
    if (!this.token) return;
    if (this.inflight && this.inflight.action === action) return;
    const prev = this.inflight;
    const seen = action.startsWith('molodka:') || this.version < 0 ? null : this.version;
    const run = (async () => {
      if (prev) await prev.done;
      await this.post(action, cards, seen);
    })();
    const entry = { action, done: run };
    this.inflight = entry;
    await run;
    if (this.inflight === entry) this.inflight = null;
  }

  async post(action, cards, seen = null) {
    this.pending = { action, cards, from: this.version };
    this.renderHand();
    const cid = newId();
    const body = seen === null ? { action, id: cid } : { action, id: cid, version: seen };
    try {
      let res;
      for (let i = 0; ; i++) {
        try {
          res = await api('POST', `/api/tables/${this.id}/actions`, { body, token: this.token });
          break;
        } catch (e) {
          if ((e.status === 0 || e.status === 429 || e.status >= 500) && i < 5) {
            await sleep(400 * (i + 1));
            continue;
          }
          throw e;
        }
      }
      if (this.view && this.view.game === 'goat') {
        for (const c of cards) this.selected.delete(c);
      }
      const want = res && typeof res.version === 'number' ? res.version : this.version + 1;
      setTimeout(() => { if (!this.dead && this.version < want) this.resync(); }, 1500);
    } catch (e) {
      if (this.pending && this.pending.action === action) this.pending = null;
      if (e.code === 'stale') {
        // Nothing was played: show the table as it is now, for the player to choose again.
        toast(t('stale'), 'error');
        this.resync();
      } else {
        this.showError(e);
      }
      this.render();
    }
  }

  showError(e) {
    const msg = ruleText(e, (s) => this.name(s)) || e.message || String(e);
    const rule = e.rule ? ` (${e.rule})` : '';
    if (e.status === 409 || e.code === 'illegal') toast(`${t('not_allowed')}: ${msg}${rule}`, 'error');
    else if (e.status === 0) toast(t('err_network'), 'error');
    else toast(`${t('error')}: ${msg}`, 'error');
  }

  async tool(name) {
    if (name === 'last-trick') this.showLastTrick();
    else if (name === 'hint') this.getHint();
  }

  async getHint() {
    if (!this.token) return;
    try {
      const res = await api('GET', `/api/tables/${this.id}/hint`, { token: this.token });
      if (!res || !res.action) { toast(t('no_hint')); return; }
      this.hint = { action: res.action, version: this.version };
      if (this.view.game === 'goat' && !res.action.startsWith('molodka:')) {
        this.selected = new Set(cardsOf(res.action));
      }
      const verb = verbOf(res.action);
      const cards = cardsOf(res.action);
      let text;
      if (verb === 'trump') text = t('hint_trump', { suit: t(`suit_${res.action.slice(6)}`) });
      else text = t('hint_play', { verb: t(`verb_${verb}`), cards: cards.map(cardName).join(', ') });
      toast(text, 'hint');
      this.renderActions();
      this.renderHand();
    } catch (e) {
      this.showError(e);
    }
  }

  playsBlock(plays, winner, topSeat) {
    const v = this.view;
    return h('div', { class: 'trick-list' }, plays.map((p) => h('div', {
      class: `trick-row${p.seat === winner ? ' winner' : ''}`, 'data-seat': p.seat,
    },
    h('span', { class: 'trick-who' }, this.name(p.seat),
      v.game === 'goat' && p.verb !== 'play' ? h('small', null, ` · ${t(`verb_${p.verb}`)}`) : null),
    h('span', { class: 'trick-cards' },
      p.cards ? p.cards.map((c) => cardEl(c, { trump: v.trump, small: true }))
        : Array.from({ length: p.count }, () => backEl({ small: true }))),
    p.seat === topSeat || (topSeat === undefined && p.seat === winner) ? h('span', { class: 'won-mark' }, '★') : null)));
  }

  showLastTrick() {
    const v = this.view;
    const lt = v && v.last_trick;
    if (!lt) { toast(t('no_last_trick')); return; }
    const plays = lt.plays
      ? lt.plays.map((p) => ({ seat: p.seat, verb: p.verb, cards: p.cards || null, count: p.count }))
      : lt.cards.map((c) => ({ seat: c.seat, verb: 'play', cards: [c.card], count: 1 }));
    showDialog({
      name: 'last-trick', title: t('last_trick'),
      body: [h('p', null, t('won_by', { name: this.name(lt.winner) })), this.playsBlock(plays, lt.winner)],
      actions: [{ label: t('close'), action: 'close', primary: true }],
    });
  }

  // -- summaries ------------------------------------------------------------------------------
  showSummaries() {
    if (this.summaryOpen || !this.summaries.length) return;
    const s = this.summaries.shift();
    if (s.match && s.match.over) {
      this.summaries = [];
      if (!s.quiet) this.showMatchDialog(s);
      return;
    }
    this.summaryOpen = true;
    showDialog({
      name: 'deal-summary',
      title: t(this.view.game === 'goat' ? 'game_over_n' : 'deal_over_n', { n: s.index + 1 }),
      body: this.dealBody(s),
      actions: [{ label: t('continue'), action: 'continue', primary: true }],
      onClose: () => { this.summaryOpen = false; this.showSummaries(); },
    });
  }

  dealBody(s) {
    const v = this.view;
    const d = s.deal || {};
    const rows = [];
    if (v.game === 'goat') {
      const me = this.me();
      const my = me === null ? 0 : me % 2;
      const pts = d.points || [0, 0];
      const df = d.defeat || [0, 0];
      if (d.eggs) rows.push(h('p', { class: 'headline' }, t('eggs')));
      else {
        const loser = df[0] > 0 ? 0 : 1;
        rows.push(h('p', { class: 'headline' }, this.said(1 - loser, 'game_won', { points: pts[1 - loser] })));
      }
      rows.push(this.table([
        ['', this.teamName(my), this.teamName(1 - my)],
        [t('card_points'), pts[my], pts[1 - my]],
        [t('defeat_taken'), df[my], df[1 - my]],
        [t('defeat_total'), (s.match.defeat || [])[my], (s.match.defeat || [])[1 - my]],
      ]));
    } else {
      const two = v.game === 'court-piece-2p';
      const me = this.me();
      const my = me === null ? 0 : (two ? me : me % 2);
      const tr = d.tricks || [0, 0];
      let head = this.said(d.winner, 'deal_won');
      if (d.coat) head += ` · ${t('coat')}!`;
      if (d.court) head += ` · ${t('court')}!`;
      rows.push(h('p', { class: 'headline' }, head));
      if (d.trump) rows.push(h('p', null, `${t('trump')}: `, h('span', { class: `suit-sign suit-${d.trump}` }, SUIT_SIGN[d.trump]), ` ${t(`suit_${d.trump}`)}`));
      const table = [['', this.sideName(my), this.sideName(1 - my)], [t('tricks'), tr[my], tr[1 - my]]];
      if (two) {
        const sc = d.scored || [0, 0];
        const pts = s.match.points || [0, 0];
        table.push([t('scored'), sc[my], sc[1 - my]], [t('points'), pts[my], pts[1 - my]]);
      } else {
        const dw = s.match.deals_won || [0, 0];
        const co = s.match.coats || [0, 0];
        table.push([t('deals_won'), dw[my], dw[1 - my]], [t('coats'), co[my], co[1 - my]]);
      }
      rows.push(this.table(table));
    }
    if (s.trick) {
      rows.push(h('p', { class: 'sub' }, t('final_trick')), this.playsBlock(s.trick.plays, s.trick.winner, s.trick.top));
    }
    return rows;
  }

  table(rows) {
    return h('table', { class: 'score-table' }, rows.map((r, i) => h('tr', null,
      r.map((c, j) => h(i === 0 || j === 0 ? 'th' : 'td', null, String(c ?? ''))))));
  }

  showMatchDialog(s) {
    const v = this.view;
    closeDialogs('deal-summary');
    closeDialogs('match-summary');
    const last = s || { index: completeDeals(v) - 1, deal: v.deals[completeDeals(v) - 1], match: v.match };
    const body = [h('p', { class: 'headline big' }, this.matchResult(v))];
    if (last.deal) body.push(h('p', { class: 'sub' }, t(v.game === 'goat' ? 'game_over_n' : 'deal_over_n', { n: last.index + 1 })), ...this.dealBody(last));
    body.push(this.dealsHistory(v));
    const actions = [];
    if (this.token) actions.push({ label: t(this.info && this.info.rematch ? 'rematch_join' : 'rematch'), action: 'rematch', primary: true, onClick: () => this.rematch() });
    actions.push({ label: t('home'), action: 'home', onClick: () => this.navigate('/') });
    actions.push({ label: t('close'), action: 'close' });
    this.summaryOpen = true;
    showDialog({ name: 'match-summary', title: t('match_over'), body, actions,
      onClose: () => { this.summaryOpen = false; } });
  }

  dealsHistory(v) {
    const done = (v.deals || []).filter((d) => d.complete);
    if (done.length < 2) return null;
    const me = this.me();
    const my = me === null ? 0 : (this.numSeats() === 2 ? me : me % 2);
    const pair = (x) => `${(x || [])[my]} – ${(x || [])[1 - my]}`;
    const line = (d) => {
      if (v.game === 'goat') {
        return d.eggs ? t('eggs') : `${t('card_points')} ${pair(d.points)} · ${t('defeat')} ${pair(d.defeat)}`;
      }
      return `${this.said(d.winner, 'deal_won')} (${pair(d.tricks)})${d.coat ? ` · ${t('coat')}` : ''}${d.court ? ` · ${t('court')}` : ''}`;
    };
    return h('details', { class: 'history' }, h('summary', null, t('all_deals', { n: done.length })),
      h('ol', null, done.map((d) => h('li', null, line(d)))));
  }

  async rematch() {
    try {
      const r = await api('POST', `/api/tables/${this.id}/rematch`, { token: this.token });
      saveSeat(r.id, r.seat, r.token, this.view.game);
      closeDialogs();
      this.navigate(`/t/${r.id}?seat=${r.seat}`);
    } catch (e) {
      this.showError(e);
    }
    return false;
  }

  // -- menu -----------------------------------------------------------------------------------
  menu() {
    const invites = mySeats().find((x) => x.id === this.id && x.invites);
    const body = [];
    if (invites) {
      body.push(h('h3', null, t('invite_links')));
      for (const inv of invites.invites) {
        const url = new URL(inv.url, location.origin).href;
        const field = h('input', { class: 'link', readonly: true, value: url, 'aria-label': t('seat_n', { n: inv.seat + 1 }) });
        body.push(h('div', { class: 'invite' }, h('span', null, t('seat_n', { n: inv.seat + 1 })), field,
          h('button', { class: 'btn', type: 'button', 'data-action': 'copy', onclick: async () => {
            toast((await copyText(url, field)) ? t('copied') : t('copy_failed'));
          } }, t('copy'))));
      }
    }
    if (this.token && this.view && !this.view.over) {
      const email = h('input', { type: 'email', class: 'link', placeholder: t('email'), 'aria-label': t('email'),
        'data-field': 'notify-email', autocomplete: 'email' });
      body.push(h('h3', null, t('notify_title')), h('p', { class: 'sub' }, t('notify_note')),
        h('form', { class: 'invite', onsubmit: async (e) => {
          e.preventDefault();
          try {
            await api('PUT', `/api/tables/${this.id}/notify`, { token: this.token, body: { email: email.value.trim() || null } });
            toast(email.value.trim() ? t('notify_on') : t('notify_off'));
          } catch (err) { this.showError(err); }
        } }, h('span', null, '✉'), email, h('button', { class: 'btn', type: 'submit', 'data-action': 'notify' }, t('save'))));
    }
    body.push(h('p', { class: 'sub' }, t('table_id', { id: this.id })));
    const actions = [];
    if (this.token && this.view && !this.view.over) {
      actions.push({ label: t('leave'), action: 'leave', onClick: () => this.leave() });
    }
    actions.push({ label: t('home'), action: 'home', onClick: () => this.navigate('/') });
    actions.push({ label: t('close'), action: 'close', primary: true });
    showDialog({ name: 'menu', title: t(`game_${this.view ? this.view.game : 'court-piece'}`), body, actions });
  }

  async leave() {
    if (!window.confirm(t('leave_confirm'))) return false;
    try {
      await api('POST', `/api/tables/${this.id}/leave`, { token: this.token });
      const mine = seatAt(this.id, this.me());
      if (mine) forgetSeat(this.id, mine.seat);
      this.navigate('/');
    } catch (e) {
      this.showError(e);
    }
    return true;
  }
}
