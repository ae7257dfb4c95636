// The deal review: a finished deal stepped through card by card or trick by trick (forward,
// back, jump to a trick), every hand open or only one seat's, the trump call with the caller's
// five cards, Goat's face-down passes turned up, the double-sar pile and each collection, the
// deal's result, and its analysis (run by the server's worker, kept with the table).
//
// The page has no rules engine: the server answers the steps (GET /api/tables/{id}/review,
// or POST /api/review with a record pasted or dropped in) and the analysis
// (POST /api/tables/{id}/analysis, POST /api/review/analysis, GET /api/analyses/{key}).
// Opened at /review?table=ID&deal=D&seat=S, or /review alone for a record of one's own.
// The position's parts are drawn by review_deal.js, the analysis by review_analysis.js, the
// seats named by review_names.js.
import { api, ApiError } from './api.js';
import { cardEl } from './cards.js';
import { gameOf, loadGames } from './catalogue.js';
import { t } from './i18n.js';
import { h, fill, toast } from './ui.js';
import { analysisBlock } from './review_analysis.js';
import { callLine, handsBlock, resultBlock, scoreLine, tableBlock } from './review_deal.js';
import { seatName, sideName } from './review_names.js';

export { actionText, gainText, solverName } from './review_analysis.js';

const POLL_MS = 500;

/** The review's address: a table's deal (deal null: the last one over), seen from a seat. */
export function reviewUrl(table, deal = null, seat = null) {
  const q = new URLSearchParams({ table });
  if (deal !== null && deal !== undefined) q.set('deal', String(deal));
  if (seat !== null && seat !== undefined) q.set('seat', String(seat));
  return `/review?${q}`;
}

export function mountReview(root, { navigate }) {
  const q = new URLSearchParams(location.search);
  const num = (k) => (q.get(k) !== null && /^\d+$/.test(q.get(k)) ? Number(q.get(k)) : null);
  const r = new Review(root, navigate, q.get('table'), num('deal'), num('seat'),
    q.get('event') && num('board') ? { event: q.get('event'), board: num('board') } : null);
  return () => r.destroy();
}

/** POST a text body (a record as the player gave it: the server names what is wrong). */
async function postText(path, text) {
  let res;
  try {
    res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text, cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, 'network', String(e && e.message || e), null);
  }
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || String(res.status), e.message || res.statusText, e.rule || null);
  }
  return data;
}

/** The games as the core describes them, loaded before a deal is shown (its hands sort in its
 * game's rank order); without them the deal still shows. */
const gamesKnown = () => loadGames().catch(() => null);

/** A board of a duplicate event the player finished (docs/events.md): its record, as the
 * events API gives it to them, reviewed as a record of their own. */
async function openEventBoard(review, { event, board }) {
  try {
    const rec = await api('GET', `/api/events/${encodeURIComponent(event)}/boards/${board}/record`);
    if (review.dead) return;
    review.record = JSON.stringify(rec);
    await review.loadRecord(0);
  } catch (e) {
    if (!review.dead) review.renderEntry(e.message);
  }
}

class Review {
  constructor(root, navigate, table, deal, seat, eventBoard = null) {
    Object.assign(this, { root, navigate, table, deal, seat });
    this.only = null; // whose hand alone is shown; null: every hand
    this.record = null; // the text of a record pasted or dropped in
    this.d = null; // the deal's steps, as the server gave them
    this.at = 0; // the position shown
    this.analysis = null;
    this.job = null;
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    fill(root, this.el = h('main', { class: 'review', 'data-screen': 'review' }));
    if (table) this.loadTable(deal);
    else if (eventBoard) openEventBoard(this, eventBoard);
    else this.renderEntry();
  }

  destroy() {
    this.dead = true;
    clearTimeout(this.poll);
    clearInterval(this.ticker);
    document.removeEventListener('keydown', this.onKey);
  }

  bar() {
    return h('header', { class: 'review-bar' },
      h('button', { class: 'btn tool', type: 'button', 'data-action': 'review-home', onclick: () => this.navigate('/') }, t('home')),
      this.table ? h('button', { class: 'btn tool', type: 'button', 'data-action': 'review-table',
        onclick: () => this.navigate(`/t/${encodeURIComponent(this.table)}${this.seat !== null ? `?seat=${this.seat}` : ''}`) }, t('review_to_table')) : null,
      h('h1', null, t('review_title')));
  }

  // -- a record of one's own ---------------------------------------------------------------
  renderEntry(error = null) {
    const box = h('textarea', { class: 'review-paste', 'data-field': 'record', rows: 6, spellcheck: 'false',
      placeholder: t('review_paste'), 'aria-label': t('review_paste') });
    if (this.record) box.value = this.record;
    const file = h('input', { type: 'file', accept: '.json,application/json', 'data-field': 'record-file',
      onchange: async () => { if (file.files[0]) { box.value = await file.files[0].text(); go(); } } });
    const go = () => { this.record = box.value; this.loadRecord(0); };
    const drop = h('div', { class: 'review-drop', 'data-drop': 'record',
      ondragover: (e) => { e.preventDefault(); drop.classList.add('over'); },
      ondragleave: () => drop.classList.remove('over'),
      ondrop: async (e) => {
        e.preventDefault();
        drop.classList.remove('over');
        const f = e.dataTransfer && e.dataTransfer.files[0];
        box.value = f ? await f.text() : (e.dataTransfer.getData('text') || '');
        go();
      } },
    h('p', null, t('review_entry')), box,
    h('div', { class: 'review-row' },
      h('label', { class: 'btn tool file' }, t('review_file'), file),
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'review-record', onclick: go }, t('review_go'))));
    fill(this.el, this.bar(), error ? h('p', { class: 'review-error', role: 'alert', 'data-review-error': '' }, t('review_bad_record', { message: error })) : null, drop);
  }

  async loadRecord(deal) {
    try {
      const [d] = await Promise.all([postText(`/api/review?deal=${deal}`, this.record), gamesKnown()]);
      if (this.dead) return;
      this.show(d);
    } catch (e) {
      if (!this.dead) this.renderEntry(e.message);
    }
  }

  async loadTable(deal) {
    try {
      const [d] = await Promise.all([
        api('GET', `/api/tables/${encodeURIComponent(this.table)}/review${deal !== null ? `?deal=${deal}` : ''}`),
        gamesKnown()]);
      if (this.dead) return;
      this.show(d);
      const a = await api('GET', `/api/tables/${encodeURIComponent(this.table)}/analysis?deal=${d.deal}`);
      if (!this.dead) this.took(a);
    } catch (e) {
      if (this.dead) return;
      fill(this.el, this.bar(), h('p', { class: 'review-error', role: 'alert', 'data-review-error': '' },
        e.code === 'not_over' ? t('review_not_over') : `${t('error')}: ${e.message}`));
    }
  }

  /** The deal's game as the core describes it (catalogue.js): a shown trump card, points. */
  described() {
    return gameOf(this.d.game) || {};
  }

  show(d) {
    this.d = d;
    this.deal = d.deal;
    this.analysis = null;
    this.job = null;
    clearTimeout(this.poll);
    clearInterval(this.ticker);
    this.ticker = null;
    this.at = d.call ? 1 : 0; // after the call: the hands as they are played
    this.render();
  }

  // -- moving ------------------------------------------------------------------------------
  key(e) {
    if (!this.d || e.target.closest('textarea, input, select')) return;
    if (e.key === 'ArrowRight') { this.go(this.at + 1); e.preventDefault(); }
    if (e.key === 'ArrowLeft') { this.go(this.at - 1); e.preventDefault(); }
  }

  go(i) {
    this.at = Math.max(0, Math.min(i, this.d.positions.length - 1));
    this.render();
  }

  /** The position right after trick k is won (0: as dealt, or after the call). */
  trickEnd(k) {
    if (k <= 0) return this.d.call ? 1 : 0;
    const tr = this.d.tricks[k - 1];
    return tr ? tr.steps[tr.steps.length - 1] + 1 : this.d.positions.length - 1;
  }

  nextTrick() {
    const n = this.d.tricks.length;
    for (let k = 1; k <= n; k++) if (this.trickEnd(k) > this.at) return this.go(this.trickEnd(k));
    return this.go(this.d.positions.length - 1);
  }

  prevTrick() {
    for (let k = this.d.tricks.length; k >= 0; k--) if (this.trickEnd(k) < this.at) return this.go(this.trickEnd(k));
    return this.go(0);
  }

  // -- names -------------------------------------------------------------------------------
  name(s) { return seatName(this.d, s, this.seat); }

  sideOf(s) {
    const teams = this.d.teams;
    return teams ? teams.findIndex((tm) => tm.includes(s)) : s;
  }

  sideName(i) { return sideName(this.d, i, this.seat); }

  pair(x) { return `${(x || [])[0] ?? 0} – ${(x || [])[1] ?? 0}`; }

  cards(list, cls = '') {
    return h('span', { class: `review-cards ${cls}` }, list.map((c) => cardEl(c, { trump: this.d.trump, small: true })));
  }

  // -- drawing -----------------------------------------------------------------------------
  render() {
    const d = this.d;
    const p = d.positions[this.at];
    const n = d.tricks.length;
    const label = p.trick && p.trick <= n ? t('review_trick', { n: p.trick, total: n })
      : this.at === 0 ? t('review_as_dealt') : t('review_after_call');
    const jump = h('select', { 'data-field': 'jump', 'aria-label': t('review_jump'),
      onchange: (e) => this.go(this.trickEnd(Number(e.target.value))) },
    h('option', { value: '0' }, t('review_as_dealt')),
    d.tricks.map((tr) => h('option', { value: String(tr.trick), selected: p.trick === tr.trick }, t('review_trick', { n: tr.trick, total: n }))));
    const whose = h('select', { 'data-field': 'hands', 'aria-label': t('review_hands'),
      onchange: (e) => { this.only = e.target.value === '' ? null : Number(e.target.value); this.render(); } },
    h('option', { value: '', selected: this.only === null }, t('review_all_hands')),
    Array.from({ length: d.seats }, (_, s) => h('option', { value: String(s), selected: this.only === s }, t('review_only', { name: this.name(s) }))));
    const btn = (action, text, aria, f, off) => h('button', { class: 'btn tool', type: 'button', 'data-action': action,
      'aria-label': aria, title: aria, disabled: off, onclick: f }, text);
    const last = d.positions.length - 1;
    fill(this.el,
      this.bar(),
      h('section', { class: 'review-head' },
        h('p', { class: 'review-title' }, h('b', null, `${t(`game_${d.game}`)} · ${t('review_deal', { n: d.deal + 1 })}`),
          d.dealer !== null && d.dealer !== undefined ? ` · ${t('review_dealer', { name: this.name(d.dealer) })}` : null),
        d.num_deals > 1 ? h('div', { class: 'review-row deals' },
          btn('review-prev-deal', '«', t('review_prev_deal'), () => this.otherDeal(d.deal - 1), d.deal === 0),
          h('span', null, t('review_deal_of', { n: d.deal + 1, total: d.num_deals })),
          btn('review-next-deal', '»', t('review_next_deal'), () => this.otherDeal(d.deal + 1), d.deal >= d.num_deals - 1)) : null,
        callLine(this)),
      h('nav', { class: 'review-steps', 'aria-label': t('review_title') },
        btn('review-prev-trick', '⏮', t('review_prev_trick'), () => this.prevTrick(), this.at === 0),
        btn('review-back', '◀', t('review_back'), () => this.go(this.at - 1), this.at === 0),
        h('span', { class: 'review-where', 'data-review-at': String(this.at), 'data-review-trick': String(p.trick || 0) }, label),
        btn('review-forward', '▶', t('review_forward'), () => this.go(this.at + 1), this.at === last),
        btn('review-next-trick', '⏭', t('review_next_trick'), () => this.nextTrick(), this.at === last)),
      h('div', { class: 'review-row' }, jump, whose),
      tableBlock(this, p),
      scoreLine(this, p),
      this.at === last ? resultBlock(this) : null,
      handsBlock(this, p),
      analysisBlock(this));
  }

  async otherDeal(deal) {
    if (this.table) await this.loadTable(deal); else await this.loadRecord(deal);
  }

  // -- the analysis ------------------------------------------------------------------------
  async analyse() {
    try {
      const j = this.table
        ? await api('POST', `/api/tables/${encodeURIComponent(this.table)}/analysis?deal=${this.d.deal}`)
        : await postText(`/api/review/analysis?deal=${this.d.deal}`, this.record);
      if (!this.dead) this.took(j);
    } catch (e) {
      toast(`${t('error')}: ${e.message}`, 'error');
    }
  }

  /** Whole seconds since this page saw the analysis under way (its own clock: the server
   * tells how many plays are done, not since when). */
  elapsed() {
    return this.since ? Math.floor((Date.now() - this.since) / 1000) : 0;
  }

  /** While it runs, the seconds go on every second in place, whatever the server says when:
   * its first word comes only after the first play is looked at (issue 43: 15 s of silence). */
  tick() {
    const el = this.el.querySelector('[data-review-elapsed]');
    if (!this.job || this.job.status !== 'running' || !el) {
      clearInterval(this.ticker);
      this.ticker = null;
      return;
    }
    el.textContent = t('review_elapsed', { n: this.elapsed() });
  }

  took(j) {
    if (j.status === 'running' && (!this.job || this.job.key !== j.key || this.job.status !== 'running')) this.since = Date.now();
    this.job = j;
    if (j.status === 'done') this.analysis = j.analysis;
    this.render();
    if (j.status === 'running' && !this.ticker) this.ticker = setInterval(() => this.tick(), 1000);
    if (j.status === 'running') {
      this.poll = setTimeout(async () => {
        try {
          let next = await api('GET', `/api/analyses/${j.key}`);
          // another server instance answered, which does not run it: still running there,
          // unless no instance has known it for a minute (a server restarted: ask again)
          this.unknown = next.status === 'none' ? (this.unknown || 0) + 1 : 0;
          if (next.status === 'none') next = this.unknown > 120 ? { ...j, status: 'failed' } : { ...j };
          if (!this.dead && this.job && this.job.key === j.key) this.took(next);
        } catch {
          if (!this.dead) this.took({ ...j, status: 'failed' });
        }
      }, POLL_MS);
    }
  }
}
