// The table's board (table.js): its skeleton (the bar, the felt with the seats and the
// trick, the rows under it, the hand) and the drawing of a view on it; each takes the table
// view (`tb`).  The seats, the trick and the status line are drawn by render.js and seats.js,
// the hand's cards by hand.js.
import { cardsOf } from './games/base.js';
import { sortHand } from './cards.js';
import { Hand } from './hand.js';
import { t } from './i18n.js';
import { focusBefore, keepFocus } from './keys.js';
import { openMenu } from './menu.js';
import { dealIn } from './motion.js';
import { fitTrick, flightOrigins, renderBar, renderStatus, renderTrick } from './render.js';
import { PLACES, renderSeats } from './seats.js';
import { sound } from './sound.js';
import { noticeRematch, showSound, toggleSound } from './table_news.js';
import { h, fill } from './ui.js';

/** The table's skeleton: the bar, the scores, the felt (seats, trick, tools), the message
 * and status rows, the actions, the hand and the screen reader's log, kept on the table
 * view as its elements (tb.felt, tb.trick, tb.handBox …). */
export function buildBoard(tb) {
  const act = (name, label) => h('button', {
    class: 'btn tool', type: 'button', 'data-action': name, onclick: () => tb.tool(name),
  }, label);
  tb.titleEl = h('div', { class: 'title' });
  tb.connEl = h('div', { class: 'conn', 'data-conn': 'connecting', role: 'status', hidden: true });
  // how many watch (the players see it), and a spectator's delay (seats.js): the title's
  // last line (render.js)
  tb.watchEl = h('span', { class: 'watchers', 'data-watchers': '', hidden: true });
  tb.bar = h('header', { class: 'bar' },
    h('button', { class: 'btn icon back', type: 'button', 'data-action': 'home',
      'aria-label': t('home'), onclick: () => tb.navigate('/') }, h('span', { class: 'chev' })),
    tb.titleEl,
    tb.chat.btn,
    tb.soundBtn = h('button', { class: 'btn icon sound', type: 'button', 'data-action': 'sound',
      'aria-label': t('sound'), onclick: () => toggleSound(tb) }),
    h('button', { class: 'btn icon', type: 'button', 'data-action': 'menu',
      'aria-label': t('menu'), onclick: () => openMenu(tb) }, '⋯'));
  tb.lastTrickBtn = act('last-trick', t('last_trick'));
  tb.hintBtn = act('hint', t('hint'));
  tb.scores = h('div', { class: 'scores' });
  // the score sheet of every deal so far: a tap on the scores' own button
  tb.sheetBtn = h('button', { class: 'btn icon sheet', type: 'button', 'data-action': 'scores',
    'aria-label': t('score_sheet'), title: t('score_sheet'), onclick: () => tb.summaries.showSheet() }, '☰');
  tb.seatEls = {};
  for (const pos of PLACES) tb.seatEls[pos] = h('div', { class: `seat pos-${pos}` });
  tb.trick = h('div', { class: 'trick', role: 'group', 'aria-label': t('trick') });
  tb.info2 = h('div', { class: 'table-info' });
  tb.felt = h('section', { class: 'felt', dir: 'ltr' },
    tb.seatEls.top, tb.seatEls.left, tb.seatEls.right,
    h('div', { class: 'center' }, tb.trick), tb.info2, tb.seatEls.bottom,
    // The tools sit in the felt's free corners: the status line keeps the whole row, so
    // long words (Russian) never squeeze it into many lines.
    h('div', { class: 'tools', dir: document.documentElement.dir || 'ltr' }, tb.lastTrickBtn, tb.hintBtn));
  tb.status = h('div', { class: 'status', 'aria-live': 'polite' });
  tb.statusRow = h('div', { class: 'status-row' }, tb.status);
  // Messages (a refusal, a hint) have a row of their own: they never cover a control.
  tb.notices = h('div', { class: 'notices', 'data-notices': '', role: 'status', 'aria-live': 'polite' },
    tb.connEl);
  tb.actions = h('div', { class: 'actions' });
  tb.handBox = h('div', { class: 'hand', 'data-hand': '', dir: 'ltr', role: 'group',
    'aria-label': t('your_hand') });
  // what happens at the table, said to a screen reader (plays, tricks): hidden from sight
  tb.announcer = h('div', { class: 'sr-only', 'data-announce': '', role: 'log',
    'aria-live': 'polite', 'aria-label': t('moves') });
  tb.main = h('main', { class: 'table', 'data-table': tb.id,
    'data-your-turn': 'false' },
  tb.bar, tb.scores, tb.felt, tb.notices, tb.statusRow, tb.actions, tb.handBox,
  tb.announcer);
  fill(tb.root, tb.main);
  showSound(tb);
  tb.hand = new Hand(tb.handBox, (code) => tb.cardActivated(code));
  tb.trickFit = new ResizeObserver(() => fitTrick(tb));
  tb.trickFit.observe(tb.trick.parentElement);
  tb.status.textContent = t('loading');
}

/** Draw the latest view: the table's marks, the bar, the scores, the seats, the trick, the
 * status, the actions and the hand. */
export function drawTable(tb) {
  const v = tb.view;
  if (!v || tb.dead) return;
  const m = tb.main;
  tb.flyFrom = flightOrigins(tb); // read before anything is written: no extra layout
  const focus = focusBefore(tb);
  const turn = tb.yourTurn();
  if (turn && m.dataset.yourTurn === 'false' && document.visibilityState === 'visible' && navigator.vibrate) {
    try { navigator.vibrate(25); } catch { /* not allowed yet */ }
  }
  // your turn, with a chime where another player made you wait (against bots it is always
  // soon: no chime)
  const others = ((tb.info && tb.info.seats) || []).some((s) => s.seat !== tb.me() && s.type === 'human');
  if (turn && m.dataset.yourTurn === 'false' && m.dataset.version && others) sound('turn');
  m.dataset.game = v.game;
  m.dataset.version = String(v.version);
  m.dataset.yourTurn = turn ? 'true' : 'false';
  m.dataset.phase = v.phase || '';
  m.dataset.over = v.over ? 'true' : 'false';
  m.dataset.seats = String(tb.numSeats());
  if (tb.me() !== null) m.dataset.seat = String(tb.me());
  tb.game.mark(m, v);
  document.title = `${turn ? `(${t('your_turn_short')}) ` : ''}${t(`game_${v.game}`)} · taash`;
  renderBar(tb);
  fill(tb.scores, ...tb.game.scoreChips(v), tb.sheetBtn);
  renderSeats(tb);
  renderTrick(tb);
  renderStatus(tb);
  tb.renderActions();
  tb.renderHand();
  if (tb.guide) tb.guide.render();
  noticeRematch(tb);
  tb.forced.check();
  keepFocus(tb, focus); // a focused control gone: the focus to the hand, or the next control
}

export function drawActions(tb) {
  // while a deal's end is shown, the next deal's buttons wait for the player to go on
  // and nothing is played before the invited friends come (the status offers to start)
  const { className, buttons } = tb.summaries.showing() || tb.waitingFor().length
    ? { className: 'actions', buttons: [] } : tb.game.actions(tb.view);
  // The buttons are made anew: one that had the focus gives it to its successor.
  const had = tb.actions.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  tb.actions.className = className;
  fill(tb.actions, ...buttons);
  const again = had && [...tb.actions.querySelectorAll('button')].find((b) => b.dataset.action === had);
  if (again) again.focus({ preventScroll: true });
}

export function drawHand(tb) {
  const v = tb.view;
  const trumpSuit = v.trump || null;
  const cards = sortHand(v.hand || [], v.game, trumpSuit);
  const marks = {
    pending: new Set(tb.pending ? tb.pending.cards : []),
    hinted: new Set(tb.hint && tb.hint.action ? cardsOf(tb.hint.action) : []),
  };
  // a deal being played that is not the one the hand was dealt for: every card is dealt
  // anew (between deals a hand keeps its last cards, still)
  if (v.phase === 'trump' || v.phase === 'play') {
    if (tb.handDeal !== undefined && tb.handDeal !== v.deal_number) tb.hand.newDeal();
    tb.handDeal = v.deal_number;
  }
  const arrived = tb.hand.update(tb.game.handItems(v, cards, marks), trumpSuit);
  tb.handBox.classList.toggle('my-turn', tb.yourTurn());
  // dealt cards come from the middle of the felt, Goat's drawn ones from its stock
  if (arrived.length) dealIn(arrived, tb.info2.querySelector('.stock:not(.out)') || tb.trick.parentElement);
}
