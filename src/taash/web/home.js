// The home screen: play now against bots, a table with friends (invite links), join by link,
// open tables, the player's tables (on every device of theirs, and those whose tokens this
// browser keeps) and the settings, with the player's name.  Home composes the screen's parts:
// the new game (home_new_table.js), my tables (home_tables.js), friends and challenges
// (friends.js), joining (home_join.js), the featured tables to watch (home_featured.js), the
// player's settings (home_player.js) and offline play's files (offline_panel.js).
import { api, mySeats, getMeNamed, knownMe, updateMe, myServerTables } from './api.js';
import { LANGS, lang, t } from './i18n.js';
import { h, fill } from './ui.js';
import { gameName } from './catalogue.js';
import { accountPanel } from './account.js';
import { guestQuestion, openEmailLink, signInPanel } from './sign_in.js';
import { friendsPanel } from './friends.js';
import { watchAnswers } from './challenge_notice.js';
import { showFairPlayNotices } from './fairplay_notice.js';
import { NewTable } from './home_new_table.js';
import { MyTables } from './home_tables.js';
import { JoinPanel } from './home_join.js';
import { Featured } from './home_featured.js';
import { puzzleCard } from './home_puzzle.js';
import { PlayerSettings } from './home_player.js';
import { offlinePanel } from './offline_panel.js';

export function mountHome(root, { navigate, relang, linkCode, emailLink, friendCode }) {
  if (emailLink) {
    // the mailed link first, the home screen after it: the home screen asks who this browser
    // is (a first visit is made a guest), and that answer's cookie could land after the
    // sign-in's and leave the browser a guest (a test run saw it)
    let dead = false;
    fill(root, h('main', { class: 'home', 'data-page': 'home' }, h('p', { class: 'sub', 'data-email-link': '' }, t('loading'))));
    openEmailLink(emailLink.kind, emailLink.token, () => { if (!dead) navigate('/', true); });
    return () => { dead = true; };
  }
  const home = new Home(root, navigate, relang, linkCode, friendCode);
  return () => home.destroy();
}

class Home {
  constructor(root, navigate, relang, linkCode, friendCode) {
    Object.assign(this, { root, navigate, relang, linkCode, friendCode });
    this.render();
    // busy until what the first screen loads is in (the games, the player, their tables, the
    // lobby, their friends, today's events): a screen reader waits for it, and nothing moves
    // under a finger after data-ready (the page's tests tap once it is set)
    Promise.allSettled([this.newTable.loadGames(), this.loadMe(), this.refresh(), this.friends.loaded,
      this.loadFeed(), this.puzzles.loaded,
      showFairPlayNotices(this.fairPlay)])
      .then(() => {
        if (this.dead) return;
        this.main.removeAttribute('aria-busy');
        this.main.dataset.ready = '';
      });
    this.timer = setInterval(() => this.refresh(), 15000);
    this.onVisible = () => { if (document.visibilityState === 'visible') this.refresh(); };
    document.addEventListener('visibilitychange', this.onVisible);
  }

  destroy() {
    this.dead = true;
    this.newTable.destroy();
    this.player.destroy();
    this.offline.destroy();
    clearInterval(this.timer);
    if (this.friends) this.friends.destroy();
    if (this.stopAnswers) this.stopAnswers();
    document.removeEventListener('visibilitychange', this.onVisible);
  }

  render() {
    document.title = 'taash';
    const langSel = h('select', { class: 'lang', 'data-lang': '', 'aria-label': t('language'),
      onchange: (e) => {
        if (knownMe()) updateMe({ language: e.target.value }).catch(() => {});
        this.relang(e.target.value);
      } },
    LANGS.map((l) => h('option', { value: l.code, selected: l.code === lang() }, l.name)));
    this.newTable = new NewTable({ navigate: this.navigate });
    this.myTables = new MyTables({ navigate: this.navigate, forgot: () => this.refresh() });
    this.join = new JoinPanel({ navigate: this.navigate });
    this.featured = new Featured({ navigate: this.navigate });
    this.puzzles = puzzleCard(this.navigate); // the daily puzzles (issue 49)
    this.friends = friendsPanel({ navigate: this.navigate, code: this.friendCode, choice: () => this.newTable.choice() });
    this.player = new PlayerSettings({ navigate: this.navigate });
    this.offline = offlinePanel('home');
    fill(this.root, this.main = h('main', { class: 'home', 'data-page': 'home', 'aria-busy': 'true' },
      h('header', { class: 'home-bar' },
        h('h1', { class: 'logo' }, h('span', { class: 'logo-cards', 'aria-hidden': 'true' }, '\u2660\uFE0E\u2665\uFE0E'), 'taash'),
        langSel),
      this.friends.noticeBox,
      // a moderator's decision about this player, told until they have read it (issue 48)
      this.fairPlay = h('div', { class: 'fairplay-notices', 'data-section': 'fairplay-notices', hidden: true }),
      h('p', { class: 'tagline' }, t('tagline')),
      this.player.box,
      // Play first (issue 43): a new player's first screen is a game to start, then their
      // tables and friends
      this.newTable.el,
      h('p', { class: 'events-link' }, h('a', { href: '/assets/events.html', 'data-action': 'events' }, t('events_link'))),
      this.feed = h('ul', { class: 'event-feed', 'data-section': 'event-feed', hidden: true }),
      this.puzzles.el,
      this.myTables.el,
      this.featured.el,
      this.friends.el,
      this.join.el,
      this.offline.el,
      this.player.el,
      this.signInBox = h('div', { class: 'sign-in-box', 'data-sign-in-box': '' }),
      accountPanel({ code: this.linkCode, linked: () => this.navigate('/', true) })));
    // the challenger told when a friend accepts: "Dima accepted: open the table" (issue 43)
    if (this.stopAnswers) this.stopAnswers();
    this.stopAnswers = watchAnswers(this.friends.noticeBox, this.navigate);
  }

  /** The player of this browser's session: their name in the header and the settings. A
   * name set here before players existed becomes the player's name once. */
  async loadMe() {
    let p;
    try { p = await getMeNamed(); } catch { return; } // an older server: the local name stays
    if (this.dead) return;
    this.player.showMe(p);
    fill(this.signInBox, signInPanel({ me: p, done: () => this.navigate('/', true) }));
    // signed in here before the question about the guest's tables was answered: asked again
    if (p.guest_tables_waiting && !document.querySelector('[data-dialog="merge"]')) {
      guestQuestion(p.guest_tables_waiting).then(() => { if (!this.dead) this.refresh(); });
    }
    await this.refresh();
  }

  /** The event feed (issue 45): today's duplicate event of each game and how many entered
   * it, asked after the screen is up (a line each; none at all if the server has no events). */
  async loadFeed() {
    let today;
    try { today = await api('GET', '/api/events/today'); } catch { return; }
    if (this.dead || !Array.isArray(today)) return;
    const lines = [...today].sort((a, b) => b.entrants - a.entrants).map((e) => {
      const game = gameName({ id: e.game, name: e.game });
      const text = e.entrants ? t('event_feed', { game, n: e.entrants }) : t('event_feed_none', { game });
      return h('li', { 'data-event': e.id, 'data-entrants': String(e.entrants) },
        h('a', { href: `/assets/events.html?daily=${encodeURIComponent(e.game)}` }, text),
        e.entered ? h('span', { class: 'badge' }, t('event_feed_entered')) : null);
    });
    fill(this.feed, ...lines);
    this.feed.hidden = !lines.length;
  }

  /** My tables: the player's, from the server (the same on each of their devices), and the
   * tables of the seat tokens this browser keeps (tables from before players, invites). */
  async refresh() {
    if (this.dead) return;
    // one started before the player was known (it could not ask for their tables) may answer
    // after a later one: only the latest draws, or a slow early one would empty the list
    const n = (this.refreshes = (this.refreshes || 0) + 1);
    const seats = mySeats();
    const tokens = seats.map((s) => s.token);
    const [server, local, lobby, featured] = await Promise.all([
      knownMe() ? myServerTables().catch(() => null) : [],
      tokens.length ? api('POST', '/api/my-tables', { body: { tokens } }).catch(() => null) : [],
      api('GET', '/api/lobby').catch(() => []),
      api('GET', '/api/featured').catch(() => []), // an older server: none
    ]);
    if (this.dead || n !== this.refreshes) return;
    if (server || local) this.myTables.render(server || [], local || [], seats);
    this.join.renderLobby(Array.isArray(lobby) ? lobby : []);
    this.featured.render(Array.isArray(featured) ? featured : []);
  }
}
