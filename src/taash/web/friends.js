// The home screen's friends panel: this player's friend code and link, adding a friend by
// theirs (both confirm), requests received and sent, friends (online, last seen) with a
// challenge (which game is asked in the friend's row), remove and block; challenges received
// (accept opens the table, or waits for the other friends a four-seat challenge invited;
// decline) and sent (withdraw).  A new challenge shows a notice with Accept and Decline
// (challenge_notice.js) in `noticeBox`, a row the home page puts near its top.  It asks the
// server again every few seconds while the page is open.
import { api, knownMe } from './api.js';
import { firstGameOf, gameName, gameOf, loadGames } from './catalogue.js';
import { t } from './i18n.js';
import { h, fill, toast, copyText } from './ui.js';
import { noticeChallenges } from './challenge_notice.js';

const POLL_MS = 5000;

/** The panel's element; `choice()` gives {game, options, live} for a challenge; `code` a
 * friend code to fill in (a /friend/CODE link opened). */
export function friendsPanel({ choice, navigate, code }) {
  const panel = new FriendsPanel(choice, navigate, code);
  return panel;
}

class FriendsPanel {
  constructor(choice, navigate, code) {
    Object.assign(this, { choice, navigate });
    this.first = true;
    this.noticeBox = h('div', { class: 'challenge-notices', 'data-challenge-notices': '', role: 'status',
      'aria-live': 'polite' });
    this.codeBox = h('p', { class: 'friend-code', 'data-field': 'friend-code' });
    this.input = h('input', { type: 'text', placeholder: t('friend_code_placeholder'), value: code || '',
      'aria-label': t('friend_code_placeholder'), 'data-field': 'add-friend', autocomplete: 'off' });
    this.lists = h('div', { class: 'friend-lists' });
    this.el = h('section', { class: 'panel friends', 'data-section': 'friends' },
      h('h2', null, t('friends'), ' ', h('small', null, h('a', { href: '/leaderboard', 'data-action': 'leaderboard',
        onclick: (e) => { e.preventDefault(); this.navigate('/leaderboard'); } }, t('leaderboards')),
        ' · ', h('a', { href: '/clubs', 'data-action': 'clubs' }, t('clubs')),
        ' · ', h('a', { href: '/tournaments', 'data-action': 'tournaments' }, t('tournaments')))),
      this.codeBox,
      h('form', { class: 'join-form', onsubmit: (e) => { e.preventDefault(); this.add(); } },
        this.input,
        h('button', { class: 'btn', type: 'submit', 'data-action': 'add-friend' }, t('add_friend'))),
      this.lists,
      this.teamForm());
    this.loaded = this.refresh();
    this.timer = setInterval(() => this.refresh(), POLL_MS);
  }

  destroy() {
    clearInterval(this.timer);
  }

  async add() {
    const code = this.input.value.trim().split('/').pop();
    if (!code) return;
    try {
      const r = await api('POST', '/api/me/friends', { body: { code } });
      this.input.value = '';
      toast(r.state === 'friends' ? t('friend_now') : t('friend_asked'));
    } catch (e) {
      toast(e.message, 'error');
    }
    this.refresh();
  }

  async act(method, path, body, done) {
    try {
      const r = await api(method, path, body === undefined ? {} : { body });
      if (done) done(r);
    } catch (e) {
      toast(e.message, 'error');
    }
    this.refresh();
  }

  async refresh() {
    if ((!this.el.isConnected || document.hidden) && !this.first) return;
    let f;
    let c;
    try {
      [f, c] = await Promise.all([api('GET', '/api/me/friends'), api('GET', '/api/me/challenges')]);
    } catch {
      return;  // offline or no session yet: the next round asks again
    }
    const link = `${location.origin}${f.url}`;
    fill(this.codeBox, t('your_friend_code'), ' ', h('b', { 'data-friend-code': f.code }, f.code), ' ',
      h('button', { class: 'btn small', type: 'button', 'data-action': 'copy-friend-link',
        onclick: () => copyText(link).then(() => toast(t('copied'))) }, t('copy_link')));
    const me = knownMe() ? knownMe().id : null;
    noticeChallenges(this.noticeBox, c.received, this.navigate, me);
    this.first = false;
    const waiting = (ch) => (ch.invited || []).some((i) => i.player === me && i.state === 'accepted');
    const person = (p) => h('a', { href: `/p/${encodeURIComponent(p.player)}`, 'data-player': p.player,
      onclick: (e) => { e.preventDefault(); this.navigate(`/p/${encodeURIComponent(p.player)}`); } }, p.name);
    const seen = (p) => h('small', { class: p.online ? 'online' : 'last-seen' },
      p.online ? t('online') : p.last_seen ? t('last_seen', { when: new Date(p.last_seen).toLocaleString() }) : '');
    const row = (attrs, ...kids) => h('li', attrs, ...kids);
    const sections = [];
    if (c.received.length) {
      sections.push(h('h3', null, t('challenges_received')), h('ul', { 'data-list': 'challenges-received' },
        c.received.map((ch) => row({ 'data-challenge': ch.id },
          t('challenge_from', { name: ch.from.name, game: t(`game_${ch.game}`) }), ' ',
          h('small', null, ch.live ? t('live') : t('play_anytime')), ' ',
          waiting(ch) ? h('small', { 'data-field': 'challenge-waiting' }, t('challenge_accepted_waiting'))
            : h('button', { class: 'btn small primary', type: 'button', 'data-action': 'accept-challenge',
              onclick: () => this.act('POST', `/api/me/challenges/${ch.id}/accept`, undefined,
                (r) => (r.url ? this.navigate(r.url) : toast(t('challenge_waiting')))) },
            t('accept')),
          h('button', { class: 'btn small', type: 'button', 'data-action': 'decline-challenge',
            onclick: () => this.act('POST', `/api/me/challenges/${ch.id}/decline`) }, t('decline'))))));
    }
    if (c.sent.length) {
      sections.push(h('h3', null, t('challenges_sent')), h('ul', { 'data-list': 'challenges-sent' },
        c.sent.map((ch) => row({ 'data-challenge': ch.id },
          t('challenge_to', { name: (ch.invited || []).map((i) => i.name).join(', ') || ch.to.name, game: t(`game_${ch.game}`) }), ' ',
          h('button', { class: 'btn small', type: 'button', 'data-action': 'withdraw-challenge',
            onclick: () => this.act('POST', `/api/me/challenges/${ch.id}/decline`) }, t('withdraw'))))));
    }
    if (f.asking.length) {
      sections.push(h('h3', null, t('friend_requests')), h('ul', { 'data-list': 'friend-requests' },
        f.asking.map((p) => row({ 'data-friend': p.player }, person(p), ' ',
          h('button', { class: 'btn small primary', type: 'button', 'data-action': 'accept-friend',
            onclick: () => this.act('POST', `/api/me/friends/${p.player}/accept`) }, t('accept')),
          h('button', { class: 'btn small', type: 'button', 'data-action': 'decline-friend',
            onclick: () => this.act('DELETE', `/api/me/friends/${p.player}`) }, t('decline'))))));
    }
    sections.push(h('ul', { 'data-list': 'friends' },
      f.friends.length ? f.friends.map((p) => row({ 'data-friend': p.player }, person(p), ' ', seen(p), ' ',
        h('button', { class: 'btn small primary', type: 'button', 'data-action': 'challenge',
          'aria-expanded': String(!!this.asking && this.asking.player === p.player),
          onclick: () => this.challenge(p) }, t('challenge')),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'remove-friend',
          onclick: () => this.act('DELETE', `/api/me/friends/${p.player}`) }, t('remove')),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'block',
          onclick: () => this.act('POST', `/api/me/friends/${p.player}/block`) }, t('block')),
        this.asking && this.asking.player === p.player ? this.asking.el : null))
        : h('li', { class: 'muted' }, t('no_friends_yet'))));
    if (f.asked.length) {
      sections.push(h('p', { class: 'muted', 'data-list': 'friend-asked' },
        t('friend_waiting', { names: f.asked.map((p) => p.name).join(', ') })));
    }
    if (f.blocked.length) {
      sections.push(h('h3', null, t('blocked')), h('ul', { 'data-list': 'blocked' },
        f.blocked.map((p) => row({ 'data-friend': p.player }, p.name, ' ',
          h('button', { class: 'btn small', type: 'button', 'data-action': 'unblock',
            onclick: () => this.act('DELETE', `/api/me/friends/${p.player}`) }, t('unblock'))))));
    }
    fill(this.lists, ...sections);
    this.names = new Map(f.friends.map((p) => [p.player, p.name]));
    this.fillTeam(f.friends);
  }

  /** A four-player challenge: a friend (or a bot) for each other seat, partner opposite. */
  teamForm() {
    const pick = (seat, label) => h('label', { class: 'field' }, h('span', null, label),
      h('select', { 'data-team-seat': String(seat), 'aria-label': label }));
    this.teamSeats = [pick(2, t('partner')), pick(1, t('opponent')), pick(3, t('opponent'))];
    this.teamBots = h('select', { 'data-field': 'team-bots', 'aria-label': t('bots_level') },
      ['easy', 'hard', 'random'].map((l) => h('option', { value: l }, t(`level_${l}`))));
    this.team = h('details', { class: 'team-challenge', 'data-section': 'team-challenge', hidden: true },
      h('summary', null, t('team_challenge')),
      h('form', { onsubmit: (e) => { e.preventDefault(); this.teamChallenge(); } },
        ...this.teamSeats,
        h('label', { class: 'field' }, h('span', null, t('bots_level')), this.teamBots),
        h('button', { class: 'btn primary', type: 'submit', 'data-action': 'team-challenge' }, t('challenge'))));
    return this.team;
  }

  /** The friends in each seat's list, keeping what is chosen (the lists are redrawn often). */
  fillTeam(friends) {
    this.team.hidden = !friends.length;
    for (const label of this.teamSeats) {
      const sel = label.querySelector('select');
      const was = sel.value;
      fill(sel, h('option', { value: '' }, t('bot')),
        friends.map((p) => h('option', { value: p.player, selected: p.player === was }, p.name)));
    }
  }

  async teamChallenge() {
    const seats = {};
    for (const label of this.teamSeats) {
      const sel = label.querySelector('select');
      if (sel.value) seats[sel.dataset.teamSeat] = sel.value;
    }
    if (!Object.keys(seats).length) { toast(t('team_need_friend'), 'error'); return; }
    const c = this.choice();
    // the game chosen where it has four seats, else the catalogue's first game of four
    try { await loadGames(); } catch { toast(t('err_network'), 'error'); return; }
    const game = gameOf(c.game).seats === 4 ? gameOf(c.game).id : firstGameOf(4).id;
    const body = { seats, bots: this.teamBots.value, game, live: c.live };
    if (c.game === game) body.options = c.options;
    this.act('POST', '/api/me/challenges', body, () => toast(t('challenge_sent', {
      name: Object.values(seats).map((id) => (this.names.get(id) || id)).join(', ') })));
  }

  /** Challenge a friend: the game is asked, none chosen until the player chooses one (issue
   * 43: it went silently for the game last chosen under "New game"), as on their profile; the
   * form stays open in the friend's row across the panel's refreshes.  The New game form's
   * options and pace go with it where its game is the one chosen. */
  async challenge(p) {
    if (this.asking && this.asking.player === p.player) { this.closeChallenge(); return; }
    let games;
    try { games = await loadGames(); } catch { toast(t('err_network'), 'error'); return; }
    const c = this.choice();
    const send = h('button', { class: 'btn primary', type: 'submit', 'data-action': 'send-challenge', disabled: true }, t('challenge'));
    const game = h('select', { 'data-field': 'challenge-game', onchange: () => { send.disabled = !game.value; } },
      h('option', { value: '', selected: true, disabled: true }, t('choose_game')),
      games.map((g) => h('option', { value: g.id }, gameName(g))));
    const live = h('input', { type: 'checkbox', 'data-field': 'challenge-live', checked: !!c.live });
    const el = h('form', { class: 'challenge friend-challenge', 'data-section': 'friend-challenge', 'data-for': p.player,
      onsubmit: (e) => {
        e.preventDefault();
        if (!game.value) return;
        const body = { to: p.player, game: game.value, live: live.checked };
        if (c.game === game.value) body.options = c.options;
        this.closeChallenge();
        this.act('POST', '/api/me/challenges', body, () => toast(t('challenge_sent', { name: p.name })));
      } },
    h('label', { class: 'field' }, h('span', null, t('which_game')), game),
    h('label', { class: 'field check' }, live, h('span', null, t('live_table'))),
    h('div', { class: 'friend-challenge-actions' }, send,
      h('button', { class: 'btn', type: 'button', 'data-action': 'cancel-challenge', onclick: () => this.closeChallenge() }, t('cancel'))));
    this.asking = { player: p.player, el };
    const row = this.lists.querySelector(`[data-list='friends'] [data-friend='${CSS.escape(p.player)}']`);
    if (row) {
      row.append(el);
      row.querySelector("[data-action='challenge']").setAttribute('aria-expanded', 'true');
    }
    game.focus();
  }

  closeChallenge() {
    if (!this.asking) return;
    const row = this.asking.el.closest('[data-friend]');
    this.asking.el.remove();
    this.asking = null;
    if (row) row.querySelector("[data-action='challenge']").setAttribute('aria-expanded', 'false');
  }
}
