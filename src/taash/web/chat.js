// Quick chat at the table: a fixed set of phrases (said in the reader's language) and emoji,
// and free text where the table's creator allowed it (table info chat_text, at most 80
// characters); what a seat says shows as a bubble at its place for a few seconds.  A reader
// may mute a seat: its messages are not shown on this device (kept per table).  The server
// (server/tables/chat.py) sends every viewer {"type": "chat", "seat", "phrase"|"emoji"|"text"}.
import { api, setting, setSetting } from './api.js';
import { t } from './i18n.js';
import { h, showDialog, closeDialogs } from './ui.js';

export const PHRASES = ['hello', 'good_luck', 'well_played', 'nice', 'thanks', 'oops', 'sorry',
  'think', 'hurry', 'again', 'gg', 'bye'];
export const EMOJI = ['👍', '👏', '😀', '😂', '😮', '🤔', '😢', '😡', '🎉', '🙏', '❤️', '🐐'];
const MAX_TEXT = 80;

export class Chat {
  constructor(tb) {
    this.tb = tb;
    this.bubbles = new Map(); // seat -> {el, timer}
    this.btn = h('button', { class: 'btn icon chat', type: 'button', 'data-action': 'chat',
      'aria-label': t('chat'), title: t('chat'), onclick: () => this.open() }, '💬');
  }

  muted() {
    try {
      const v = JSON.parse(setting(`chat_mute.${this.tb.id}`, '[]'));
      return new Set(Array.isArray(v) ? v : []);
    } catch { return new Set(); }
  }

  setMuted(seat, on) {
    const m = this.muted();
    if (on) m.add(seat); else m.delete(seat);
    setSetting(`chat_mute.${this.tb.id}`, JSON.stringify([...m]));
    if (on) this.drop(seat);
  }

  /** A chat message from the live channel: a bubble at the seat, unless it is muted. */
  message(m) {
    const tb = this.tb;
    if (typeof m.seat !== 'number' || this.muted().has(m.seat)) return;
    let words;
    if (typeof m.phrase === 'string' && PHRASES.includes(m.phrase)) words = t(`chat_${m.phrase}`);
    else if (typeof m.emoji === 'string') words = m.emoji;
    else if (typeof m.text === 'string') words = m.text.slice(0, MAX_TEXT);
    else return;
    this.drop(m.seat);
    const pos = tb.pos(m.seat);
    const el = h('div', { class: `bubble at-${pos}${m.emoji ? ' emoji' : ''}`, 'data-bubble': String(m.seat),
      role: 'status', dir: 'auto' }, words);
    tb.felt.append(el);
    const ms = Number(setting('chat_ms', '4000'));
    this.bubbles.set(m.seat, { el, timer: setTimeout(() => this.drop(m.seat), ms) });
    tb.announcer.append(h('p', null, `${tb.name(m.seat)}: ${words}`));
    while (tb.announcer.childElementCount > 6) tb.announcer.firstElementChild.remove();
  }

  drop(seat) {
    const b = this.bubbles.get(seat);
    if (!b) return;
    clearTimeout(b.timer);
    b.el.remove();
    this.bubbles.delete(seat);
  }

  destroy() {
    for (const seat of [...this.bubbles.keys()]) this.drop(seat);
  }

  async send(body) {
    const tb = this.tb;
    closeDialogs('chat');
    try {
      await api('POST', `/api/tables/${tb.id}/chat`, { token: tb.token, body });
    } catch (e) {
      tb.showError(e);
    }
  }

  /** The picker: the phrases, the emoji, a line of text where allowed, and a mute per
   * other human seat. */
  open() {
    const tb = this.tb;
    const body = [];
    if (tb.token && tb.me() !== null) {
      body.push(h('div', { class: 'chat-phrases' }, PHRASES.map((p) => h('button', {
        class: 'btn', type: 'button', 'data-phrase': p, onclick: () => this.send({ phrase: p }),
      }, t(`chat_${p}`)))));
      body.push(h('div', { class: 'chat-emoji' }, EMOJI.map((e) => h('button', {
        class: 'btn icon', type: 'button', 'data-emoji': e, 'aria-label': e, onclick: () => this.send({ emoji: e }),
      }, e))));
      if (tb.info && tb.info.chat_text) {
        const field = h('input', { type: 'text', class: 'link', maxlength: String(MAX_TEXT), 'data-field': 'chat-text',
          'aria-label': t('chat_text'), placeholder: t('chat_text'), dir: 'auto' });
        body.push(h('form', { class: 'invite chat-form', onsubmit: (e) => {
          e.preventDefault();
          const text = field.value.trim();
          if (text) this.send({ text });
        } }, field, h('button', { class: 'btn primary', type: 'submit', 'data-action': 'chat-send' }, t('chat_send'))));
      }
    }
    const others = ((tb.info && tb.info.seats) || []).filter((s) => s.type === 'human' && s.seat !== tb.me());
    if (others.length) {
      const muted = this.muted();
      body.push(h('h3', null, t('chat_mute')), ...others.map((s) => h('label', { class: 'check-row' },
        h('input', { type: 'checkbox', 'data-mute': String(s.seat), checked: muted.has(s.seat),
          onchange: (e) => this.setMuted(s.seat, e.target.checked) }),
        h('span', null, tb.name(s.seat)))));
    }
    showDialog({ name: 'chat', title: t('chat'), body, actions: [{ label: t('close'), action: 'close', primary: true }] });
  }
}
