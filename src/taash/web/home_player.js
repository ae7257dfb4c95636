// The home screen's player: "Playing as <name>" (their own profile a click away) and the
// settings: the name, the public profile's country, whether their finished deals may become
// puzzles (kept on the player, off until turned on), the speed of the bots and the table (calm
// the slowest), large cards (comfort.js) and offline play's files ("Make available offline",
// offline_panel.js).
import { api, setting, setSetting, knownMe, updateMe } from './api.js';
import { largeCards, setLargeCards } from './comfort.js';
import { t } from './i18n.js';
import { h, fill, toast } from './ui.js';
import { offlinePanel } from './offline_panel.js';

const SPEEDS = {
  calm: { bot: 2500, pace: 4000 }, // a slower pace (issue 50): time to hear and to see each play
  relaxed: { bot: 1200, pace: 2200 },
  normal: { bot: 600, pace: 1500 }, // a finished trick stays about 1.5 s (issue 43)
  fast: { bot: 150, pace: 350 },
};

export class PlayerSettings {
  constructor({ navigate }) {
    this.navigate = navigate;
    this.box = h('p', { class: 'player', 'data-section': 'player' }); // the line under the tagline
    this.el = this.settings();
  }

  destroy() {
    this.dead = true;
    this.offline.destroy();
  }

  settings() {
    const p = knownMe();
    this.nameInput = h('input', { type: 'text', maxlength: 24, value: p ? p.name : setting('name', ''), 'data-field': 'name',
      placeholder: t('your_name'), 'aria-label': t('your_name'), title: t('name_hint'),
      onchange: (e) => this.rename(e.target) });
    const name = this.nameInput;
    const speed = h('select', { 'data-field': 'speed', 'aria-label': t('speed'),
      onchange: (e) => {
        const s = SPEEDS[e.target.value];
        setSetting('speed', e.target.value);
        setSetting('bot_delay_ms', String(s.bot));
        setSetting('pace', String(s.pace));
      } },
    Object.keys(SPEEDS).map((k) => h('option', { value: k, selected: setting('speed', 'normal') === k }, t(`speed_${k}`))));
    // the country of the public profile's flag (ISO 3166-1 alpha-2; the server checks it)
    this.countryInput = h('input', { type: 'text', maxlength: 2, size: 3, 'data-field': 'country', autocomplete: 'country',
      placeholder: 'PK', 'aria-label': t('country'), title: t('country_hint'), spellcheck: 'false',
      onchange: (e) => this.setCountry(e.target) });
    // "my finished deals may become puzzles": the player's consent, kept by the server
    this.consentBox = h('input', { type: 'checkbox', 'data-field': 'puzzle-consent', checked: Boolean(p && p.puzzle_consent),
      'aria-describedby': 'puzzle-consent-hint', onchange: (e) => this.setConsent(e.target) });
    return h('section', { class: 'panel settings', 'data-section': 'settings' },
      h('h2', null, t('settings')),
      h('label', { class: 'field' }, h('span', null, t('your_name')), name),
      h('label', { class: 'field' }, h('span', null, t('country')), this.countryInput),
      h('label', { class: 'check-row' }, this.consentBox, h('span', null, t('puzzle_consent'))),
      h('p', { class: 'sub', id: 'puzzle-consent-hint' }, t('puzzle_consent_hint')),
      h('label', { class: 'field' }, h('span', null, t('speed')), speed),
      h('label', { class: 'check-row' }, h('input', { type: 'checkbox', 'data-field': 'large-cards', checked: largeCards(),
        onchange: (e) => setLargeCards(e.target.checked) }), h('span', null, t('large_cards'))),
      (this.offline = offlinePanel('settings')).el);
  }

  async setCountry(input) {
    const country = input.value.trim().toUpperCase();
    try {
      const p = await updateMe({ country });
      input.value = p.country || '';
      toast(t('country_saved'));
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
    }
  }

  async setConsent(box) {
    const want = box.checked;
    try {
      const p = await updateMe({ puzzle_consent: want });
      box.checked = Boolean(p.puzzle_consent);
      toast(t(p.puzzle_consent ? 'puzzle_consent_on' : 'puzzle_consent_off'));
    } catch (e) {
      box.checked = !want;
      toast(`${t('error')}: ${e.message}`, 'error');
    }
  }

  async loadCountry(p) {
    try {
      const pub = await api('GET', `/api/players/${encodeURIComponent(p.id)}`);
      if (!this.dead && document.activeElement !== this.countryInput) this.countryInput.value = pub.country || '';
    } catch { /* an older server: no country */ }
  }

  /** The player of this browser's session: their name in the line under the tagline and in
   * the settings, their country once per player. */
  showMe(p) {
    if (this.countryInput && this.countryInput.dataset.loaded !== p.id) {
      this.countryInput.dataset.loaded = p.id;
      this.loadCountry(p);
    }
    if (this.nameInput && document.activeElement !== this.nameInput) this.nameInput.value = p.name;
    if (this.consentBox) this.consentBox.checked = Boolean(p.puzzle_consent);
    // the name opens the player's own profile: ratings, stats, history (issue 43)
    const [before, after] = t('playing_as', { name: '\u0000' }).split('\u0000');
    fill(this.box, h('span', { class: 'sub', 'data-player-name': p.name }, before,
      h('a', { href: `/p/${encodeURIComponent(p.id)}`, 'data-action': 'my-profile',
        onclick: (e) => { e.preventDefault(); this.navigate(`/p/${encodeURIComponent(p.id)}`); } }, p.name),
      after ?? ''));
  }

  async rename(input) {
    const name = input.value.trim();
    if (!knownMe()) { setSetting('name', name); setSetting('name_synced', ''); return; }
    try {
      const p = await updateMe({ name });
      setSetting('name', p.name);
      setSetting('name_synced', '1');
      this.showMe(p);
      toast(t('name_saved'));
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
      input.value = knownMe().name;
    }
  }
}
