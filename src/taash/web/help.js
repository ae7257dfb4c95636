// The rules, written for a player, in a dialog (issue 27).  Loaded only when the player asks
// for them (home, the table's menu, a tip's "Rules"): neither this module nor its words
// (/assets/help/<lang>/<game>.json) are part of the first load.
// The games are the catalogue's (catalogue.js); a game without rules written opens the
// catalogue's first game's.
import { gameName, gameOf, loadGames } from './catalogue.js';
import { lang, t } from './i18n.js';
import { h, fill, showDialog, toast } from './ui.js';

const kept = new Map(); // `${lang}/${game}` -> the content, fetched once

async function content(code, game) {
  const key = `${code}/${game}`;
  if (!kept.has(key)) {
    kept.set(key, fetch(`/assets/help/${code}/${game}.json`).then((res) => {
      if (!res.ok) throw new Error(`no rules ${key}`);
      return res.json();
    }).catch((e) => { kept.delete(key); throw e; }));
  }
  return kept.get(key);
}

/** The rules of a game in the page's language (English where a file is missing). */
async function rulesOf(game) {
  try {
    return await content(lang(), game);
  } catch {
    return content('en', game);
  }
}

/** Where the rules should open at a table: the part of the game that matters now (a game of
 * card sets, Goat: its molodka or beating; else the call, double sar's rules, following). */
export function sectionFor(view) {
  if (!view) return null;
  const o = view.options || {};
  const described = gameOf(view.game);
  if (described && described.plays_card_sets) {
    if (view.can_molodka) return 'molodka';
    return (view.trick || []).length ? 'beat-pass' : null;
  }
  if (view.phase === 'trump') return 'trump';
  if (o.sar === 'double') return 'double-sar';
  return (view.trick || []).length ? 'follow' : null;
}

/** Open the rules of `game`, scrolled to `section` (its heading gets the focus); the focus
 * goes back where it was when the dialog closes (or to `returnTo`). */
export async function openRules({ game, section = null, returnTo = null }) {
  const back = returnTo || document.activeElement;
  let data;
  let games;
  try {
    games = await loadGames();
    const first = gameOf(null).id;
    data = await rulesOf(gameOf(game).id).catch(() => rulesOf(first));
  } catch {
    toast(t('rules_failed'), 'error');
    return null;
  }
  const body = h('div', { class: 'help', 'data-help': data.game });
  const picker = h('div', { class: 'help-games', role: 'group', 'aria-label': t('game') });
  const dlg = showDialog({
    name: 'rules', title: t('how_to_play'), body: [picker, body],
    actions: [{ label: t('close'), action: 'close', primary: true }],
    onClose: () => { if (back && back.isConnected && back.focus) back.focus(); },
  });
  const title = dlg.el.querySelector('.dialog-title');
  title.id = 'help-title';
  title.tabIndex = -1;
  dlg.el.setAttribute('aria-labelledby', 'help-title');
  const show = (d, at) => {
    dlg.el.dataset.game = d.game;
    fill(picker, ...games.map((one) => one.id).map((g) => h('button', {
      class: `btn tool${g === d.game ? ' on' : ''}`, type: 'button', 'data-help-game': g,
      'aria-pressed': g === d.game ? 'true' : 'false',
      onclick: async () => {
        if (g === dlg.el.dataset.game) return;
        try {
          show(await rulesOf(g), null);
          picker.querySelector(`[data-help-game="${g}"]`).focus();
        } catch { toast(t('rules_failed'), 'error'); }
      },
    }, gameName(gameOf(g)))));
    fill(body, h('h3', { class: 'help-game' }, gameName(gameOf(d.game))),
      d.sections.map((s) => h('section', { 'data-help-section': s.id, 'aria-labelledby': `help-${s.id}` },
        h('h4', { id: `help-${s.id}`, tabindex: '-1' }, s.heading),
        s.paragraphs.map((p) => h('p', null, p)))));
    const target = at && body.querySelector(`[data-help-section="${at}"] h4`);
    if (target) {
      target.focus({ preventScroll: true });
      target.scrollIntoView({ block: 'start' });
    } else {
      dlg.el.scrollTop = 0;
    }
  };
  show(data, section);
  if (!section || !body.querySelector(`[data-help-section="${section}"]`)) title.focus();
  return dlg;
}
