// Offline play's own screen (/offline, issue 46) and the list of offline matches kept on this
// device (offline_records.js), each marked offline, with its state (unfinished, on this device,
// in the player's history, or not taken, with the server's reason) and an Export button that
// downloads its taash-record/1.  The list shows on /offline and on the player's own profile.
import { setting, setSetting } from './api.js';
import { loadGames } from './catalogue.js';
import { renderGamePicker, renderOptions, readOptions } from './home_options.js';
import { t } from './i18n.js';
import { exportRecord, offlineRecords, recordFileName } from './offline_records.js';
import { LEVELS, offlineAddress } from './offline_table.js';
import { h, fill } from './ui.js';

function state(e) {
  if (!e.over) return ['unfinished', t('offline_unfinished')];
  if (e.uploaded) return ['uploaded', t('offline_uploaded')];
  if (e.refused) return ['refused', t('offline_refused', { reason: e.refused.message })];
  return ['kept', t('offline_kept')];
}

function line(e) {
  const [name, said] = state(e);
  return h('li', { 'data-offline-record': e.key, 'data-offline': 'true', 'data-state': name },
    h('span', null, new Date(e.created).toLocaleString()), ' · ', t(`game_${e.game}`), ' · ',
    h('b', { class: 'offline-mark' }, t('offline')), ' · ', said, ' ',
    h('button', { class: 'btn small', type: 'button', 'data-action': 'export-record',
      title: recordFileName(e), onclick: () => exportRecord(e) }, t('export_record')));
}

/** The panel of offline matches kept on this device, newest first (filled once read). */
export function offlineSection() {
  const box = h('section', { class: 'panel', 'data-section': 'offline' },
    h('h2', null, t('offline_matches')), h('p', { class: 'sub' }, t('loading')));
  offlineRecords().then((all) => {
    fill(box, h('h2', null, t('offline_matches')), all.length
      ? h('ul', { 'data-list': 'offline' }, all.map(line))
      : h('p', { class: 'muted' }, t('offline_none')));
  }).catch(() => fill(box, h('h2', null, t('offline_matches')), h('p', { class: 'muted' }, t('offline_none'))));
  return box;
}

/** The options last chosen here for each game ({game id: options}), or none. */
function keptOptions() {
  try {
    const all = JSON.parse(setting('offline_options', '{}'));
    return all && typeof all === 'object' && !Array.isArray(all) ? all : {};
  } catch { return {}; }
}

/** /offline: a game to play against the bots of the level chosen, with its options (the
 * online new table's pickers, home_options.js; the game and level remembered as that form
 * remembers them, the options each game's own), and the kept matches. */
export function mountOfflineHome(root, { navigate }) {
  document.title = `${t('play_offline')} · taash`;
  let level = setting('level', 'easy');
  if (!LEVELS.includes(level)) level = 'easy';
  const picker = h('select', { 'data-field': 'offline-bots', 'aria-label': t('bots_level'),
    onchange: (e) => { setSetting('level', e.target.value); } },
  LEVELS.map((l) => h('option', { value: l, selected: l === level }, t(`level_${l}`))));
  const games = h('div', { class: 'games', role: 'radiogroup', 'aria-label': t('game') },
    h('p', { class: 'sub' }, t('loading')));
  const optionsBox = h('div', { class: 'options', 'data-offline-options': '' });
  const play = h('button', { class: 'btn primary big', type: 'button', 'data-action': 'start-offline', disabled: true },
    t('play_now'));
  let all = null;
  let game = setting('game', '');
  const desc = () => all.find((g) => g.id === game);
  const remember = () => {
    setSetting('offline_options', JSON.stringify({ ...keptOptions(), [game]: readOptions(optionsBox, desc()) }));
  };
  const show = () => {
    setSetting('game', game);
    renderGamePicker(games, all, game, (id) => { game = id; show(); });
    renderOptions(optionsBox, desc(), keptOptions()[game]);
  };
  optionsBox.addEventListener('change', remember);
  play.onclick = () => {
    remember();
    navigate(offlineAddress(game, picker.value, readOptions(optionsBox, desc())));
  };
  loadGames().then((got) => {
    all = got;
    if (!all.some((g) => g.id === game)) game = all[0].id;
    show();
    play.disabled = false;
  }).catch(() => fill(games, h('p', { class: 'error' }, t('games_unavailable'))));
  fill(root, h('main', { class: 'home', 'data-page': 'offline-home' },
    h('p', null, h('a', { href: '/', onclick: (e) => { e.preventDefault(); navigate('/'); } }, `\u2190 ${t('home')}`)),
    h('h1', null, t('play_offline')),
    h('p', { class: 'sub' }, t('play_offline_note')),
    h('section', { class: 'panel new-game', 'data-section': 'offline-game' },
      h('h2', null, t('new_game')), games,
      h('h3', null, t('options')), optionsBox,
      h('label', { class: 'field' }, h('span', null, t('bots_level')), picker), play),
    offlineSection()));
  return () => {};
}
