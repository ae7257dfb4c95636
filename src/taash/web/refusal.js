// Why an action was refused, in the page's language.
import { rankText, SUIT_SIGN } from './cards.js';
import { t } from './i18n.js';
import { h, toast } from './ui.js';

/** An illegal action's reason in the page's language, from the key and parameters the server
 * gives (cards as codes, suits as letters); null where the page has no words for it (the
 * server's English sentence is shown then). */
export const ruleText = (e, nameOf) => {
  if (!e || !e.key) return null;
  const key = `illegal_${e.key}`;
  const p = { ...(e.params || {}) };
  if (typeof p.suit === 'string') p.suit = t(`suit_${p.suit}`);
  if (typeof p.suits === 'string') p.suits = [...p.suits].map((x) => t(`suit_${x}`)).join(' / ');
  if (typeof p.seat === 'number') p.name = nameOf(p.seat);
  for (const k of ['cards', 'top']) {
    if (typeof p[k] === 'string') p[k] = p[k].split(',').map((c) => rankText(c[0]) + (SUIT_SIGN[c[1]] || c[1])).join(' ');
  }
  const text = t(key, p);
  return text === key ? null : text;
};

/** A rule's id after a message, kept on one line: "(CP-" and "5)" were seen on two
 * (issue 43).  With the game, a link to the rule's explanation with its picture
 * (/rules/<game>#<rule>, rules_page.js), in a tab of its own: the table stays. */
export const ruleId = (rule, game = null) => {
  if (!rule) return [];
  if (!game) return [' ', h('span', { class: 'rule-id' }, `(${rule})`)];
  return [' ', h('a', { class: 'rule-id', href: `/rules/${encodeURIComponent(game)}#${encodeURIComponent(rule)}`,
    target: '_blank', rel: 'noopener', 'data-rule': rule, onclick: (e) => e.stopPropagation() }, `(${rule})`)];
};

/** Say why an action failed, in a toast: the rule broken (with its id, a link to its page
 * where the game is given), the network, or the server's error.  nameOf(seat) names a seat
 * the reason mentions. */
export function showRefusal(e, nameOf, game = null) {
  const msg = ruleText(e, nameOf) || e.message || String(e);
  if (e.status === 409 || e.code === 'illegal') toast([`${t('not_allowed')}: ${msg}`, ruleId(e.rule, game)], 'error');
  else if (e.status === 0) toast(t('err_network'), 'error');
  else toast(`${t('error')}: ${msg}`, 'error');
}
