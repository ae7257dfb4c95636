// "While you were away": at a play-anytime table, the moves made since this seat's own last
// one (GET /api/tables/{id}/away), listed when the player opens the table: who played what,
// who won each trick, each deal's end.  `tb` is the table (table.js).
import { api } from './api.js';
import { cardEl } from './cards.js';
import { cardsOf, verbOf } from './games/base.js';
import { t } from './i18n.js';
import { h, showDialog } from './ui.js';

/** Ask for the moves since this seat's last one and show them, if there are any (once a
 * page: a reconnection does not ask again). */
export async function recapAway(tb) {
  if (tb.recapDone || !tb.token || tb.me() === null || !tb.info || tb.info.live !== false) return;
  tb.recapDone = true;
  let res;
  try {
    res = await api('GET', `/api/tables/${tb.id}/away`, { token: tb.token });
  } catch { return; } // no recap: the table itself is what counts
  const moves = (res && res.moves) || [];
  if (!moves.length || tb.dead) return;
  showDialog({
    name: 'away', title: t('away_title'),
    body: [h('p', { class: 'sub' }, t('away_n', { n: moves.length + (res.more || 0) })),
      res.more ? h('p', { class: 'sub', 'data-away-more': String(res.more) }, t('away_more', { n: res.more })) : null,
      h('ol', { class: 'away-list', 'data-away': String(moves.length) }, moves.flatMap((m) => lines(tb, m)))],
    actions: [{ label: t('continue'), action: 'close', primary: true }],
  });
}

/** One move's rows: the action, then what it ended (a trick, a deal). */
function lines(tb, move) {
  const out = [];
  for (const e of move.events || []) {
    if (e.type === 'action' && typeof e.seat === 'number') {
      const verb = e.verb || verbOf(e.action || '');
      const cards = e.action ? cardsOf(e.action) : [];
      let what;
      if (verb === 'trump') {
        what = [`${t('trump')}: ${t(`suit_${(e.action || '').slice(6)}`)}`];
      } else if (!cards.length || verb === 'pass') {
        what = [`${t(`verb_${verb}`)}: ${t('n_cards', { n: e.count ?? cards.length })}`];
      } else {
        what = [verb === 'play' ? '' : `${t(`verb_${verb}`)}: `, ...cards.map((c) => cardEl(c, { small: true }))];
      }
      out.push(h('li', { class: 'away-move', 'data-seat': String(e.seat), 'data-verb': verb },
        h('b', null, tb.name(e.seat)), ' ', h('span', { class: 'away-what' }, what)));
    } else if (e.type === 'trick' && typeof e.winner === 'number') {
      out.push(h('li', { class: 'away-trick', 'data-winner': String(e.winner) }, t('won_by', { name: tb.name(e.winner) })));
    } else if (e.type === 'deal_over') {
      const side = tb.game.dealWinner(e);
      const title = tb.game.dealTitle((e.deal ?? 0) + 1);
      out.push(h('li', { class: 'away-deal' }, side === null ? title : `${title} · ${t('sheet_winner')} ${tb.sideName(side)}`));
    }
  }
  return out;
}
