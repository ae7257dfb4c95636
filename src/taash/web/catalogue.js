// The games as the rules core states them (GET /api/games, also served as the page's file
// /assets/games.json so that the service worker keeps it): their names, seats, teams and
// options with their defaults and bounds.  The home screen's game picker and new-table form are
// built from it, so a game added to the core shows up here with its options and bounds.
import { t, hasWord } from './i18n.js';

let loading = null;
let loaded = null; // the games once fetched: what gameOf reads without waiting

/** The games, fetched once (a failed fetch is tried again on the next call). */
export function loadGames() {
  if (!loading) {
    loading = fetch('/assets/games.json').then((res) => {
      if (!res.ok) throw new Error(`games: ${res.status}`);
      return res.json();
    }).then((games) => { loaded = games; return games; });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** A game as the core states it, without waiting: the game of that id, or the catalogue's
 * first game (the default where there is no table yet, or for an id the page does not know);
 * null until loadGames has brought them (a table view awaits it before its first draw). */
export function gameOf(id) {
  if (!loaded || !loaded.length) return null;
  return loaded.find((g) => g.id === id) || loaded[0];
}

/** The first of the loaded games of `seats` seats (for a game of that size the page needs
 * where the player chose another), else null. */
export function firstGameOf(seats) {
  return (loaded || []).find((g) => g.seats === seats) || null;
}

/** Words of the page's language where it has them (`key`), else the core's English. */
export function words(key, english) {
  return hasWord(key) ? t(key) : english;
}

export function gameName(game) {
  return words(`game_${game.id}`, game.name);
}

/** The page's words for an option, for one of its values, for a unit's number. */
export const optionLabel = (f) => words(`opt_${f.key}`, f.label);
export const valueLabel = (f, v) => words(`opt_${f.key}_${v}`, f.labels[String(v)]);
export const unitLabel = (f, u) => words(`opt_${f.key}_${u.name}`, u.label);
export const countLabel = (f, u) => words(`opt_${f.count_key}_${u.name}`, u.count_label);
export const openLabel = (f) => words(`opt_${f.key}_open`, f.open_label);

/** A table's options in the page's words, one phrase each as the new-table form names them
 * ("Sar: Double sar", "Ace rule (double sar)", "Number of deals: 2"); a flag that is off is left
 * out, and so is an option the game does not have. */
export function optionsText(game, options) {
  const out = [];
  for (const f of game.fields) {
    if (!options || !(f.name in options)) continue;
    const v = options[f.name];
    if (f.kind === 'choice') out.push(`${optionLabel(f)}: ${valueLabel(f, v)}`);
    else if (f.kind === 'flag') { if (v) out.push(optionLabel(f)); }
    else if (f.kind === 'count') out.push(`${optionLabel(f)}: ${v}`);
    else if (f.kind === 'count_of') {
      const unit = v && f.units.find((u) => u.name === Object.keys(v)[0]);
      out.push(unit ? `${countLabel(f, unit)}: ${v[unit.name]}` : openLabel(f));
    }
  }
  return out;
}

/** A whole number field's value: below 1 or not a number takes `fallback`; above `max`, max. */
function count(input, fallback, max) {
  const n = parseInt(input.value, 10);
  if (!Number.isFinite(n) || n < 1) return fallback;
  return Math.min(n, max);
}

/** A new table's options (POST /api/tables `options`) from the form's fields: `get(name)`
 * gives a field's input ({value}, and {checked, disabled} for a box).  A flag whose `needs`
 * are not met is off. */
export function gameOptions(game, get) {
  const out = {};
  for (const f of game.fields) {
    if (f.kind === 'choice') {
      const v = get(f.name).value;
      out[f.name] = f.values.find((x) => String(x) === v) ?? f.default;
    } else if (f.kind === 'count') {
      out[f.name] = count(get(f.name), f.default, f.max);
    } else if (f.kind === 'count_of') {
      const unit = f.units.find((u) => u.name === get(f.name).value);
      out[f.name] = unit ? { [unit.name]: count(get(f.count_key), unit.default, unit.max) }
        : f.open_label ? null : f.default;
    }
  }
  for (const f of game.fields) {
    if (f.kind === 'flag') {
      const met = Object.entries(f.needs).every(([k, v]) => out[k] === v);
      out[f.name] = met && Boolean(get(f.name).checked);
    }
  }
  return out;
}

/** Whether a flag's `needs` are met by the fields as they stand (the form greys it out). */
export function flagMet(f, get) {
  return Object.entries(f.needs).every(([k, v]) => get(k) && get(k).value === String(v));
}
