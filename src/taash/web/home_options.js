// The new table's options, drawn from the chosen game's descriptor (GET /api/games, through
// catalogue.js) and read back from the form: no game's options are written out here.
import { h, fill } from './ui.js';
import { gameOptions, optionLabel, valueLabel, unitLabel, countLabel, openLabel, flagMet } from './catalogue.js';

/** The game's options as the core states them, into `box`: a select for a choice, a box for a
 * flag, a number (with the core's bounds) for a count, a select and a number for a count of
 * one of several units (Court Piece's session: coats, deals or open). */
export function renderOptions(box, desc) {
  const rows = desc.fields.map((f) => {
    if (f.kind === 'choice') {
      return h('label', { class: 'field' }, h('span', null, optionLabel(f)),
        h('select', { 'data-option': f.name }, f.values.map((v) => h('option', { value: String(v), selected: v === f.default }, valueLabel(f, v)))));
    }
    if (f.kind === 'flag') {
      return h('label', { class: 'field check' }, h('input', { type: 'checkbox', 'data-option': f.name, checked: f.default }),
        h('span', null, optionLabel(f)));
    }
    if (f.kind === 'count') {
      return h('label', { class: 'field' }, h('span', null, optionLabel(f)),
        h('input', { type: 'number', min: f.min, max: f.max, value: f.default, 'data-option': f.name, inputmode: 'numeric' }));
    }
    if (f.kind === 'count_of') {
      const chosen = f.default ? Object.keys(f.default)[0] : 'open';
      const choices = f.units.map((u) => h('option', { value: u.name, selected: u.name === chosen }, unitLabel(f, u)));
      if (f.open_label) choices.push(h('option', { value: 'open', selected: chosen === 'open' }, openLabel(f)));
      const unit = f.units.find((u) => u.name === chosen) || f.units[0];
      return [
        h('label', { class: 'field' }, h('span', null, optionLabel(f)), h('select', { 'data-option': f.name }, choices)),
        h('label', { class: 'field' }, h('span', null, countLabel(f, unit)),
          h('input', { type: 'number', min: unit.min, max: unit.max, value: f.default ? f.default[unit.name] : unit.default,
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
