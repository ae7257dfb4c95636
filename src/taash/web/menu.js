// The table's menu: the invite links of a table this browser made, e-mail notices for this
// seat (where another player moves and the server sends e-mail), the rules, leaving the table.
import { api, seatAt, forgetSeat, mySeats, serverCan } from './api.js';
import { gameName, gameOf, optionsText } from './catalogue.js';
import { t } from './i18n.js';
import { h, toast, showDialog, closeDialogs, copyText, askDialog } from './ui.js';
import { optionsMenu } from './play_options.js';
import { pushMenu } from './push.js';

export async function openMenu(tb) {
  const can = await serverCan();
  const invites = mySeats().find((x) => x.id === tb.id && x.invites);
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
  const playing = tb.token && tb.view && !tb.view.over;
  // E-mail notices tell of another player's move: at a table of bots only there is none,
  // and a server with no SMTP sends none.
  const others = ((tb.info && tb.info.seats) || []).some((s) => s.seat !== tb.me() && s.type === 'human');
  if (playing && others && can.email) {
    const email = h('input', { type: 'email', class: 'link', placeholder: t('email'), 'aria-label': t('email'),
      'data-field': 'notify-email', autocomplete: 'email' });
    body.push(h('h3', null, t('notify_title')), h('p', { class: 'sub' }, t('notify_note')),
      h('form', { class: 'invite', onsubmit: async (e) => {
        e.preventDefault();
        try {
          await api('PUT', `/api/tables/${tb.id}/notify`, { token: tb.token, body: { email: email.value.trim() || null } });
          toast(email.value.trim() ? t('notify_on') : t('notify_off'));
        } catch (err) { tb.showError(err); }
      } }, h('span', null, '✉'), email, h('button', { class: 'btn', type: 'submit', 'data-action': 'notify' }, t('save'))));
  }
  // Web Push for this seat (push.js): it needs no SMTP, only someone else to wait for
  if (playing && others) body.push(...pushMenu(tb));
  if (tb.token && tb.me() !== null) body.push(...optionsMenu(tb));
  if (tb.view) {
    body.push(h('p', null, h('button', { class: 'btn', type: 'button', 'data-action': 'menu-scores',
      onclick: () => { closeDialogs('menu'); tb.summaries.showSheet(); } }, t('score_sheet'))));
  }
  // the rules this table plays by (its options as the new-table form named them)
  const described = tb.view && gameOf(tb.view.game);
  const chosen = described ? optionsText(described, tb.view.options) : [];
  if (chosen.length) body.push(h('p', { class: 'sub', 'data-table-options': '' }, chosen.join(' · ')));
  body.push(h('p', { class: 'sub' }, t('table_id', { id: tb.id })));
  const actions = [];
  // the rules of this game, at the part that matters now (help.js, loaded when asked for);
  // the focus comes back to the menu's button
  actions.push({ label: t('rules'), action: 'rules', onClick: async () => {
    closeDialogs('menu');
    const { openRules, sectionFor } = await import('./help.js');
    await openRules({ game: tb.view ? tb.view.game : null, section: sectionFor(tb.view),
      returnTo: tb.main.querySelector('[data-action="menu"]') });
  } });
  if (playing && !tb.source) actions.push({ label: t('leave'), action: 'leave', onClick: () => leave(tb) });
  actions.push({ label: t('home'), action: 'home', onClick: () => tb.navigate('/') });
  actions.push({ label: t('close'), action: 'close', primary: true });
  // titled with this table's game (before its first view: the catalogue's first game)
  const game = gameOf(tb.view ? tb.view.game : null);
  showDialog({ name: 'menu', title: game ? gameName(game) : t('menu'), body, actions });
}

async function leave(tb) {
  closeDialogs('menu');
  const sure = await askDialog({ name: 'leave-confirm', title: t('leave'), text: t('leave_confirm'),
    yes: { label: t('leave'), action: 'leave-table' }, no: { label: t('leave_stay'), action: 'stay' } });
  if (!sure || tb.dead) return true;
  try {
    await api('POST', `/api/tables/${tb.id}/leave`, { token: tb.token });
    const mine = seatAt(tb.id, tb.me());
    if (mine) forgetSeat(tb.id, mine.seat);
    tb.navigate('/');
  } catch (e) {
    tb.showError(e);
  }
  return true;
}
