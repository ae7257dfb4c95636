// The home screen's "Join a table": a pasted link (an invite is claimed for the player, once),
// the open tables of the lobby, and the way to review a record.
import { api, saveSeat, knownMe, myServerTables, claimInvite } from './api.js';
import { t } from './i18n.js';
import { h, fill, toast } from './ui.js';

export class JoinPanel {
  constructor({ navigate }) {
    this.navigate = navigate;
    this.lobby = h('div', { class: 'lobby' });
    this.el = h('section', { class: 'panel join', 'data-section': 'join' },
      h('h2', null, t('join_table')),
      h('form', { class: 'join-form', onsubmit: (e) => { e.preventDefault(); this.joinLink(); } },
        this.linkInput = h('input', { type: 'text', inputmode: 'url', placeholder: t('paste_link'),
          'aria-label': t('paste_link'), 'data-field': 'link' }),
        h('button', { class: 'btn', type: 'submit', 'data-action': 'join' }, t('join'))),
      this.lobby,
      h('p', { class: 'sub' }, h('a', { href: '/review', 'data-action': 'review-record',
        onclick: (e) => { e.preventDefault(); this.navigate('/review'); } }, t('review_records'))));
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

  /** The lobby's open tables, each with a button to take a free seat. */
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
