// The home screen's new game: the game picker and the chosen game's options (both from the
// game descriptor, GET /api/games), its rules and a guided first deal, then a table against
// bots or one with friends (each other seat a friend or a bot; invite links to share).
import { api, mySeats, saveSeat, setting, setSetting, knownMe } from './api.js';
import { t } from './i18n.js';
import { h, fill, toast, showDialog, closeDialogs, copyText } from './ui.js';
import { madeHere } from './recap.js';
import { firstDealSeed, keepFirstSeed } from './fair.js';
import { loadGames, gameName } from './catalogue.js';
import { renderGamePicker, renderOptions, readOptions } from './home_options.js';

export class NewTable {
  constructor({ navigate }) {
    this.navigate = navigate;
    this.game = setting('game', '');
    this.games = null; // the games as the core states them (catalogue.js), once loaded
    this.mode = 'bots';
    this.seatTypes = {};
    this.gamePicker = h('div', { class: 'games', role: 'radiogroup', 'aria-label': t('game') });
    this.optionsBox = h('div', { class: 'options' });
    this.modeBox = h('div', { class: 'mode' });
    this.el = h('section', { class: 'panel new-game', 'data-section': 'new-game' },
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
          onclick: (e) => this.pickLesson(e.currentTarget) }, t('learn_to_play'))),
      h('details', { class: 'options-box' }, h('summary', null, t('options')), this.optionsBox),
      this.modeBox);
  }

  destroy() {
    this.dead = true;
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
    // under the Play button: a first screen still starts with a game (issue 43)
    const offer = this.firstOffer();
    if (offer) this.el.append(offer);
  }

  /** The chosen game's descriptor (null until the games are loaded). */
  desc() {
    return this.games ? this.games.find((g) => g.id === this.game) : null;
  }

  /** What a challenge to a friend offers (friends.js): this form's game, options and pace. */
  choice() {
    return { game: this.game, options: this.options(), live: this.liveBox ? this.liveBox.checked : false };
  }

  renderGames() {
    setSetting('game', this.game);
    renderGamePicker(this.gamePicker, this.games, this.game, (id) => { this.game = id; this.renderGames(); });
    renderOptions(this.optionsBox, this.desc());
    this.renderMode();
  }

  options() {
    return readOptions(this.optionsBox, this.desc());
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
      // a new table has a turn timer (issue 43: a friend who leaves must not stall the
      // table): 2 minutes a turn live, a day when played at one's own pace, until the player
      // picks another (kept in this browser; "off" included)
      const picked = setting('turn_timer_s', null);
      const timerFor = (live) => (picked !== null ? picked : live ? '120' : '86400');
      body.push(h('label', { class: 'field check' }, this.liveBox = h('input', {
        type: 'checkbox', checked: true, 'data-field': 'live',
        onchange: (e) => { if (setting('turn_timer_s', null) === null) this.timerBox.value = timerFor(e.target.checked); },
      }), h('span', null, t('live_table'))));
      body.push(h('p', { class: 'sub' }, t('anytime_note')));
      const timer = timerFor(true);
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

  /** A live table of this player against bots of `level`, their seat saved in this
   * browser; `then(table)` runs before the page goes to it. */
  async againstBots(button, level, then = () => {}) {
    if (!this.desc()) return; // the games have not come yet: the picker says so
    const seats = [me()];
    for (let s = 1; s < this.desc().seats; s++) seats.push({ type: 'bot', level });
    const res = await create({
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

  /** The games' guided first deals (/learn/<game>, learn.js), one button each. */
  lessonButtons() {
    return (this.games || []).map((g) => h('button', {
      class: 'btn', type: 'button', 'data-learn-game': g.id,
      onclick: () => { setSetting('learn_offered', '1'); closeDialogs('learn'); this.navigate(`/learn/${encodeURIComponent(g.id)}`); },
    }, gameName(g)));
  }

  /** "Learn to play": pick a game's guided first deal, or a game against easy bots with tips
   * at the moments they matter (learn()). */
  pickLesson(button) {
    const dlg = showDialog({
      name: 'learn', title: t('learn_pick'),
      body: [h('p', null, t('learn_offer')), h('div', { class: 'learn-games' }, this.lessonButtons()),
        h('p', null, h('button', { class: 'btn tool', type: 'button', 'data-action': 'learn-tips',
          onclick: () => { dlg.close(); this.learn(button); } }, t('learn_tips')))],
      actions: [{ label: t('close'), action: 'close' }],
    });
  }

  /** A first visit (nothing played in this browser, never offered): the guided deals offered
   * once under the new game, with "Not now"; null otherwise.  Offered is remembered. */
  firstOffer() {
    if (setting('learn_offered', '') || setting('learned', '') || mySeats().length || !this.games) return null;
    setSetting('learn_offered', '1');
    const box = h('div', { class: 'learn-offer', 'data-learn-offer': '', role: 'region', 'aria-label': t('learn_to_play') },
      h('p', null, t('learn_offer')),
      h('div', { class: 'learn-games' }, this.lessonButtons(),
        h('button', { class: 'btn tool', type: 'button', 'data-action': 'learn-later',
          onclick: () => box.remove() }, t('learn_offer_no'))));
    return box;
  }

  /** "Play with tips": the chosen game against easy bots, with tips at the moments they
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
    const seats = [me()];
    for (let s = 1; s < n; s++) {
      const type = this.seatTypes[`${this.game}/${s}`] || 'human';
      seats.push(type === 'human' ? { type: 'human' } : { type: 'bot', level: type });
    }
    const live = this.liveBox.checked;
    const timer = Number(this.timerBox.value);
    const res = await create({
      game: this.game, options: this.options(), seats, live, open: this.openBox.checked,
      chat_text: this.chatBox.checked,
      pass_and_play: this.otherHumans() && this.passBox.checked,
      // a live table waits for the friends invited to it (or for the host to start it)
      wait: live && this.otherHumans() && !this.passBox.checked,
      bot_delay_ms: Number(setting('bot_delay_ms', '600')),
      ...(timer > 0 ? { turn_timer_s: timer } : {}),
    }, button);
    if (!res) return;
    const mine = res.seats.find((s) => s.token);
    saveSeat(res.id, mine.seat, mine.token, this.game);
    const invites = res.seats.filter((s) => s.token && s.seat !== mine.seat).map((s) => ({ seat: s.seat, url: s.url }));
    keepInvites(res.id, mine.seat, invites);
    const go = () => this.navigate(`/t/${res.id}?seat=${mine.seat}`);
    if (!invites.length) { go(); return; }
    showInvites(invites, () => gameName(this.desc()), go);
  }
}

/** This browser's seat at a new table: the server names it after its player, if any. */
function me() {
  if (knownMe()) return { type: 'human' }; // the server names the seat after its player
  const name = setting('name', '').trim();
  return name ? { type: 'human', name } : { type: 'human' };
}

/** A new table (POST /api/tables, `button` disabled meanwhile), or null after saying why. */
async function create(body, button) {
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

/** The invite links of a new table's other seats, each to copy or share (titled `title()`);
 * `go` opens the table. */
function showInvites(invites, title, go) {
  showDialog({
    name: 'invites', title: t('invite_friends'),
    body: [h('p', null, t('invite_note')), invites.map((inv) => {
      const url = new URL(inv.url, location.origin).href;
      const field = h('input', { class: 'link', readonly: true, value: url, 'data-invite': inv.seat,
        'aria-label': t('seat_n', { n: inv.seat + 1 }), onfocus: (e) => e.target.select() });
      const share = navigator.share ? h('button', { class: 'btn', type: 'button', 'data-action': 'share',
        onclick: () => navigator.share({ title: title(), text: t('share_text'), url }).catch(() => {}) },
      t('share')) : null;
      return h('div', { class: `invite${share ? ' with-share' : ''}` }, h('span', null, t('seat_n', { n: inv.seat + 1 })), field,
        h('button', { class: 'btn', type: 'button', 'data-action': 'copy', onclick: async () => {
          toast((await copyText(url, field)) ? t('copied') : t('copy_failed'));
        } }, t('copy')), share);
    })],
    actions: [{ label: t('go_to_table'), action: 'open-table', primary: true, onClick: go }],
  });
}

/** The invite links kept with this browser's seat: the table's menu offers them again (menu.js). */
function keepInvites(id, seat, invites) {
  try {
    const all = JSON.parse(localStorage.getItem('taash.seats') || '{}');
    const key = `${id}/${seat}`;
    if (all[key]) all[key].invites = invites;
    localStorage.setItem('taash.seats', JSON.stringify(all));
  } catch { /* ignore */ }
}
