// "While you were away": at a play-anytime table, the moves made since this seat's own last
// one (GET /api/tables/{id}/away), listed when the player opens the table: who played what,
// who won each trick, each deal's end.  `tb` is the table (table.js).
import { api } from './api.js';
import { cardEl } from './cards.js';
import { cardsOf, verbOf } from './games/base.js';
import { t } from './i18n.js';
import { h, showDialog } from './ui.js';

// The version of each seat's table this browser last showed ("<id>/<seat>": version; NEW for
// a table made here and not shown yet), so that a move seen as it came (a bot's answer, the
// bots' moves before a table just made first showed) is never recapped as made while away.
const SEEN = 'taash.seen';
const NEW = 'new';
const KEPT = 100; // the tables remembered, the latest shown

function readSeen() {
  try { return JSON.parse(localStorage.getItem(SEEN) || '{}') || {}; } catch { return {}; }
}

function writeSeen(key, value) {
  const all = readSeen();
  delete all[key];
  all[key] = value;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - KEPT))) delete all[k];
  try { localStorage.setItem(SEEN, JSON.stringify(all)); } catch { /* private mode */ }
}

/** What this browser last showed of a seat's table: a version, NEW, or undefined (never). */
export function seenAt(id, seat) {
  return readSeen()[`${id}/${seat}`];
}

/** The seat's table shown at this version (the recap of its next opening starts after it). */
export function noteSeen(id, seat, version) {
  if (typeof version !== 'number' || seenAt(id, seat) === version) return;
  writeSeen(`${id}/${seat}`, version);
}

/** A table made on this page: nothing of it was missed while away when it first opens. */
export function madeHere(id, seat) {
  writeSeen(`${id}/${seat}`, NEW);
}

/** Ask for the moves since this seat's last one and show those this browser has not shown
 * (`seen`: what seenAt said before the table showed), if there are any (once a page: a
 * reconnection does not ask again).  The table says what came of it: data-recap "none" or
 * "shown". */
export async function recapAway(tb, seen) {
  if (tb.recapDone || !tb.token || tb.me() === null || !tb.info || tb.info.live !== false) return;
  tb.recapDone = true;
  const done = (what) => { if (tb.main) tb.main.dataset.recap = what; };
  if (seen === NEW) { done('none'); return; } // just made here: nobody was away
  let res;
  try {
    res = await api('GET', `/api/tables/${tb.id}/away`, { token: tb.token });
  } catch { done('none'); return; } // no recap: the table itself is what counts
  let moves = (res && res.moves) || [];
  let more = (res && res.more) || 0;
  if (typeof seen === 'number') {
    const unseen = moves.filter((m) => m.version > seen);
    if (unseen.length < moves.length) more = 0; // the ones left out came before those shown
    moves = unseen;
  }
  if (!moves.length || tb.dead) { done('none'); return; }
  done('shown');
  showDialog({
    name: 'away', title: t('away_title'),
    body: [h('p', { class: 'sub' }, t('away_n', { n: moves.length + more })),
      more ? h('p', { class: 'sub', 'data-away-more': String(more) }, t('away_more', { n: more })) : null,
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
