// What the table says beside its board (table.js): the rematch notice in the message row,
// the moves said to a screen reader (the live region under the table), the sounds of a
// message and the sound button.  Each takes the table view (`tb`).
import { cardName } from './cards.js';
import { cardsOf, verbOf } from './games/base.js';
import { t } from './i18n.js';
import { setSound, sound, soundOn } from './sound.js';
import { h } from './ui.js';

/** Once another seat has asked for the rematch, a notice says so, with a button to join it:
 * in the table's message row (over no control) and at the top of the match's summary when
 * that is open.  Dismissed, it stays away for that rematch. */
export function noticeRematch(tb) {
  const rid = tb.info && tb.info.rematch;
  const want = !!(rid && tb.token && tb.view && tb.view.over && tb.dismissedRematch !== rid);
  for (const old of document.querySelectorAll('[data-rematch-notice]')) {
    if (!want || old.dataset.rematchNotice !== rid) old.remove();
  }
  if (!want) return;
  const make = (inDialog) => h('div', { class: 'banner rematch-notice', 'data-rematch-notice': rid, role: 'status' },
    h('span', { class: 'banner-text' }, t('rematch_asked')),
    h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch-join', onclick: () => tb.rematch() },
      t('rematch_join')),
    inDialog ? null : h('button', { class: 'btn icon', type: 'button', 'data-action': 'rematch-dismiss',
      'aria-label': t('close'), onclick: () => { tb.dismissedRematch = rid; tb.noticeRematch(); } }, '×'));
  if (!tb.notices.querySelector('[data-rematch-notice]')) tb.notices.append(make(false));
  const body = document.querySelector("dialog[data-dialog='match-summary'] .dialog-body");
  if (body && !body.querySelector('[data-rematch-notice]')) body.prepend(make(true));
}

/** Tell a screen reader what just happened (the live region under the table): each play
 * with its player and cards (a pass as its count, face down), the trump called, who won
 * the trick.  The seats' own lines are read as they come, in order. */
export function announce(tb, events) {
  const lines = [];
  for (const e of events) {
    if (e.type === 'trick' && typeof e.winner === 'number') {
      lines.push(t('won_by', { name: tb.name(e.winner) }));
    } else if (e.type === 'action' && typeof e.seat === 'number') {
      const verb = e.verb || verbOf(e.action || '');
      const cards = e.action ? cardsOf(e.action) : [];
      let what;
      if (verb === 'trump') what = `${t('trump')}: ${t(`suit_${(e.action || '').slice(6)}`)}`;
      else if (!cards.length || verb === 'pass') what = `${t(`verb_${verb}`)}: ${t('n_cards', { n: e.count ?? cards.length })}`;
      else what = `${t(`verb_${verb}`)}: ${cards.map(cardName).join(', ')}`;
      lines.push(`${tb.name(e.seat)}: ${what}`);
    }
  }
  say(tb, ...lines);
}

/** Lines said to a screen reader through the table's live log: the moves, and what the
 * keys read (keys.js).  The last few lines stay (a screen reader reads what is added; a
 * reader's review finds the latest moves). */
export function say(tb, ...lines) {
  for (const line of lines) tb.announcer.append(h('p', null, line));
  while (tb.announcer.childElementCount > 6) tb.announcer.firstElementChild.remove();
}

/** One sound for what a message brought: a deal won or lost (for this seat's side), else a
 * trick won, else a card played. */
export function hear(tb, events) {
  const over = events.find((e) => e.type === 'deal_over');
  if (over) {
    const side = tb.game.dealWinner(over);
    if (tb.me() !== null && side !== null) sound(side === tb.game.mySide() ? 'won' : 'lost');
  } else if (events.some((e) => e.type === 'trick')) {
    sound('trick');
  } else if (events.some((e) => e.type === 'action')) {
    sound('play');
  }
}

export function toggleSound(tb) {
  setSound(!soundOn());
  showSound(tb);
}

export function showSound(tb) {
  const on = soundOn();
  tb.soundBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
  tb.soundBtn.textContent = on ? '\u{1F50A}' : '\u{1F507}';
}
