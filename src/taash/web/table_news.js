// What the table says beside its board (table.js): the rematch notice in the message row,
// the moves said to a screen reader (the live region under the table), the sounds of a
// message and the sound button.  Each takes the table view (`tb`).
import { cardName } from './cards.js';
import { cardsOf, verbOf } from './games/base.js';
import { hasWord, lang, t } from './i18n.js';
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

/** Tell a screen reader what just happened (the live region under the table), each event
 * once, as sentences of the page's language: each play with its player and cards ("Bilal
 * plays the king of spades."; a pass as its count, face down), the trump called and then
 * what is trump ("Spades are trump.": a Goat deal's trump as its deal begins), who won the
 * trick (then, on this seat's turn, table.js says what the rules ask of it: sayTurn).
 * `prev`: the view before these events. */
export function announce(tb, events, prev) {
  const lines = [];
  for (const e of events) {
    if (e.type === 'trick' && typeof e.winner === 'number') {
      lines.push(bySeat(tb, e.winner, 'ann_trick'));
    } else if (e.type === 'action' && typeof e.seat === 'number') {
      lines.push(playSentence(tb, e));
    }
  }
  const v = tb.view;
  if (v && v.trump && prev && (v.trump !== prev.trump || v.deal_number !== prev.deal_number)) {
    lines.push(t('ann_trump', { suit: t(`suit_${v.trump}`) }));
  }
  say(tb, ...lines);
}

/** A sentence of a seat's: "You …" for this seat, else "{name} …". */
function bySeat(tb, seat, base, params = {}) {
  return seat === tb.me() ? t(`${base}_you`, params) : t(`${base}_name`, { ...params, name: tb.name(seat) });
}

/** A card in a sentence: "the king of spades" (its name's first letter made small where the
 * language has small letters). */
export function cardSaid(code) {
  const name = cardName(code);
  return t('card_said', { card: name.charAt(0).toLocaleLowerCase(lang()) + name.slice(1) });
}

/** One action event as its sentence. */
function playSentence(tb, e) {
  const verb = e.verb || verbOf(e.action || '');
  if (verb === 'trump') {
    const s = (e.action || '').slice(6);
    return bySeat(tb, e.seat, 'ann_call', { suit: t(`suit_${s}`), suit_of: t(`suit_${s}_of`) });
  }
  const cards = e.action ? cardsOf(e.action) : [];
  if (!cards.length || verb === 'pass') return bySeat(tb, e.seat, 'ann_pass', { n: e.count ?? cards.length });
  const list = new Intl.ListFormat(lang(), { type: 'conjunction' }).format(cards.map(cardSaid));
  return bySeat(tb, e.seat, hasWord(`ann_${verb}_you`) ? `ann_${verb}` : 'ann_play', { cards: list });
}

/** On this seat's turn, once for each view: what the rules ask of it now ("Your turn. You
 * must follow hearts: you hold 3.").  Said as the table opens on it, after the moves that
 * made it this seat's turn, and after a deal's summary closes over a turn that waited behind it. */
export function sayTurn(tb) {
  const v = tb.view;
  if (!v || !tb.yourTurn() || tb.turnSaid === v.version) return;
  tb.turnSaid = v.version;
  say(tb, tb.game.turnSentence(v));
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
