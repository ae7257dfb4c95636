// Offline play's own screen (/offline, issue 46) and the list of offline matches kept on this
// device (offline_records.js), each marked offline, with its state (unfinished, on this device,
// in the player's history, or not taken, with the server's reason) and an Export button that
// downloads its taash-record/1.  The list shows on /offline and on the player's own profile.
import { setting, setSetting } from './api.js';
import { gameName, loadGames } from './catalogue.js';
import { t } from './i18n.js';
import { exportRecord, offlineRecords, recordFileName } from './offline_records.js';
import { LEVELS } from './offline_table.js';
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

/** /offline: a game to play against the bots of the level chosen, and the kept matches. */
export function mountOfflineHome(root, { navigate }) {
  document.title = `${t('play_offline')} · taash`;
  let level = setting('level', 'easy');
  if (!LEVELS.includes(level)) level = 'easy';
  const picker = h('select', { 'data-field': 'offline-bots', 'aria-label': t('bots_level'),
    onchange: (e) => { setSetting('level', e.target.value); } },
  LEVELS.map((l) => h('option', { value: l, selected: l === level }, t(`level_${l}`))));
  const games = h('div', { class: 'offline-games' }, h('p', { class: 'sub' }, t('loading')));
  loadGames().then((all) => fill(games, all.map((g) => h('button', {
    class: 'btn primary', type: 'button', 'data-offline-game': g.id,
    onclick: () => navigate(`/offline/${encodeURIComponent(g.id)}?bots=${picker.value}`),
  }, gameName(g))))).catch(() => fill(games, h('p', { class: 'error' }, t('games_unavailable'))));
  fill(root, h('main', { class: 'home', 'data-page': 'offline-home' },
    h('p', null, h('a', { href: '/', onclick: (e) => { e.preventDefault(); navigate('/'); } }, `\u2190 ${t('home')}`)),
    h('h1', null, t('play_offline')),
    h('p', { class: 'sub' }, t('play_offline_note')),
    h('section', { class: 'panel' }, h('label', null, t('bots_level'), ' ', picker), games),
    offlineSection()));
  return () => {};
}
