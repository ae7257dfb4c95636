// The home screen: play now against bots, a table with friends (invite links), join by link,
// open tables, the player's tables (on every device of theirs, and those whose tokens this
// browser keeps) and the settings, with the player's name.
import { api, mySeats, saveSeat, forgetSeat, setting, setSetting, getMeNamed, knownMe, updateMe,
  myServerTables, claimInvite } from './api.js';
import { LANGS, lang, t } from './i18n.js';
import { h, fill, toast, showDialog, copyText } from './ui.js';
import { accountPanel } from './account.js';
import { guestQuestion, openEmailLink, signInPanel } from './sign_in.js';
import { reviewUrl } from './review.js';
import { madeHere } from './recap.js';
import { firstDealSeed, keepFirstSeed } from './fair.js';
import { friendsPanel } from './friends.js';
import { watchAnswers } from './challenge_notice.js';
import { loadGames, gameName, gameOptions, optionLabel, valueLabel, unitLabel, countLabel, openLabel,
  flagMet, words } from './catalogue.js';

// each game's mark in the picker (a game the page has none for gets the spade)
const ICONS = { 'court-piece-2p': '\u2666\uFE0E', goat: '\u2663\uFE0E' };
const SPEEDS = {
  relaxed: { bot: 1200, pace: 2200 },
  normal: { bot: 600, pace: 1500 }, // a finished trick stays about 1.5 s (issue 43)
  fast: { bot: 150, pace: 350 },
};

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
    this.game = setting('game', '');
    this.games = null; // the games as the core states them (catalogue.js), once loaded
    this.mode = 'bots';
    this.seatTypes = {};
    this.render();
    this.loadGames();
    this.loadMe();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 15000);
    this.onVisible = () => { if (document.visibilityState === 'visible') this.refresh(); };
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /** The games from the server (or the service worker's copy); until they come the picker
   * says so, and if they cannot come it offers to try again. */
  async loadGames() {
    try {
      const games = await loadGames();
      if (this.dead) return;
      this.games = games;
      if (!games.some((g) => g.id === this.game)) this.game = games[0].id;
    } catch {
      if (this.dead) return;
      fill(this.gamePicker, h('p', { class: 'sub', 'data-games-unavailable': '' }, t('games_unavailable'), ' ',
        h('button', { class: 'btn', type: 'button', 'data-action': 'load-games', onclick: () => this.loadGames() }, t('try_again'))));
      return;
    }
    this.renderGames();
  }

  /** The chosen game's descriptor (null until the games are loaded). */
  desc() {
    return this.games ? this.games.find((g) => g.id === this.game) : null;
  }

  destroy() {
    this.dead = true;
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
    this.myTables = h('section', { class: 'panel my-tables', 'data-section': 'my-tables', hidden: true });
    this.lobby = h('div', { class: 'lobby' });
    this.gamePicker = h('div', { class: 'games', role: 'radiogroup', 'aria-label': t('game') });
    this.optionsBox = h('div', { class: 'options' });
    this.modeBox = h('div', { class: 'mode' });
    fill(this.root, h('main', { class: 'home', 'data-page': 'home' },
      h('header', { class: 'home-bar' },
        h('h1', { class: 'logo' }, h('span', { class: 'logo-cards', 'aria-hidden': 'true' }, '\u2660\uFE0E\u2665\uFE0E'), 'taash'),
        langSel),
      (this.friends = friendsPanel({ navigate: this.navigate, code: this.friendCode,
        choice: () => ({ game: this.game, options: this.options(), live: this.liveBox ? this.liveBox.checked : false }) })).noticeBox,
      h('p', { class: 'tagline' }, t('tagline')),
      this.playerBox = h('p', { class: 'player', 'data-section': 'player' }),
      // Play first (issue 43): a new player's first screen is a game to start, then their
      // tables and friends
      h('section', { class: 'panel new-game', 'data-section': 'new-game' },
        h('h2', null, t('new_game')),
        this.gamePicker,
        // the chosen game's rules (help.js, loaded when asked for) and a guided first deal
        h('div', { class: 'learn-row' },
          h('button', { class: 'btn', type: 'button', 'data-action': 'rules',
            onclick: async () => {
              const { openRules } = await import('./help.js');
              openRules({ game: this.game });
            } }, t('rules')),
          h('button', { class: 'btn', type: 'button', 'data-action': 'learn',
            onclick: (e) => this.learn(e.currentTarget) }, t('learn_to_play'))),
        h('details', { class: 'options-box' }, h('summary', null, t('options')), this.optionsBox),
        this.modeBox),
      this.myTables,
      this.friends.el,
      h('section', { class: 'panel join', 'data-section': 'join' },
        h('h2', null, t('join_table')),
        h('form', { class: 'join-form', onsubmit: (e) => { e.preventDefault(); this.joinLink(); } },
          this.linkInput = h('input', { type: 'text', inputmode: 'url', placeholder: t('paste_link'),
            'aria-label': t('paste_link'), 'data-field': 'link' }),
          h('button', { class: 'btn', type: 'submit', 'data-action': 'join' }, t('join'))),
        this.lobby,
        h('p', { class: 'sub' }, h('a', { href: '/review', 'data-action': 'review-record',
          onclick: (e) => { e.preventDefault(); this.navigate('/review'); } }, t('review_records')))),
      this.settings(),
      this.signInBox = h('div', { class: 'sign-in-box', 'data-sign-in-box': '' }),
      accountPanel({ code: this.linkCode, linked: () => this.navigate('/', true) })));
    if (this.games) this.renderGames();
    // the challenger told when a friend accepts: "Dima accepted: open the table" (issue 43)
    if (this.stopAnswers) this.stopAnswers();
    this.stopAnswers = watchAnswers(this.friends.noticeBox, this.navigate);
  }

  settings() {
    const p = knownMe();
    this.nameInput = h('input', { type: 'text', maxlength: 24, value: p ? p.name : setting('name', ''), 'data-field': 'name',
      placeholder: t('your_name'), 'aria-label': t('your_name'), title: t('name_hint'),
      onchange: (e) => this.rename(e.target) });
    const name = this.nameInput;
    const speed = h('select', { 'data-field': 'speed', 'aria-label': t('speed'),
      onchange: (e) => {
        const s = SPEEDS[e.target.value];
        setSetting('speed', e.target.value);
        setSetting('bot_delay_ms', String(s.bot));
        setSetting('pace', String(s.pace));
      } },
    Object.keys(SPEEDS).map((k) => h('option', { value: k, selected: setting('speed', 'normal') === k }, t(`speed_${k}`))));
    // the country of the public profile's flag (ISO 3166-1 alpha-2; the server checks it)
    this.countryInput = h('input', { type: 'text', maxlength: 2, size: 3, 'data-field': 'country', autocomplete: 'country',
      placeholder: 'PK', 'aria-label': t('country'), title: t('country_hint'), spellcheck: 'false',
      onchange: (e) => this.setCountry(e.target) });
    return h('section', { class: 'panel settings', 'data-section': 'settings' },
      h('h2', null, t('settings')),
      h('label', { class: 'field' }, h('span', null, t('your_name')), name),
      h('label', { class: 'field' }, h('span', null, t('country')), this.countryInput),
      h('label', { class: 'field' }, h('span', null, t('speed')), speed));
  }

  renderGames() {
    setSetting('game', this.game);
    const focused = this.gamePicker.contains(document.activeElement);
    fill(this.gamePicker, ...this.games.map((g) => h('label', {
      class: `game-choice${g.id === this.game ? ' chosen' : ''}`, 'data-game-choice': g.id,
    },
    h('input', { type: 'radio', name: 'game', value: g.id, checked: g.id === this.game,
      onchange: () => { this.game = g.id; this.renderGames(); } }),
    h('span', { class: 'game-icon', 'aria-hidden': 'true' }, ICONS[g.id] || '\u2660\uFE0E'),
    h('b', null, gameName(g)),
    h('small', null, words(`game_${g.id}_blurb`, '')))));
    // the picker is drawn anew: the keyboard's focus stays on the game chosen (arrow keys)
    if (focused) this.gamePicker.querySelector('input:checked').focus();
    this.renderOptions();
    this.renderMode();
  }

  /** The chosen game's options as the core states them: a select for a choice, a box for a
   * flag, a number (with the core's bounds) for a count, a select and a number for a count of
   * one of several units (Court Piece's session: coats, deals or open). */
  renderOptions() {
    const rows = this.desc().fields.map((f) => {
      if (f.kind === 'choice') {
        return h('label', { class: 'field' }, h('span', null, optionLabel(f)),
          h('select', { 'data-option': f.name }, f.values.map((v) => h('option', { value: String(v), selected: v === f.default }, valueLabel(f, v)))));
      }
      if (f.kind === 'flag') {
        return h('label', { class: 'field check' }, h('input', { type: 'checkbox', 'data-option': f.name, checked: f.default }),
          h('span', null, optionLabel(f)));
      }
      if (f.kind === 'count') {
        return h('label', { class: 'field' }, h('span', null, optionLabel(f)),
          h('input', { type: 'number', min: f.min, max: f.max, value: f.default, 'data-option': f.name, inputmode: 'numeric' }));
      }
      if (f.kind === 'count_of') {
        const chosen = f.default ? Object.keys(f.default)[0] : 'open';
        const choices = f.units.map((u) => h('option', { value: u.name, selected: u.name === chosen }, unitLabel(f, u)));
        if (f.open_label) choices.push(h('option', { value: 'open', selected: chosen === 'open' }, openLabel(f)));
        const unit = f.units.find((u) => u.name === chosen) || f.units[0];
        return [
          h('label', { class: 'field' }, h('span', null, optionLabel(f)), h('select', { 'data-option': f.name }, choices)),
          h('label', { class: 'field' }, h('span', null, countLabel(f, unit)),
            h('input', { type: 'number', min: unit.min, max: unit.max, value: f.default ? f.default[unit.name] : unit.default,
              'data-option': f.count_key, inputmode: 'numeric' })),
        ];
      }
      return null;
    });
    fill(this.optionsBox, ...rows.flat());
    this.linkOptions();
  }

  /** Options that depend on others: a flag whose `needs` are not met is off and greyed out
   * (Court Piece's ace rule counts only with double sar, CP-8); a count of units names what
   * it counts, takes that unit's bounds and default, and is hidden when open. */
  linkOptions() {
    const get = (f) => this.optionsBox.querySelector(`[data-option="${f}"]`);
    const fields = this.desc().fields;
    const sync = (changed) => {
      for (const f of fields) {
        if (f.kind === 'flag' && Object.keys(f.needs).length) {
          const box = get(f.name);
          box.disabled = !flagMet(f, get);
          if (box.disabled) box.checked = false;
          box.closest('label').classList.toggle('off', box.disabled);
        } else if (f.kind === 'count_of') {
          const n = get(f.count_key);
          const unit = f.units.find((u) => u.name === get(f.name).value);
          const label = n.closest('label');
          label.hidden = !unit;
          if (!unit) continue;
          label.firstChild.textContent = countLabel(f, unit);
          n.max = unit.max;
          if (changed === get(f.name)) n.value = unit.default; // a new unit: its own default
        }
      }
    };
    for (const f of fields) {
      if (f.kind !== 'count') get(f.name).addEventListener('change', (e) => sync(e.target));
    }
    sync(null);
  }

  options() {
    const desc = this.desc();
    return desc ? gameOptions(desc, (f) => this.optionsBox.querySelector(`[data-option="${f}"]`)) : undefined;
  }

  renderMode() {
    const tab = (m, label) => h('button', {
      class: `tab${this.mode === m ? ' on' : ''}`, type: 'button', role: 'tab',
      'aria-selected': this.mode === m ? 'true' : 'false', 'data-mode': m,
      onclick: () => { this.mode = m; this.renderMode(); },
    }, label);
    const body = [];
    if (this.mode === 'bots') {
      const level = setting('level', 'easy');
      body.push(h('div', { class: 'field' }, h('span', null, t('bot_level')),
        h('div', { class: 'segmented', role: 'radiogroup' }, ['random', 'easy', 'hard'].map((l) => h('label', { 'data-level': l },
          h('input', { type: 'radio', name: 'level', value: l, checked: l === level, onchange: () => setSetting('level', l) }),
          h('span', null, t(`level_${l}`)))))));
      body.push(h('button', { class: 'btn primary big', type: 'button', 'data-action': 'play-bots',
        onclick: (e) => this.playBots(e.currentTarget) }, t('play_now')));
    } else {
      const { seats: n, teams } = this.desc();
      const mine = teams.find((team) => team.includes(0)) || [0];
      const rows = [];
      for (let s = 1; s < n; s++) {
        const type = this.seatTypes[`${this.game}/${s}`] || 'human';
        const rel = mine.includes(s) ? t('partner') : t('opponent');
        rows.push(h('div', { class: 'seat-row', 'data-seat-row': s },
          h('span', null, `${t('seat_n', { n: s + 1 })} · ${rel}`),
          h('select', { 'data-seat-type': s, 'aria-label': `${t('seat_n', { n: s + 1 })} · ${rel}`, onchange: (e) => { this.seatTypes[`${this.game}/${s}`] = e.target.value; this.showPassAndPlay(); } },
            h('option', { value: 'human', selected: type === 'human' }, t('friend')),
            ['easy', 'hard', 'random'].map((l) => h('option', { value: l, selected: type === l }, `${t('bot')} · ${t(`level_${l}`)}`)))));
      }
      body.push(h('div', { class: 'seat-rows' }, h('div', { class: 'seat-row me' },
        h('span', null, `${t('seat_n', { n: 1 })} · ${t('you')}`)), rows));
      body.push(h('label', { class: 'field check' }, this.liveBox = h('input', { type: 'checkbox', checked: true, 'data-field': 'live' }),
        h('span', null, t('live_table'))));
      body.push(h('p', { class: 'sub' }, t('anytime_note')));
      const timer = setting('turn_timer_s', '');
      body.push(h('label', { class: 'field' }, h('span', null, t('turn_timer')),
        this.timerBox = h('select', { 'data-field': 'turn_timer', onchange: (e) => setSetting('turn_timer_s', e.target.value) },
          [['', 'timer_off'], ['30', 'timer_30s'], ['120', 'timer_2m'], ['86400', 'timer_1d']].map(([v, key]) =>
            h('option', { value: v, selected: v === timer }, t(key))))));
      body.push(h('label', { class: 'field check' }, this.openBox = h('input', { type: 'checkbox', 'data-field': 'open' }),
        h('span', null, t('list_in_lobby'))));
      // quick chat takes phrases and emoji; free text only where the creator allows it
      body.push(h('label', { class: 'field check' }, this.chatBox = h('input', { type: 'checkbox', 'data-field': 'chat-text' }),
        h('span', null, t('allow_chat_text'))));
      // one device passed round several people's seats: asked for on purpose (the server
      // gives a player one seat of a table otherwise), and only where another seat is a person's
      body.push(this.passRow = h('label', { class: 'field check' }, this.passBox = h('input', { type: 'checkbox', 'data-field': 'pass-and-play' }),
        h('span', null, t('pass_and_play'))));
      this.showPassAndPlay();
      body.push(h('button', { class: 'btn primary big', type: 'button', 'data-action': 'create-table',
        onclick: (e) => this.createFriends(e.currentTarget) }, t('create_table')));
    }
    fill(this.modeBox,
      h('div', { class: 'tabs', role: 'tablist' }, tab('bots', t('with_bots')), tab('friends', t('with_friends'))),
      h('div', { class: 'mode-body' }, body));
  }

  /** Whether another seat of the new table is a person's (the form's seat rows). */
  otherHumans() {
    const n = this.desc() ? this.desc().seats : 0;
    for (let s = 1; s < n; s++) if ((this.seatTypes[`${this.game}/${s}`] || 'human') === 'human') return true;
    return false;
  }

  /** "Pass and play" is offered while another seat is a person's. */
  showPassAndPlay() {
    if (this.passRow) this.passRow.hidden = !this.otherHumans();
  }

  /** The player of this browser's session: their name in the header and the settings. A
   * name set here before players existed becomes the player's name once. */
  async loadMe() {
    let p;
    try { p = await getMeNamed(); } catch { return; } // an older server: the local name stays
    if (this.dead) return;
    this.showMe(p);
    fill(this.signInBox, signInPanel({ me: p, done: () => this.navigate('/', true) }));
    // signed in here before the question about the guest's tables was answered: asked again
    if (p.guest_tables_waiting && !document.querySelector('[data-dialog="merge"]')) {
      guestQuestion(p.guest_tables_waiting).then(() => { if (!this.dead) this.refresh(); });
    }
    this.refresh();
  }

  async setCountry(input) {
    const country = input.value.trim().toUpperCase();
    try {
      const p = await updateMe({ country });
      input.value = p.country || '';
      toast(t('country_saved'));
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
    }
  }

  async loadCountry(p) {
    try {
      const pub = await api('GET', `/api/players/${encodeURIComponent(p.id)}`);
      if (!this.dead && document.activeElement !== this.countryInput) this.countryInput.value = pub.country || '';
    } catch { /* an older server: no country */ }
  }

  showMe(p) {
    if (this.countryInput && this.countryInput.dataset.loaded !== p.id) {
      this.countryInput.dataset.loaded = p.id;
      this.loadCountry(p);
    }
    if (this.nameInput && document.activeElement !== this.nameInput) this.nameInput.value = p.name;
    // the name opens the player's own profile: ratings, stats, history (issue 43)
    const [before, after] = t('playing_as', { name: '\u0000' }).split('\u0000');
    fill(this.playerBox, h('span', { class: 'sub', 'data-player-name': p.name }, before,
      h('a', { href: `/p/${encodeURIComponent(p.id)}`, 'data-action': 'my-profile',
        onclick: (e) => { e.preventDefault(); this.navigate(`/p/${encodeURIComponent(p.id)}`); } }, p.name),
      after ?? ''));
  }

  async rename(input) {
    const name = input.value.trim();
    if (!knownMe()) { setSetting('name', name); setSetting('name_synced', ''); return; }
    try {
      const p = await updateMe({ name });
      setSetting('name', p.name);
      setSetting('name_synced', '1');
      this.showMe(p);
      toast(t('name_saved'));
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      input.value = knownMe().name;
    }
  }

  me() {
    if (knownMe()) return { type: 'human' }; // the server names the seat after its player
    const name = setting('name', '').trim();
    return name ? { type: 'human', name } : { type: 'human' };
  }

  async create(body, button) {
    if (button) button.disabled = true;
    try {
      // the creator's seed for the first deal (fair deals), checked by the table's fair.js
      const seed = firstDealSeed();
      const res = await api('POST', '/api/tables', { body: seed ? { ...body, seed } : body });
      const mine = res && res.seats.find((s) => s.token);
      if (seed && mine) keepFirstSeed(res.id, mine.seat, seed);
      if (mine) madeHere(res.id, mine.seat); // its first opening recaps nothing (issue 43)
      return res;
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      return null;
    } finally {
      if (button) button.disabled = false;
    }
  }

  /** A live table of this player against bots of `level`, their seat saved in this
   * browser; `then(table)` runs before the page goes to it. */
  async againstBots(button, level, then = () => {}) {
    if (!this.desc()) return; // the games have not come yet: the picker says so
    const seats = [this.me()];
    for (let s = 1; s < this.desc().seats; s++) seats.push({ type: 'bot', level });
    const res = await this.create({
      game: this.game, options: this.options(), seats, live: true,
      bot_delay_ms: Number(setting('bot_delay_ms', '600')),
    }, button);
    if (!res) return;
    const mine = res.seats.find((s) => s.token);
    saveSeat(res.id, mine.seat, mine.token, this.game);
    then(res);
    this.navigate(`/t/${res.id}?seat=${mine.seat}`);
  }

  playBots(button) {
    return this.againstBots(button, setting('level', 'easy'));
  }

  /** "Learn to play": the chosen game against easy bots, with tips at the moments they
   * matter (guide.js); the table is marked as guided in this browser. */
  learn(button) {
    return this.againstBots(button, 'easy', (res) => {
      let guided = [];
      try { guided = JSON.parse(setting('guided', '[]')); } catch { /* none yet */ }
      if (!Array.isArray(guided)) guided = [];
      setSetting('guided', JSON.stringify([...guided.filter((x) => x !== res.id), res.id].slice(-10)));
    });
  }

  async createFriends(button) {
    if (!this.desc()) return;
    const n = this.desc().seats;
    const seats = [this.me()];
    for (let s = 1; s < n; s++) {
      const type = this.seatTypes[`${this.game}/${s}`] || 'human';
      seats.push(type === 'human' ? { type: 'human' } : { type: 'bot', level: type });
    }
    const live = this.liveBox.checked;
    const timer = Number(this.timerBox.value);
    const res = await this.create({
      game: this.game, options: this.options(), seats, live, open: this.openBox.checked,
      chat_text: this.chatBox.checked,
      pass_and_play: this.otherHumans() && this.passBox.checked,
      bot_delay_ms: Number(setting('bot_delay_ms', '600')),
      ...(timer > 0 ? { turn_timer_s: timer } : {}),
    }, button);
    if (!res) return;
    const mine = res.seats.find((s) => s.token);
    saveSeat(res.id, mine.seat, mine.token, this.game);
    const invites = res.seats.filter((s) => s.token && s.seat !== mine.seat).map((s) => ({ seat: s.seat, url: s.url }));
    this.keepInvites(res.id, mine.seat, invites);
    const go = () => this.navigate(`/t/${res.id}?seat=${mine.seat}`);
    if (!invites.length) { go(); return; }
    showDialog({
      name: 'invites', title: t('invite_friends'),
      body: [h('p', null, t('invite_note')), invites.map((inv) => {
        const url = new URL(inv.url, location.origin).href;
        const field = h('input', { class: 'link', readonly: true, value: url, 'data-invite': inv.seat,
          'aria-label': t('seat_n', { n: inv.seat + 1 }), onfocus: (e) => e.target.select() });
        const share = navigator.share ? h('button', { class: 'btn', type: 'button', 'data-action': 'share',
          onclick: () => navigator.share({ title: gameName(this.desc()), text: t('share_text'), url }).catch(() => {}) },
        t('share')) : null;
        return h('div', { class: `invite${share ? ' with-share' : ''}` }, h('span', null, t('seat_n', { n: inv.seat + 1 })), field,
          h('button', { class: 'btn', type: 'button', 'data-action': 'copy', onclick: async () => {
            toast((await copyText(url, field)) ? t('copied') : t('copy_failed'));
          } }, t('copy')), share);
      })],
      actions: [{ label: t('go_to_table'), action: 'open-table', primary: true, onClick: go }],
    });
  }

  keepInvites(id, seat, invites) {
    try {
      const all = JSON.parse(localStorage.getItem('taash.seats') || '{}');
      const key = `${id}/${seat}`;
      if (all[key]) all[key].invites = invites;
      localStorage.setItem('taash.seats', JSON.stringify(all));
    } catch { /* ignore */ }
  }

  /** A pasted link: an invite (with a seat token) is claimed for the player, once; any
   * other table link opens as it is. */
  async joinLink() {
    const text = this.linkInput.value.trim();
    let url;
    try { url = new URL(text, location.origin); } catch { url = null; }
    const m = url && url.pathname.match(/^\/t\/([^/]+)\/?$/);
    if (!m) {
      toast(t('bad_link'), 'error');
      return;
    }
    const token = url.searchParams.get('token');
    if (token && knownMe()) {
      try {
        const r = await claimInvite(m[1], token);
        if (r.token) saveSeat(m[1], r.seat, r.token, null);
        this.navigate(`/t/${m[1]}?seat=${r.seat}`);
        return;
      } catch (e) {
        if (e.code === 'invite_used') {
          toast(t('invite_used'), 'error');
          return;
        }
        if (e.code === 'seated_already') {
          // the player's own invite link, or one for a second seat here: their own seat opens,
          // with why the link's did not (issue 43)
          const own = (await myServerTables().catch(() => [])).find((r) => r.id === m[1]);
          if (own) {
            toast(t('seated_already', { n: own.seat + 1 }), 'info', 12000);
            this.navigate(`/t/${m[1]}?seat=${own.seat}`);
            return;
          }
        }
        if (e.status !== 404 && e.status !== 405) {
          toast(`${t('error')}: ${e.message}`, 'error');
          return;
        }
        // a server without claims: the link opens with its token, as before
      }
    }
    this.navigate(`/t/${m[1]}${url.search}`);
  }

  /** My tables: the player's, from the server (the same on each of their devices), and the
   * tables of the seat tokens this browser keeps (tables from before players, invites). */
  async refresh() {
    if (this.dead) return;
    const seats = mySeats();
    const tokens = seats.map((s) => s.token);
    const [server, local, lobby] = await Promise.all([
      knownMe() ? myServerTables().catch(() => null) : [],
      tokens.length ? api('POST', '/api/my-tables', { body: { tokens } }).catch(() => null) : [],
      api('GET', '/api/lobby').catch(() => []),
    ]);
    if (this.dead) return;
    if (server || local) this.renderMyTables(server || [], local || [], seats);
    this.renderLobby(Array.isArray(lobby) ? lobby : []);
  }

  renderMyTables(server, local, seats) {
    const key = (r) => `${r.id}/${r.seat}`;
    const theirs = new Set(server.map(key));
    const kept = local.filter((r) => !theirs.has(key(r)) && seats.some((s) => s.id === r.id && s.seat === r.seat));
    const known = [...server.map((r) => ({ ...r, player: true })), ...kept];
    known.sort((a, b) => (b.your_turn - a.your_turn) || (a.over - b.over) || ((b.updated || 0) > (a.updated || 0) ? 1 : -1));
    this.myTables.hidden = !known.length;
    const turns = known.filter((r) => r.your_turn && !r.over).length;
    fill(this.myTables,
      h('h2', null, t('my_tables'), turns ? h('span', { class: 'count-badge' }, String(turns)) : null),
      h('ul', { class: 'table-list' }, known.map((r) => h('li', { 'data-my-table': r.id, 'data-your-turn': r.your_turn && !r.over ? 'true' : 'false' },
        h('button', { class: 'row-main', type: 'button', onclick: () => this.navigate(`/t/${r.id}?seat=${r.seat}`) },
          h('b', null, t(`game_${r.game}`)),
          h('small', null, rowWho(r, when(r.updated))),
          h('span', { class: `badge${r.over ? ' done' : r.your_turn ? ' turn' : ''}`, 'data-turn': r.over ? 'over' : r.your_turn ? 'yours' : 'theirs' }, rowTurn(r))),
        r.over ? h('button', { class: 'btn tool', type: 'button', 'data-action': 'review-table',
          onclick: () => this.navigate(reviewUrl(r.id, null, r.seat)) }, t('review_last')) : null,
        r.player ? null : h('button', { class: 'btn icon forget', type: 'button', 'aria-label': t('forget'), title: t('forget'),
          onclick: () => { forgetSeat(r.id, r.seat); this.refresh(); } }, '×')))));
  }

  renderLobby(rows) {
    if (!rows.length) { fill(this.lobby); return; }
    fill(this.lobby, h('h3', null, t('open_tables')), h('ul', { class: 'table-list' }, rows.map((r) => h('li', { 'data-lobby': r.id },
      h('div', { class: 'row-main' }, h('b', null, t(`game_${r.game}`)), h('small', null, t('free_seats', { n: (r.free_seats || []).length }))),
      h('button', { class: 'btn', type: 'button', 'data-action': 'join-open', onclick: () => this.joinOpen(r) }, t('join'))))));
  }

  async joinOpen(r) {
    try {
      const res = await api('POST', `/api/tables/${r.id}/join`, { body: {} });
      saveSeat(r.id, res.seat, res.token, r.game);
      this.navigate(`/t/${r.id}?seat=${res.seat}`);
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
    }
  }
}

/** A seat at a table as the table names it: its name, else a bot's name, else "Player n". */
function seatLabel(s) {
  if (s.name) return s.name;
  return s.type === 'bot' ? t(`bot_name_${s.seat % 4}`) : t('player_n', { n: s.seat + 1 });
}

/** Names as a list in the page's language: "Bilal, Chandni and Dima". */
function listOf(names) {
  try {
    return new Intl.ListFormat(lang(), { type: 'conjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

/** A home row's second line: the other players at the table and when it last moved (a server
 * that sends no seats: "Seat n", as before). */
export function rowWho(r, since = '') {
  const others = (r.seats || []).filter((s) => s.seat !== r.seat).map(seatLabel);
  const who = others.length ? t('with_players', { names: listOf(others) }) : t('seat_n', { n: r.seat + 1 });
  return since ? `${who} · ${since}` : who;
}

/** A home row's badge: finished, your turn, or whose turn it is ("Dima's turn"). */
export function rowTurn(r) {
  if (r.over) return t('finished');
  if (r.your_turn) return t('your_turn_short');
  const mover = (r.seats || []).find((s) => s.seat === r.to_move);
  return mover ? t('turn_of', { name: seatLabel(mover) }) : t('waiting');
}

function when(updated) {
  if (!updated) return '';
  const ms = typeof updated === 'number' ? (updated < 1e12 ? updated * 1000 : updated) : Date.parse(updated);
  if (!Number.isFinite(ms)) return '';
  const s = Math.round((ms - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(lang(), { numeric: 'auto' });
  const a = Math.abs(s);
  if (a < 60) return rtf.format(s, 'second');
  if (a < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (a < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}
