// taash in the browser: "/" is the home screen, "/t/{id}" a table.  An invite link
// (/t/{id}?seat=S&token=T) is claimed for this browser's player, once (the server then gives
// the seat a token of its own, kept in this browser's storage), and the address bar keeps only
// /t/{id}?seat=S, so a copied address does not give the seat away.  A seat the player took on
// another device is played through the session cookie (the `{seat}` credential of api.js).
import { claimInvite, getMeNamed, myServerTables, saveSeat, seatAt } from './api.js';
import { pickLang, setLang, t } from './i18n.js';
import { applyComfort } from './comfort.js';
import { mountHome } from './home.js';
import { mountReview } from './review.js';
import { mountTable } from './table.js';
import { mountLeaderboard, mountProfile } from './profile.js';
import { h, fill, toast } from './ui.js';

const root = document.getElementById('app');
let unmount = null;

function navigate(url, replace = false) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

async function relang(code) {
  await setLang(code);
  route();
}

let routing = 0;

async function route() {
  const mine = ++routing;
  if (unmount) unmount();
  unmount = null;
  window.scrollTo(0, 0);
  // /offline/<game>: a table against bots played in this page, no server needed; /offline:
  // offline play's own screen and its kept matches.  Loaded when asked for (the first load
  // stays as it was); a module not kept, with no connection: the no-connection screen
  const offlineGame = location.pathname.match(/^\/offline\/([^/]+)\/?$/);
  if (offlineGame || /^\/offline\/?$/.test(location.pathname)) {
    let mod;
    try {
      mod = await import(offlineGame ? './offline_table.js' : './offline_list.js');
    } catch {
      if (mine === routing) offline();
      return;
    }
    if (mine !== routing) return;
    unmount = offlineGame
      ? mod.mountOfflineTable(root, { game: decodeURIComponent(offlineGame[1]), search: location.search, navigate })
      : mod.mountOfflineHome(root, { navigate });
    return;
  }
  // /learn/<game>: the guided first deal (learn.js); /rules/<game>: the rules a refusal
  // cites, each with a picture (rules_page.js).  Loaded when asked for, as offline play is
  const learn = location.pathname.match(/^\/(learn|rules)\/([^/]+)\/?$/);
  if (learn) {
    let mod;
    try {
      mod = await import(learn[1] === 'learn' ? './learn.js' : './rules_page.js');
    } catch {
      if (mine === routing) offline();
      return;
    }
    if (mine !== routing) return;
    const game = decodeURIComponent(learn[2]);
    unmount = learn[1] === 'learn' ? mod.mountLearn(root, { game, navigate }) : mod.mountRules(root, { game, navigate });
    return;
  }
  // /puzzles, /puzzles/<id>: the puzzles page (puzzles.js), loaded when asked for
  const puzzle = location.pathname.match(/^\/puzzles(?:\/([^/]+))?\/?$/);
  if (puzzle) {
    let mod;
    try {
      mod = await import('./puzzles.js');
    } catch {
      if (mine === routing) offline();
      return;
    }
    if (mine !== routing) return;
    unmount = mod.mountPuzzles(root, { id: puzzle[1] ? decodeURIComponent(puzzle[1]) : null, navigate });
    return;
  }
  if (location.pathname === '/review') { // a finished deal's review (review.js)
    unmount = mountReview(root, { navigate });
    return;
  }
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  const profile = location.pathname.match(/^\/p\/([^/]+)\/?$/);
  if (location.pathname === '/leaderboard') {
    unmount = mountLeaderboard(root, { navigate });
    return;
  }
  if (profile) {
    unmount = mountProfile(root, { id: decodeURIComponent(profile[1]), navigate });
    return;
  }
  // /friend/CODE (a friend's link): the home screen with the code filled in to add them
  const friend = location.pathname.match(/^\/friend\/([^/]+)\/?$/);
  if (friend) {
    history.replaceState(null, '', '/');
    unmount = mountHome(root, { navigate, relang, friendCode: decodeURIComponent(friend[1]) });
    return;
  }
  if (!m) {
    // /link?code=C (a device-link code's QR image): the home screen with the code filled in
    const linkCode = location.pathname === '/link' ? new URLSearchParams(location.search).get('code') : null;
    if (location.pathname === '/link') history.replaceState(null, '', '/');
    // /email/confirm#SECRET and /email/sign-in#SECRET (a mailed link): the page posts the
    // secret, which never reaches a server's log; the address bar keeps only /
    const mailed = location.pathname.match(/^\/email\/(confirm|sign-in)\/?$/);
    const emailLink = mailed && location.hash.length > 1
      ? { kind: mailed[1], token: location.hash.slice(1) } : null;
    if (mailed) history.replaceState(null, '', '/');
    unmount = mountHome(root, { navigate, relang, linkCode, emailLink });
    return;
  }
  const id = decodeURIComponent(m[1]);
  const q = new URLSearchParams(location.search);
  let seat = q.get('seat');
  const token = q.get('token');
  let held;
  if (token) {
    held = await takeInvite(id, seat === null ? 0 : Number(seat), token);
    if (mine !== routing) return;
    if (held === 'used') {
      history.replaceState(null, '', '/');
      unmount = mountHome(root, { navigate, relang });
      toast(t('invite_used'), 'error');
      return;
    }
    seat = String(held.seat);
    history.replaceState(null, '', `/t/${encodeURIComponent(id)}?seat=${seat}`);
    if (held.already) {
      // their own invite link, or a friend's, opened by a player who sits here already: their
      // own seat opens, and the page says why the link's did not (issue 43)
      unmount = mountTable(root, { id, seat: held.seat, token: held.token, navigate });
      toast(t('seated_already', { n: held.seat + 1 }), 'info', 12000);
      return;
    }
  } else {
    held = seatAt(id, seat) || await playersSeat(id, seat);
    if (mine !== routing) return;
  }
  unmount = mountTable(root, {
    id, seat: held ? held.seat : null, token: held ? held.token : null, navigate,
  });
}

/** An invite link opened: its seat claimed for this browser's player (`{seat, token}`), or
 * 'used' when another player took it first.  A server without claims, or a token that is no
 * invite (an older table's seat), opens with the link's token as before. */
async function takeInvite(id, seat, token) {
  try {
    // the session the seat is claimed for (a guest on the first visit), with the name the
    // friend chose in this browser: the claimed seat is named after the player
    await getMeNamed();
    const r = await claimInvite(id, token);
    if (!r || !Number.isInteger(r.seat)) throw new Error('not a claim');
    if (r.token) {
      saveSeat(id, r.seat, r.token, null);
      return { seat: r.seat, token: r.token };
    }
    return seatAt(id, r.seat) || { seat: r.seat, token: { seat: r.seat } };
  } catch (e) {
    if (e.code === 'invite_used') return 'used';
    if (e.code === 'seated_already') {
      const own = await playersSeat(id, null);
      if (own) return { ...(seatAt(id, own.seat) || own), already: true };
    }
    saveSeat(id, seat, token, null);
    return { seat, token };
  }
}

/** The player's seat at a table with no token in this browser (taken on another device):
 * played through the session cookie, or null when the seat is not theirs (then watched). */
async function playersSeat(id, seat) {
  try {
    const rows = await myServerTables();
    const row = rows.find((r) => r.id === id && (seat === null || String(r.seat) === seat));
    return row ? { seat: row.seat, token: { seat: row.seat } } : null;
  } catch {
    return null;
  }
}

/** Can the server be reached?  (Any answer counts: only no answer at all is no connection.) */
async function reachable() {
  try {
    await fetch('/api/health', { cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/** Opened without a connection (the service worker's kept page): say so, in the page's
 * language, and open the page asked for by itself once the server answers again. */
function offline() {
  const say = (key, en) => (t(key) === key ? en : t(key));
  let timer = null;
  let trying = false;
  const again = async () => {
    if (trying) return;
    trying = true;
    const up = await reachable();
    trying = false;
    if (!up) return;
    clearInterval(timer);
    window.removeEventListener('online', again);
    route();
  };
  unmount = () => { clearInterval(timer); window.removeEventListener('online', again); };
  document.title = `${say('offline_title', 'No connection')} · taash`;
  fill(root, h('main', { class: 'offline', 'data-page': 'offline' },
    h('h1', { class: 'logo' }, h('span', { class: 'logo-cards', 'aria-hidden': 'true' }, '\u2660\uFE0E\u2665\uFE0E'), 'taash'),
    h('div', { class: 'panel', role: 'status' },
      h('h2', null, say('offline_title', 'No connection')),
      h('p', null, say('offline_note', 'taash opens by itself as soon as the connection is back.'))),
    h('button', { class: 'btn primary', type: 'button', 'data-action': 'retry', onclick: again },
      say('try_again', 'Try again')),
    // the bots need no connection (where offline play's files are kept: offline_table.js says
    // why not where they are not)
    h('button', { class: 'btn', type: 'button', 'data-action': 'play-offline',
      onclick: () => navigate('/offline') }, say('play_offline', 'Play offline'))));
  timer = setInterval(again, 3000);
  window.addEventListener('online', again);
}

async function start() {
  applyComfort(); // large cards, where this device asked for them (comfort.js)
  await setLang(pickLang()).catch(() => setLang('en')).catch(() => {});
  const playsOffline = /^\/offline(\/|$)/.test(location.pathname); // needs no connection
  if (playsOffline) route();
  const up = await reachable();
  if (!playsOffline) {
    if (up) route();
    else offline();
  }
  // finished offline matches not yet in the player's history go there (once each) now, and
  // whenever the connection comes back
  if (up) sendKept();
  window.addEventListener('online', sendKept);
}

/** Finished offline matches not yet in the player's history sent there (offline_records.js),
 * looked for only where offline play has kept something: a first visit loads nothing more. */
async function sendKept() {
  try {
    const dbs = indexedDB.databases ? await indexedDB.databases() : null;
    if (dbs && !dbs.some((d) => d.name === 'taash-offline')) return;
    (await import('./offline_records.js')).uploadRecords();
  } catch { /* no IndexedDB, or the module not kept offline: next time */ }
}

/** The service worker keeps the page and the files it loaded, so that it installs to a home
 * screen and opens offline (sw.js). */
function keepForOffline() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    const keep = performance.getEntriesByType('resource').map((e) => e.name)
      .filter((u) => new URL(u).pathname.startsWith('/assets/'));
    if (reg.active) reg.active.postMessage({ keep });
  }).catch(() => { /* no service worker here (private mode, an old browser): online only */ });
}

window.addEventListener('popstate', route);
start();
window.addEventListener('load', keepForOffline);
