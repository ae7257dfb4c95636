// The puzzles page (issue 49): /puzzles (the next puzzle near the player's rating, in the game
// picked), /puzzles?daily=<game> (the daily puzzle), /puzzles?streak=<game> (a streak: puzzles
// of rising difficulty until the first miss) and /puzzles/<id>.  The position is drawn by
// puzzle_board.js with the table's cards; the player's card goes to the server, whose answer
// says right or wrong and only then gives the solution and the best line after it, with the
// ratings it moved.  A guest plays unrated, and the page says so.  Loaded only when asked for.
import { api, setSetting, setting } from './api.js';
import { gameName, gameOf, loadGames } from './catalogue.js';
import { t } from './i18n.js';
import { PuzzleBoard, cardRow } from './puzzle_board.js';
import { h, fill, toast } from './ui.js';

const round = (x) => String(Math.round(x));

/** Open the puzzles page in `root`; returns the unmount. */
export function mountPuzzles(root, { id, navigate }) {
  const page = new PuzzlesPage(root, navigate, id);
  return () => page.destroy();
}

class PuzzlesPage {
  constructor(root, navigate, id) {
    Object.assign(this, { root, navigate });
    this.main = h('main', { class: 'puzzles-page', 'data-page': 'puzzles', 'aria-busy': 'true' },
      h('p', { class: 'sub' }, t('loading')));
    fill(root, this.main);
    this.start(id, new URLSearchParams(location.search));
  }

  destroy() {
    this.dead = true;
    if (this.board) this.board.destroy();
  }

  async start(id, q) {
    let games;
    try {
      [games, this.me] = await Promise.all([loadGames(), api('GET', '/api/me/puzzles')]);
    } catch {
      if (!this.dead) fill(this.main, this.bar(), h('p', { class: 'status-error', 'data-error': 'puzzles' }, t('puzzle_failed')));
      return;
    }
    if (this.dead) return;
    this.games = games;
    const asked = q.get('daily') || q.get('streak') || q.get('game') || setting('puzzle_game', '');
    this.game = (gameOf(asked) || games[0]).id;
    this.frame();
    if (id) await this.load(`/api/puzzles/${encodeURIComponent(id)}`);
    else if (q.get('daily')) await this.load(`/api/puzzles/daily?game=${encodeURIComponent(this.game)}`, 'daily');
    else if (q.get('streak')) await this.startStreak();
    else await this.next();
    if (this.dead) return;
    this.main.removeAttribute('aria-busy');
    this.main.dataset.ready = '';
  }

  bar() {
    return h('header', { class: 'bar' },
      h('button', { class: 'btn icon back', type: 'button', 'data-action': 'home', 'aria-label': t('home'),
        onclick: () => this.navigate('/') }, h('span', { class: 'chev' })),
      h('h1', { class: 'title' }, t('puzzles_title')));
  }

  frame() {
    document.title = `${t('puzzles_title')} · taash`;
    this.ratingBox = h('p', { class: 'puzzle-rating', 'data-rated': String(!!this.me.rated) });
    this.picker = h('div', { class: 'puzzle-games', role: 'group', 'aria-label': t('puzzles_game') },
      this.games.map((g) => h('button', { class: 'btn', type: 'button', 'data-game': g.id,
        onclick: () => { this.streak = null; this.pick(g.id); this.next(); } }, gameName(g))));
    this.streakBox = h('div', { class: 'puzzle-streak', 'data-streak': '' });
    this.prompt = h('p', { class: 'puzzle-prompt', 'data-prompt': '' });
    this.boardBox = h('div', { class: 'puzzle-box' });
    this.resultBox = h('div', { class: 'puzzle-result-box', 'aria-live': 'polite' });
    // the position fits a phone's first screen: the notes about it come after it
    fill(this.main, this.bar(), this.ratingBox, h('div', { class: 'puzzle-modes' }, this.picker, this.streakBox),
      this.prompt, this.boardBox, this.resultBox,
      h('p', { class: 'sub', 'data-open-hands': '' }, t('puzzles_open_hands')),
      h('p', { class: 'sub' }, t('puzzle_streak_about')));
    this.pick(this.game);
  }

  pick(game) {
    this.game = game;
    setSetting('puzzle_game', game);
    for (const b of this.picker.querySelectorAll('[data-game]')) {
      b.setAttribute('aria-pressed', String(b.dataset.game === game));
    }
    this.showRating();
    this.showStreak();
  }

  /** The player's puzzle rating in this game, or that a guest plays unrated. */
  showRating(moved) {
    if (!this.me.rated) {
      fill(this.ratingBox, t('puzzle_guest'));
      return;
    }
    const mine = (this.me.games || []).find((g) => g.game === this.game);
    const now = moved ? moved.after : mine && mine.rating ? mine.rating.rating : null;
    this.ratingBox.dataset.rating = now === null ? '' : round(now);
    fill(this.ratingBox, now === null ? t('puzzle_rating_new') : t('puzzle_rating', { rating: round(now) }));
  }

  showStreak() {
    const s = this.streak;
    if (!s) {
      fill(this.streakBox, h('button', { class: 'btn', type: 'button', 'data-action': 'streak',
        onclick: () => this.startStreak() }, t('puzzle_streak_start')));
      delete this.streakBox.dataset.run;
      return;
    }
    this.streakBox.dataset.run = String(s.run);
    fill(this.streakBox, h('b', null, t('puzzle_streak_run', { run: s.run, best: s.best })));
  }

  async load(path, kind = null) {
    let puzzle;
    try {
      puzzle = await api('GET', path);
    } catch (e) {
      if (!this.dead) fill(this.boardBox, h('p', { class: 'status-error', 'data-error': e.code }, e.message));
      return;
    }
    if (!this.dead) this.show(puzzle, kind);
  }

  async next() {
    await this.load(`/api/puzzles/next?game=${encodeURIComponent(this.game)}`);
  }

  async startStreak() {
    let s;
    try {
      s = await api('POST', '/api/puzzles/streak', { body: { game: this.game } });
    } catch (e) {
      toast(e.message, 'error');
      return;
    }
    if (this.dead) return;
    this.streak = s;
    this.showStreak();
    this.show(s.puzzle);
  }

  show(puzzle, kind = null) {
    if (this.board) this.board.destroy();
    if (puzzle.game !== this.game) this.pick(puzzle.game);
    this.puzzle = puzzle;
    this.busy = false;
    this.main.dataset.puzzle = puzzle.id;
    this.main.dataset.state = 'ask';
    this.board = new PuzzleBoard(puzzle, (action) => this.attempt(action));
    const unit = (gameOf(puzzle.game) || {}).deal_unit === 'points' ? 'points' : 'tricks';
    const said = [kind === 'daily' ? h('b', { 'data-daily': puzzle.date }, `${t('puzzle_daily')} (${puzzle.date}). `) : null,
      t(`puzzle_find_${unit}`)];
    if (puzzle.attempted) said.push(' ', t(puzzle.attempted.solved ? 'puzzle_tried_solved' : 'puzzle_tried_missed'));
    fill(this.prompt, said);
    fill(this.boardBox, this.board.el);
    fill(this.resultBox);
  }

  async attempt(action) {
    if (this.busy) return;
    this.busy = true;
    let answer;
    try {
      answer = await api('POST', `/api/puzzles/${encodeURIComponent(this.puzzle.id)}/attempts`, { body: { action } });
    } catch (e) {
      this.busy = false;
      toast(e.message, 'error'); // a move the rules refuse: the core's words, nothing counted
      return;
    }
    if (this.dead) return;
    this.board.reveal(answer);
    this.main.dataset.state = answer.solved ? 'right' : 'wrong';
    if (answer.player) this.showRating(answer.player);
    if (answer.player) this.keep(answer.player.after);
    if (answer.streak) {
      this.streak = answer.streak.over ? null : answer.streak;
      this.showStreak();
    }
    fill(this.resultBox, this.result(answer));
    const next = this.resultBox.querySelector('[data-action="next"]');
    if (next) next.focus({ preventScroll: true });
  }

  /** The rating after an attempt, kept for the next drawing of the rating line. */
  keep(after) {
    const games = this.me.games || (this.me.games = []);
    let mine = games.find((g) => g.game === this.game);
    if (!mine) games.push(mine = { game: this.game, rating: null });
    mine.rating = { ...(mine.rating || {}), rating: after };
  }

  result(a) {
    const board = this.board;
    const value = a.value || {};
    const said = [];
    if (a.player) said.push(t('puzzle_rating_moved', { before: round(a.player.before), after: round(a.player.after) }));
    else if (!a.counted) said.push(t('puzzle_not_counted'));
    else if (!this.me.rated) said.push(t('puzzle_guest_short'));
    const streak = a.streak;
    let action;
    if (streak && streak.over) {
      said.push(t('puzzle_streak_over', { run: streak.run, best: streak.best }));
      action = h('button', { class: 'btn primary', type: 'button', 'data-action': 'streak-again',
        onclick: () => this.startStreak() }, t('puzzle_streak_start'));
    } else if (streak) {
      action = h('button', { class: 'btn primary', type: 'button', 'data-action': 'next',
        onclick: () => this.show(streak.puzzle) }, t('puzzle_next'));
    } else {
      action = h('button', { class: 'btn primary', type: 'button', 'data-action': 'next',
        onclick: () => this.next() }, t('puzzle_next'));
    }
    return h('section', { class: 'panel puzzle-result', 'data-result': a.solved ? 'right' : 'wrong', role: 'status' },
      h('h2', null, a.solved ? t('puzzle_solved_it') : t('puzzle_missed_it')),
      h('div', { class: 'ex-row', 'data-chosen': a.action },
        h('span', { class: 'ex-label' }, t('puzzle_your_move')),
        cardRow(a.action.split(':')[1].split(','), board.v.trump)),
      h('div', { class: 'ex-row', 'data-solution': a.solution.join(' ') },
        h('span', { class: 'ex-label' }, t('puzzle_solution')),
        cardRow(a.solution.flatMap((x) => x.split(':')[1].split(',')), board.v.trump)),
      value.best !== undefined ? h('p', { 'data-value': '' }, t(`puzzle_value_${value.unit === 'points' ? 'points' : 'tricks'}`,
        { best: value.best, obvious: value.obvious })) : null,
      a.themes.length ? h('p', { class: 'puzzle-themes' }, `${t('puzzle_themes')}: `,
        a.themes.map((x) => t(`puzzle_theme_${x}`)).join(', ')) : null,
      a.continuation.length ? h('details', { class: 'puzzle-line' }, h('summary', null, t('puzzle_line')),
        board.line(a.continuation)) : null,
      said.map((s) => h('p', { class: 'sub' }, s)),
      h('p', { class: 'puzzle-next' }, action));
  }
}
