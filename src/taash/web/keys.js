// The table from the keyboard (issue 50).  The hand is one Tab stop (hand.js); the page's own
// buttons do every act (the trump call, Goat's lead, beat and pass, the molodka); and keys
// read the table aloud into its polite live log (table_news.js): T the trick, S the score,
// H the hand by suit, W whose turn it is and what the rules ask of you.  Escape clears a
// selection, ? lists the keys.  A key is a key of the table only where no text is typed and
// no dialog is open.  The focus is kept: a control drawn anew gives it to its successor
// (table_board.js, hand.js), and one that went away gives it to the hand or to the next
// control that makes sense (keepFocus).  `tb` is the table (table.js).
import { cardName, SUIT_SIGN, sortHand } from './cards.js';
import { lang, t } from './i18n.js';
import { say } from './table_news.js';
import { h, showDialog } from './ui.js';

// Letters by the key's place (KeyboardEvent.code): the same keys on a Russian or an Urdu
// layout.  A Goat verb clicks the page's own button of that verb.
const READS = { KeyT: trickSentence, KeyS: scoreSentence, KeyH: handSentence, KeyW: turnSentence };
const VERBS = { KeyL: 'lead', KeyB: 'beat', KeyP: 'pass', KeyM: 'molodka' };

/** The keys the list shows: what is pressed, and what it does (a game whose cards are
 * picked, then played by a verb, has the verbs' keys: its renderer says). */
export function keyList(renderer) {
  const picks = renderer.picksCards;
  const rows = [
    ['Tab', 'keys_tab'],
    ['← →', 'keys_arrows'],
    ['Home End', 'keys_ends'],
    ['Enter Space', picks ? 'keys_select' : 'keys_play'],
  ];
  if (picks) rows.push(['L B P', 'keys_verbs'], ['M', 'keys_molodka']);
  rows.push(['Escape', 'keys_clear'], ['T', 'keys_trick'], ['S', 'keys_score'], ['H', 'keys_hand'],
    ['W', 'keys_turn'], ['?', 'keys_help']);
  return rows;
}

export class TableKeys {
  constructor(tb) {
    this.tb = tb;
    this.used = false; // the keyboard is in use (a pointer's press says it is not)
    this.onKey = (e) => this.key(e);
    this.onPointer = () => { this.used = false; };
    // a dialog closed (a deal's summary, the chat) leaves the focus nowhere: to the table.
    // The page's dialogs are the body's children, removed once closed.
    this.dialogs = new MutationObserver((records) => {
      if (!records.some((r) => [...r.removedNodes].some((n) => n.nodeName === 'DIALOG'))) return;
      setTimeout(() => {
        const a = document.activeElement;
        if (this.used && !tb.dead && (!a || a === document.body) && !document.querySelector('dialog[open]')) {
          focusSomewhere(tb);
        }
      });
    });
    this.dialogs.observe(document.body, { childList: true });
    document.addEventListener('keydown', this.onKey);
    document.addEventListener('pointerdown', this.onPointer, true);
  }

  destroy() {
    this.dialogs.disconnect();
    document.removeEventListener('keydown', this.onKey);
    document.removeEventListener('pointerdown', this.onPointer, true);
  }

  key(e) {
    const tb = this.tb;
    if (tb.dead || typing(e.target) || document.querySelector('dialog[open]')) return;
    this.used = true;
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || !tb.view) return;
    if (e.key === '?' || (e.code === 'Slash' && e.shiftKey)) {
      e.preventDefault();
      this.showKeys();
    } else if (e.key === 'Escape') {
      if (tb.game.clearSelection()) {
        tb.renderActions();
        tb.renderHand();
        say(tb, t('say_cleared'));
      }
    } else if (e.shiftKey) {
      // Shift with a letter is no key of the table
    } else if (READS[e.code]) {
      e.preventDefault();
      say(tb, READS[e.code](tb));
    } else if (VERBS[e.code]) {
      // the game's own button of that verb, where it has one (Goat's)
      const b = tb.actions.querySelector(`[data-action='${VERBS[e.code]}']`);
      if (!b) return;
      e.preventDefault();
      b.click();
    }
  }

  /** The list of keys, in the page's own dialog; closed, the focus goes back where it was. */
  showKeys() {
    const back = document.activeElement;
    const body = h('dl', { class: 'keys-list' }, keyList(this.tb.game).map(([k, key]) => [
      h('dt', null, k.split(' ').map((x) => h('kbd', null, x))), h('dd', null, t(key))]));
    showDialog({
      name: 'keys', title: t('keys_title'), body,
      actions: [{ label: t('close'), action: 'close', primary: true }],
      onClose: () => {
        if (back && back.isConnected && back !== document.body) back.focus({ preventScroll: true });
        else focusSomewhere(this.tb);
      },
    });
  }
}

/** Is the key typed into text (the chat's field, any input) rather than said to the table? */
function typing(el) {
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select' || el.isContentEditable) return true;
  if (tag !== 'input') return false;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset'].includes((el.type || '').toLowerCase());
}

// -- the focus kept through a drawing ----------------------------------------------------------
/** Before the table is drawn: where the focus is. */
export function focusBefore(tb) {
  const a = document.activeElement;
  return { inTable: !!a && a !== document.body && tb.main.contains(a), calling: !!trumpButton(tb) };
}

/** After the table is drawn: a focus the drawing took away (its element gone, a dialog closed
 * over it) goes to the hand, or the next control that makes sense; the trump call offered
 * takes it from the hand (a keyboard's player is asked to call now).  Only for a player on
 * the keyboard: a tap never moves the focus. */
export function keepFocus(tb, before) {
  if (!tb.keys || !tb.keys.used || document.querySelector('dialog[open]')) return;
  const a = document.activeElement;
  const lost = !a || a === document.body || !a.isConnected;
  const call = trumpButton(tb);
  if (call && !before.calling && (lost || before.inTable)) call.focus({ preventScroll: true });
  else if (lost) focusSomewhere(tb);
}

function trumpButton(tb) {
  return tb.actions.querySelector("[data-action^='trump:'].suggested[aria-disabled='false']")
    || tb.actions.querySelector("[data-action^='trump:'][aria-disabled='false']");
}

/** The focus to the trump call while it is this seat's, else the hand, else the first
 * action, else a button of the status line (the rematch), else the score sheet's: the first
 * that takes it (the status line hides while a message shows over it). */
function focusSomewhere(tb) {
  const call = trumpButton(tb);
  if (call) {
    call.focus({ preventScroll: true });
    return;
  }
  if (tb.hand.focus()) return;
  const next = [tb.actions.querySelector('button:not([disabled])'), tb.status.querySelector('button'), tb.sheetBtn];
  for (const b of next) {
    if (!b) continue;
    b.focus({ preventScroll: true });
    if (document.activeElement === b) return;
  }
}

// -- the table read aloud ------------------------------------------------------------------------
// Each part is a sentence of the language's own (its full stop, its word for "and").
const SIGNS = new RegExp(`[${Object.values(SUIT_SIGN).map((x) => x[0]).join('')}]\uFE0E?`, 'g');
const spoken = (el) => el.textContent.replace(SIGNS, '').replace(/\s+/g, ' ').trim();
const list = (words) => new Intl.ListFormat(lang(), { type: 'conjunction' }).format(words);

/** T: the cards on the table, each play with its player (Goat: and its verb; a pass face
 * down as its count); a trick just won says who won it. */
export function trickSentence(tb) {
  const v = tb.view;
  const done = tb.shownTrick;
  const plays = done ? done.plays : tb.game.trick(v);
  if (!plays.length) return t('say_trick_empty');
  const said = [t('say_on_table'), ...plays.map((p) => {
    const verb = tb.game.playLabel(p);
    const cards = !p.cards || p.verb === 'pass' ? t('say_face_down', { n: p.count })
      : list(p.cards.map(cardName));
    return verb ? t('say_play_verb', { name: tb.name(p.seat), verb, cards })
      : t('say_play', { name: tb.name(p.seat), cards });
  })];
  if (done) said.push(t('say_sentence', { text: t('won_by', { name: tb.name(done.winner) }) }));
  return said.join(' ');
}

/** S: the score chips above the felt, each read as "label: value." (no suit signs). */
export function scoreSentence(tb) {
  return tb.game.scoreChips(tb.view).map((c) => {
    const label = c.querySelector('.chip-label');
    const value = c.querySelector('.chip-value');
    return label && value ? t('say_chip', { label: spoken(label), value: spoken(value) })
      : t('say_sentence', { text: spoken(c) });
  }).join(' ');
}

/** H: the hand by suit, in the order it shows: "13 cards. Hearts: Queen and 10. …". */
export function handSentence(tb) {
  const v = tb.view;
  const cards = sortHand(v.hand || [], v.game, v.trump || null);
  if (!cards.length) return t('say_hand_empty');
  const groups = [];
  for (const c of cards) {
    const last = groups[groups.length - 1];
    if (last && last.suit === c[1]) last.ranks.push(t(`rank_${c[0]}`));
    else groups.push({ suit: c[1], ranks: [t(`rank_${c[0]}`)] });
  }
  return [t('say_hand_n', { n: cards.length }), ...groups.map((g) => t(
    g.suit === v.trump ? 'say_suit_trump' : 'say_suit', { suit: t(`suit_${g.suit}`), cards: list(g.ranks) }))].join(' ');
}

/** W: whose turn it is; on this seat's turn, what the rules ask of it now (the game's
 * renderer says). */
export function turnSentence(tb) {
  const v = tb.view;
  if (v.over) return t('say_sentence', { text: tb.game.resultText(v) });
  if (tb.yourTurn()) return tb.game.turnSentence(v);
  const line = tb.status.querySelector('span');
  return t('say_sentence', { text: line ? spoken(line) : t('dealing') });
}
