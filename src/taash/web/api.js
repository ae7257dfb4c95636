// Talking to the server (docs/API.md): JSON requests, the player of this browser's session,
// the seat tokens this browser keeps, and the live channel that reconnects by itself and
// catches up with `since`.

export class ApiError extends Error {
  constructor(status, code, message, rule, key = null, params = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.rule = rule;
    this.key = key; // an illegal action's sentence, for saying it in the page's language
    this.params = params;
  }
}

/** A seat's credential as the query of a URL: a seat token (text), or `{seat}` for a seat of
 * the session's player, whose cookie speaks for them (a table taken on another device). */
export function seatQuery(token) {
  if (token && typeof token === 'object') return `seat=${encodeURIComponent(token.seat)}`;
  return token ? `token=${encodeURIComponent(token)}` : '';
}

export async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token && typeof token === 'object') {
    path += `${path.includes('?') ? '&' : '?'}${seatQuery(token)}`;
  } else if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  let res;
  try {
    res = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e && e.message || e), null);
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || String(res.status), e.message || res.statusText,
      e.rule || null, e.key || null, e.params || null);
  }
  return data;
}

// -- the player of this browser's session cookie (set by the server on the first visit) ----
let player = null;

/** The player (GET /api/me: id, name, language); a guest is made on the first visit. */
export async function getMe() {
  player = await api('GET', '/api/me');
  return player;
}

/** The player, with a name chosen in this browser before it had a player (or while the
 * server could not be asked) made theirs once: the home screen and an invite link opened
 * directly both come through here, so a friend's chosen name is the name their seat takes. */
export async function getMeNamed() {
  let p = await getMe();
  const local = setting('name', '').trim();
  if (local && setting('name_synced', '') !== '1') {
    try { p = await updateMe({ name: local }); } catch { /* the server's rules: keep its */ }
    setSetting('name_synced', '1');
  }
  return p;
}

/** The player as last fetched, or null. */
export function knownMe() {
  return player;
}

/** Change the player's name or language (PATCH /api/me); the server says why it refuses. */
export async function updateMe(fields) {
  player = await api('PATCH', '/api/me', { body: fields });
  return player;
}

/** Every table with a seat of the player's, on whatever device it was taken. */
export function myServerTables() {
  return api('GET', '/api/me/tables');
}

/** Take the seat of an invite link for the player, once: `{seat, token}` (a new token; null
 * when the seat is theirs already); ApiError `invite_used` when another player took it. */
export function claimInvite(id, token) {
  return api('POST', `/api/tables/${id}/claim`, { token });
}

let health = null;

/** What the server can do (GET /api/health, asked once): `{email}`, whether it sends turn
 * e-mails; nothing offered where it cannot say. */
export function serverCan() {
  if (!health) health = api('GET', '/api/health').catch(() => { health = null; return { email: false }; });
  return health;
}

/** A client id for an action: the server applies an id once, so a retry is safe. */
export function newId() {
  const a = new Uint8Array(12);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

// -- seats this browser holds: {"<id>/<seat>": {id, seat, token, game, added}} -------------
const SEATS = 'taash.seats';

function readSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS) || '{}') || {}; } catch { return {}; }
}

function writeSeats(s) {
  try { localStorage.setItem(SEATS, JSON.stringify(s)); } catch { /* private mode: session only */ }
}

export function mySeats() {
  return Object.values(readSeats());
}

export function saveSeat(id, seat, token, game) {
  const s = readSeats();
  const key = `${id}/${seat}`;
  const old = s[key] || { added: Date.now() };
  s[key] = { ...old, id, seat: Number(seat), token, game: game ?? old.game ?? null };
  if (old.token && old.token !== token) delete s[key].invites;
  writeSeats(s);
}

export function forgetSeat(id, seat) {
  const s = readSeats();
  delete s[`${id}/${seat}`];
  writeSeats(s);
}

/** The seat this browser holds at a table: the one asked for, else the only/first one. */
export function seatAt(id, seat) {
  const all = mySeats().filter((x) => x.id === id);
  if (seat !== null && seat !== undefined && seat !== '') {
    return all.find((x) => x.seat === Number(seat)) || null;
  }
  return all[0] || null;
}

export function setting(name, fallback) {
  try {
    const v = localStorage.getItem(`taash.${name}`);
    return v === null ? fallback : v;
  } catch { return fallback; }
}

export function setSetting(name, value) {
  try { localStorage.setItem(`taash.${name}`, value); } catch { /* ignore */ }
}

/**
 * The live channel of one seat, or of a spectator (no token: the public view).  `getSince()`
 * gives the version the page shows; every (re)connection first fetches the current view over
 * HTTP (so the page catches up even if the WebSocket cannot be opened), then opens the
 * WebSocket with since=that version.
 * Callbacks: onMessage(msg), onState('live'|'connecting'|'offline'), onFatal(ApiError).
 */
export class Live {
  constructor({ id, token, getSince, onMessage, onState, onFatal }) {
    Object.assign(this, { id, token, getSince, onMessage, onState, onFatal });
    this.ws = null;
    this.stopped = false;
    this.asked = new Map(); // id -> { resolve, reject, timer } of a request sent on the socket
    this.attempt = 0;
    this.timer = null;
    this.lastHeard = 0;
    this.watchdog = null;
    this.connecting = false;
    this.wake = () => {
      if ((!this.ws || this.ws.readyState > 1) && !this.connecting) this.reconnectNow();
    };
    this.onVisible = () => { if (document.visibilityState === 'visible') this.check(); };
    // the browser went offline: what waits for the socket's answer is tried another way
    this.onOffline = () => this.unanswered();
  }

  start() {
    window.addEventListener('online', this.wake);
    window.addEventListener('offline', this.onOffline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.watchdog = setInterval(() => this.check(), 5000);
    this.connect(false);
  }

  stop() {
    this.stopped = true;
    this.unanswered();
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    window.removeEventListener('online', this.wake);
    window.removeEventListener('offline', this.onOffline);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
  }

  /** Pings come at least every 10 s: silence for 25 s means a dead connection. */
  check() {
    if (this.stopped) return;
    if (this.ws && this.ws.readyState === 1 && Date.now() - this.lastHeard > 25000) {
      this.ws.close();
    } else if ((!this.ws || this.ws.readyState > 1) && !this.timer && !this.connecting) {
      this.reconnectNow();
    }
  }

  reconnectNow() {
    clearTimeout(this.timer);
    this.timer = null;
    this.connect(true);
  }

  async connect(catchUp) {
    if (this.stopped) return;
    if (this.ws) { this.unanswered(); this.ws.onclose = null; this.ws.onmessage = null; this.ws.close(); }
    this.ws = null;
    this.onState('connecting');
    if (catchUp) {
      this.connecting = true;
      try {
        const view = this.token
          ? await api('GET', `/api/tables/${this.id}/view`, { token: this.token })
          : await api('GET', `/api/tables/${this.id}`);
        this.connecting = false;
        if (this.stopped) return;
        this.onMessage({ type: 'view', version: view.version, view });
      } catch (e) {
        this.connecting = false;
        if (e.status === 401 || e.status === 403 || e.status === 404) {
          this.stopped = true;
          this.onFatal(e);
          return;
        }
        this.retry();
        return;
      }
    }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const since = this.getSince();
    const q = [seatQuery(this.token), since >= 0 ? `since=${since}` : ''].filter(Boolean).join('&');
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/tables/${this.id}/ws?${q}`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.onState('live');
    };
    ws.heard = false; // nothing came yet: not known to be the table's live channel
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      ws.heard = true;
      if (this.attempt) this.attempt = 0;
      this.onState('live');
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if ((msg.type === 'ack' || msg.type === 'error') && this.asked.has(msg.id)) {
        this.answered(msg);
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      this.unanswered();
      if (this.ws !== ws) return;
      this.ws = null;
      this.retry();
    };
  }

  retry() {
    if (this.stopped || this.timer) return;
    this.onState('offline');
    // 0.5 s, 1 s, 2 s, 4 s, then every 8 s, each with some jitter so a restarted server is not
    // hit by every browser at once.
    const base = Math.min(8000, 500 * 2 ** this.attempt);
    this.attempt += 1;
    const wait = base * (0.75 + Math.random() * 0.5);
    this.timer = setTimeout(() => { this.timer = null; this.connect(true); }, wait);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === 1) { this.ws.send(JSON.stringify(msg)); return true; }
    return false;
  }

  /** Send `msg` (with its `id`) on the open socket and resolve with the server's ack, or
   * reject with its refusal as an ApiError.  Rejects with `NoAnswer` when the socket is not
   * open or has sent nothing yet, closes first, or stays silent for `ms`: the caller sends it
   * again another way with the same id, which the server applies once. */
  request(msg, ms = 5000) {
    return new Promise((resolve, reject) => {
      // only on a socket that has spoken (its catch-up came): one that opened and said
      // nothing may be a proxy's or a dead one
      // offline, a socket may still look open (its TCP not yet timed out): not waited on
      if (!this.ws || !this.ws.heard || navigator.onLine === false || !this.send(msg)) {
        reject(new NoAnswer());
        return;
      }
      const timer = setTimeout(() => {
        this.asked.delete(msg.id);
        reject(new NoAnswer());
      }, ms);
      this.asked.set(msg.id, { resolve, reject, timer });
    });
  }

  answered(msg) {
    const w = this.asked.get(msg.id);
    this.asked.delete(msg.id);
    clearTimeout(w.timer);
    if (msg.type === 'ack') { w.resolve(msg); return; }
    const e = msg.error || {};
    w.reject(new ApiError(STATUS_OF[e.code] || 400, e.code || 'error', e.message || '',
      e.rule || null, e.key || null, e.params || null));
  }

  unanswered() {
    for (const w of this.asked.values()) { clearTimeout(w.timer); w.reject(new NoAnswer()); }
    this.asked.clear();
  }
}

/** A request on the socket that got no answer (not sent, socket closed, or silent). */
export class NoAnswer extends Error {}

/** The HTTP status the server gives each refusal's code (a refusal on the socket has only
 * the code), so a refusal reads the same however the action went. */
const STATUS_OF = {
  bad_request: 400, malformed: 400, unauthorized: 401, forbidden: 403, not_found: 404,
  stale: 409, conflict: 409, illegal: 409, rate_limited: 429, moved: 503, unavailable: 503,
};
