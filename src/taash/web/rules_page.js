// The rules a refusal can cite (issue 49): /rules/<game>, each rule of RULES.md that the
// rules core refuses a move with, in plain words, with a small example drawn with the table's
// own cards (cards.js): the cards on the table, the hand, the move the rule refuses (crossed)
// and one it allows (ticked).  A refusal's rule id at the table links here, to the rule's
// section (/rules/<game>#<rule-id>).  The words are /assets/rules/<lang>.json (English where
// one is missing), the pictures /assets/rules/examples.json; both loaded only here.
import { cardEl, SUIT_SIGN } from './cards.js';
import { gameName, gameOf, loadGames } from './catalogue.js';
import { lang, t } from './i18n.js';
import { h, fill } from './ui.js';

async function json(path) {
  const res = await fetch(path);
  if (!res.ok) throw new Error(path);
  return res.json();
}

/** Open /rules/<game> in `root`; returns the unmount. */
export function mountRules(root, { game, navigate }) {
  let dead = false;
  const main = h('main', { class: 'rules-page', 'data-page': 'rules', 'data-game': game });
  fill(root, main);
  fill(main, h('p', { class: 'sub' }, t('loading')));
  (async () => {
    let words;
    let examples;
    try {
      await loadGames();
      [examples, words] = await Promise.all([
        json('/assets/rules/examples.json'),
        json(`/assets/rules/${lang()}.json`).catch(() => json('/assets/rules/en.json')),
      ]);
    } catch {
      if (!dead) fill(main, h('p', { class: 'status-error' }, t('rules_failed')));
      return;
    }
    if (dead) return;
    draw(main, game, examples, words, navigate);
  })();
  return () => { dead = true; };
}

function draw(main, game, examples, words, navigate) {
  const described = gameOf(game);
  const name = described && described.id === game ? gameName(described) : game;
  document.title = `${t('rules_of', { game: name })} · taash`;
  const ids = Object.keys(examples).filter((id) => examples[id].game === game);
  main.dataset.rules = String(ids.length);
  fill(main,
    h('header', { class: 'bar' },
      h('button', { class: 'btn icon back', type: 'button', 'data-action': 'home',
        'aria-label': t('home'), onclick: () => navigate('/') }, h('span', { class: 'chev' })),
      h('h1', { class: 'title' }, t('rules_of', { game: name }))),
    ids.length ? null : h('p', { class: 'sub', 'data-no-rules': '' }, t('rules_none')),
    h('p', { class: 'sub' }, t('rules_intro')),
    ids.map((id) => section(id, examples[id], words[id] || {})),
    h('p', null, h('a', { class: 'btn', href: `/learn/${encodeURIComponent(game)}`, 'data-action': 'learn',
      onclick: (e) => { e.preventDefault(); navigate(`/learn/${encodeURIComponent(game)}`); } }, t('learn_to_play'))));
  const at = decodeURIComponent(location.hash.slice(1));
  const target = at && main.querySelector(`[data-rule="${CSS.escape(at)}"]`);
  if (target) {
    target.classList.add('asked');
    target.scrollIntoView({ block: 'start' });
    target.querySelector('h2').focus({ preventScroll: true });
  }
}

/** One rule: its id and name, its words, its picture. */
function section(id, ex, w) {
  return h('section', { class: 'panel rule', id, 'data-rule': id, 'aria-labelledby': `rule-${id}` },
    h('h2', { id: `rule-${id}`, tabindex: '-1' }, h('span', { class: 'rule-id' }, id), ' ', w.title || id),
    h('p', null, w.text || ''),
    picture(ex, w));
}

const row = (label, cards, marks = {}, trump = null) => h('div', { class: 'ex-row' },
  h('span', { class: 'ex-label' }, label),
  h('div', { class: 'ex-cards', dir: 'ltr' }, cards.map((c) => {
    const el = cardEl(c, { small: true, trump });
    if (marks[c]) {
      el.classList.add(marks[c] === 'right' ? 'ex-right' : 'ex-wrong');
      el.dataset.mark = marks[c];
    }
    return el;
  })));

/** The example: the trump, the table's cards, the hand with the refused and allowed moves
 * marked, or a score where the rule is about the match. */
function picture(ex, w) {
  const marks = {};
  for (const c of ex.wrong || []) marks[c] = 'wrong';
  for (const c of ex.right || []) marks[c] = 'right';
  const parts = [];
  if (ex.trump) {
    parts.push(h('p', { class: 'ex-trump' }, `${t('trump')}: `,
      h('span', { class: `suit-${ex.trump}` }, SUIT_SIGN[ex.trump]), ` ${t(`suit_${ex.trump}`)}`));
  }
  if (ex.table) parts.push(row(t('rules_on_table'), ex.table, {}, ex.trump));
  if (ex.hand) parts.push(row(t('rules_your_hand'), ex.hand, marks, ex.trump));
  if (ex.score) parts.push(h('p', { class: 'ex-score' }, ex.score));
  const say = [];
  if (w.wrong) say.push(h('p', { class: 'ex-say ex-wrong-say' }, '✗ ', w.wrong));
  if (w.right) say.push(h('p', { class: 'ex-say ex-right-say' }, '✓ ', w.right));
  return h('figure', { class: 'example', 'data-example': '' }, parts, h('figcaption', null, say));
}
