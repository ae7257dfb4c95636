// The home screen's, voice's, the profile's and the puzzles' parts (home*.js, voice*.js,
// profile*.js, puzzle*.js): each links (every import names
// an export of its module), and the new table's options are read back from the form's
// data-option fields.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { installBrowser, WEB } from './browser.mjs';

installBrowser();
// the games as the core describes them (tests/games/test_descriptor.py keeps this file current)
const GAMES = JSON.parse(readFileSync(new URL('./games.json', import.meta.url), 'utf8'));
const { readOptions } = await import('../../src/taash/web/home_options.js');

test('the home screen and voice link: each of their modules gives what the others import', async () => {
  const parts = readdirSync(WEB).filter((f) => /^(home|voice|puzzles?|profile)(_\w+)?\.js$/.test(f)).sort();
  assert.deepEqual(parts, ['home.js', 'home_featured.js', 'home_join.js', 'home_new_table.js', 'home_options.js',
    'home_player.js', 'home_puzzle.js', 'home_tables.js', 'profile.js', 'profile_puzzles.js', 'puzzle_board.js',
    'puzzles.js', 'voice.js', 'voice_panel.js', 'voice_peer.js']);
  // an import of a name its module does not export fails here, before anything runs
  const loaded = await Promise.all(parts.map((f) => import(new URL(f, WEB))));
  assert.equal(typeof loaded[0].mountHome, 'function');
  assert.equal(typeof loaded[11].mountPuzzles, 'function');
  assert.equal(typeof loaded[12].Voice, 'function');
});

test("the new table's options are read from the form's data-option fields, none before the games come", () => {
  const values = { sar: { value: 'double' }, ace_rule: { checked: true }, trump_rule: { value: 'free' },
    session_end: { value: 'deals' }, session_n: { value: '12' } };
  const asked = [];
  const box = {
    querySelector(selector) {
      asked.push(selector);
      const field = selector.match(/^\[data-option="(\w+)"\]$/)[1];
      return { value: '', checked: false, ...values[field] };
    },
  };
  const cp = GAMES.find((g) => g.seats === 4 && g.fields.some((f) => f.name === 'sar'));
  assert.deepEqual(readOptions(box, cp), { sar: 'double', ace_rule: true, trump_rule: 'free', session_end: { deals: 12 } });
  assert.ok(asked.length >= 4);
  asked.length = 0;
  assert.equal(readOptions(box, null), undefined);
  assert.deepEqual(asked, []);
});
