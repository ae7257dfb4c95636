// The new table's game picker and options, drawn from the games' descriptors (GET /api/games,
// through catalogue.js) and read back from the form: no game's options are written out here.
// The home screen's new table (home_new_table.js) and offline play's screen (offline_list.js)
// both draw theirs with these.
import { h, fill } from './ui.js';
import { gameName, words, gameOptions, optionLabel, valueLabel, unitLabel, countLabel, openLabel, flagMet } from './catalogue.js';

// each game's mark in the picker (a game the page has none for gets the spade)
const ICONS = { 'court-piece-2p': '\u2666\uFE0E', goat: '\u2663\uFE0E' };

/** The games to choose from, into `box`: a radio each (the `chosen` id checked), with its
 * mark, name and blurb; `pick(id)` when another is chosen.  The keyboard's focus stays on the
 * game chosen when the picker is drawn anew (arrow keys). */
export function renderGamePicker(box, games, chosen, pick) {
  const focused = box.contains(document.activeElement);
  fill(box, ...games.map((g) => h('label', {
    class: `game-choice${g.id === chosen ? ' chosen' : ''}`, 'data-game-choice': g.id,
  },
  h('input', { type: 'radio', name: 'game', value: g.id, checked: g.id === chosen, onchange: () => pick(g.id) }),
  h('span', { class: 'game-icon', 'aria-hidden': 'true' }, ICONS[g.id] || '\u2660\uFE0E'),
  h('b', null, gameName(g)),
  h('small', null, words(`game_${g.id}_blurb`, '')))));
  if (focused) box.querySelector('input:checked').focus();
}

/** A field's first value: the one in `kept` (options chosen before, as gameOptions gives
 * them) where it is one the field takes, else the core's default. */
function first(f, kept) {
  if (!kept || !(f.name in kept)) return f.default;
  const v = kept[f.name];
  if (f.kind === 'choice') return f.values.includes(v) ? v : f.default;
  if (f.kind === 'flag') return typeof v === 'boolean' ? v : f.default;
  if (f.kind === 'count') return Number.isInteger(v) && v >= f.min && v <= f.max ? v : f.default;
  if (v === null) return f.open_label ? null : f.default; // count_of: open, or a unit's count
  const unit = v && typeof v === 'object' && f.units.find((u) => u.name === Object.keys(v)[0]);
  const n = unit && v[unit.name];
  return unit && Number.isInteger(n) && n >= unit.min && n <= unit.max ? v : f.default;
}

/** The game's options as the core states them, into `box`: a select for a choice, a box for a
 * flag, a number (with the core's bounds) for a count, a select and a number for a count of
 * one of several units (Court Piece's session: coats, deals or open).  Each starts at the
 * core's default, or at `kept`'s value for it (options chosen before). */
export function renderOptions(box, desc, kept = null) {
  const rows = desc.fields.map((f) => {
    const start = first(f, kept);
    if (f.kind === 'choice') {
      return h('label', { class: 'field' }, h('span', null, optionLabel(f)),
        h('select', { 'data-option': f.name }, f.values.map((v) => h('option', { value: String(v), selected: v === start }, valueLabel(f, v)))));
    }
    if (f.kind === 'flag') {
      return h('label', { class: 'field check' }, h('input', { type: 'checkbox', 'data-option': f.name, checked: start }),
        h('span', null, optionLabel(f)));
    }
    if (f.kind === 'count') {
      return h('label', { class: 'field' }, h('span', null, optionLabel(f)),
        h('input', { type: 'number', min: f.min, max: f.max, value: start, 'data-option': f.name, inputmode: 'numeric' }));
    }
    if (f.kind === 'count_of') {
      const chosen = start ? Object.keys(start)[0] : 'open';
      const choices = f.units.map((u) => h('option', { value: u.name, selected: u.name === chosen }, unitLabel(f, u)));
      if (f.open_label) choices.push(h('option', { value: 'open', selected: chosen === 'open' }, openLabel(f)));
      const unit = f.units.find((u) => u.name === chosen) || f.units[0];
      return [
        h('label', { class: 'field' }, h('span', null, optionLabel(f)), h('select', { 'data-option': f.name }, choices)),
        h('label', { class: 'field' }, h('span', null, countLabel(f, unit)),
          h('input', { type: 'number', min: unit.min, max: unit.max, value: start ? start[unit.name] : unit.default,
            'data-option': f.count_key, inputmode: 'numeric' })),
      ];
    }
    return null;
  });
  fill(box, ...rows.flat());
  linkOptions(box, desc);
}

/** Options that depend on others: a flag whose `needs` are not met is off and greyed out
 * (Court Piece's ace rule counts only with double sar, CP-8); a count of units names what
 * it counts, takes that unit's bounds and default, and is hidden when open. */
function linkOptions(box, desc) {
  const get = (f) => box.querySelector(`[data-option="${f}"]`);
  const fields = desc.fields;
  const sync = (changed) => {
    for (const f of fields) {
      if (f.kind === 'flag' && Object.keys(f.needs).length) {
        const flag = get(f.name);
        flag.disabled = !flagMet(f, get);
        if (flag.disabled) flag.checked = false;
        flag.closest('label').classList.toggle('off', flag.disabled);
      } else if (f.kind === 'count_of') {
        const n = get(f.count_key);
        const unit = f.units.find((u) => u.name === get(f.name).value);
        const label = n.closest('label');
        label.hidden = !unit;
        if (!unit) continue;
        label.firstChild.textContent = countLabel(f, unit);
        n.max = unit.max;
        if (changed === get(f.name)) n.value = unit.default; // a new unit: its own default
      }
    }
  };
  for (const f of fields) {
    if (f.kind !== 'count') get(f.name).addEventListener('change', (e) => sync(e.target));
  }
  sync(null);
}

/** The options chosen in `box` for the game `desc` (undefined while the games have not come). */
export function readOptions(box, desc) {
  return desc ? gameOptions(desc, (f) => box.querySelector(`[data-option="${f}"]`)) : undefined;
}
