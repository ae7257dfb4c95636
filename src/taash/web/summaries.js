// The dialogs about what happened: the end of each deal (one at a time, in order), the end of
// the match with every deal, and the last trick.
import { backEl, cardEl } from './cards.js';
import { t } from './i18n.js';
import { scoreTable } from './games/base.js';
import { h, fill, toast, showDialog, closeDialogs } from './ui.js';
import { reviewUrl } from './review.js';
import { sayTurn } from './table_news.js';

export const completeDeals = (v) => (v.deals || []).filter((d) => d.complete).length;

export class Summaries {
  constructor(table) {
    this.table = table;
    this.queue = []; // deals ended and not shown yet: {index, deal, trick, match, quiet}
    this.open = false;
    this.holding = false;
  }

  /** Queue what a new view ended: a deal (with its last trick), or, on a first view of a
   * finished match, the match (shown only when asked). */
  seen(prev, v, trick) {
    if (prev && completeDeals(v) > completeDeals(prev)) {
      const i = completeDeals(v) - 1;
      this.queue.push({ index: i, deal: v.deals[i], trick, match: v.match });
    } else if (!prev && v.over) {
      this.queue.push({ index: completeDeals(v) - 1, deal: v.deals[completeDeals(v) - 1],
        trick: null, match: v.match, quiet: true });
    }
  }

  /** A deal's end is being shown: its last trick held on the felt, its summary open or still
   * to open.  The next deal waits behind it: nothing of it is offered to play (a tap on the
   * next trump call could land on the summary as it opens, and be lost). */
  showing() {
    return this.open || this.queue.some((s) => !(s.match && s.match.over));
  }

  show() {
    if (this.open || !this.queue.length) return;
    const s = this.queue.shift();
    if (s.match && s.match.over) {
      this.queue = [];
      if (!s.quiet) this.showMatch(s);
      return;
    }
    this.open = true;
    this.holding = true; // the table's next messages wait until the player goes on
    showDialog({
      name: 'deal-summary',
      title: this.table.game.dealTitle(s.index + 1),
      body: this.dealBody(s),
      actions: [{ label: t('continue'), action: 'continue', primary: true }],
      described: true,
      onClose: () => {
        this.open = false;
        this.holding = false;
        this.show();
        // the next deal's call or play, now offered: drawn by the next view if one waited
        if (!this.holding && !this.table.pump()) this.table.render();
        sayTurn(this.table); // a turn that waited behind the summary, said now
      },
    });
  }

  dealBody(s) {
    const rows = this.table.game.dealRows(s.deal || {}, s.match);
    if (s.trick) {
      rows.push(h('p', { class: 'sub' }, t('final_trick')), this.playsBlock(s.trick.plays, s.trick.winner));
    }
    const fair = this.fairLine(s.index);
    if (fair) rows.push(fair);
    if (s.index >= 0 && !this.table.source) rows.push(h('p', { class: 'review-links' }, this.reviewLink(s.index)));
    return rows;
  }

  /** A link to the deal's review (review.js), in this tab: the table is a click away. */
  reviewLink(index) {
    const tb = this.table;
    if (tb.source) return null; // a table played in this page: the server has no review of it
    const url = reviewUrl(tb.id, index, tb.me());
    return h('a', { href: url, class: 'btn tool', 'data-action': 'review-deal', 'data-deal': String(index),
      onclick: (e) => { e.preventDefault(); closeDialogs(); tb.navigate(url); } }, t('review_open'));
  }

  /** "fair: checked" (or a warning) for a finished deal, filled in once the page has
   * recomputed its deck; a "how" link to the page that explains it. */
  fairLine(index) {
    const watch = this.table.fair;
    if (!watch || index < 0 || !(this.table.info && this.table.info.fair)) return null;
    const text = h('span', { class: 'fair-text' }, t('fair_checking'));
    const line = h('p', { class: 'fair-check', 'data-state': 'checking' }, text, ' · ',
      h('a', { href: '/assets/fair.html', target: '_blank', rel: 'noopener', class: 'fair-how' }, t('fair_how')));
    watch.check(index).then((r) => {
      text.textContent = t(r.key);
      line.dataset.state = r.ok ? 'ok' : 'warning';
      if (!r.ok) line.classList.add('warning');
    });
    return line;
  }

  /** A trick as rows: who played what, the winner starred. */
  playsBlock(plays, winner) {
    const tb = this.table;
    const v = tb.view;
    return h('div', { class: 'trick-list' }, plays.map((p) => {
      const label = tb.game.playLabel(p);
      return h('div', {
        class: `trick-row${p.seat === winner ? ' winner' : ''}`, 'data-seat': p.seat,
      },
      // the winner's star beside the name: over the cards it hid a trump card's own star
      h('span', { class: 'trick-who' }, p.seat === winner ? h('span', { class: 'won-mark', 'aria-hidden': 'true' }, '★ ') : null,
        tb.name(p.seat), label ? h('small', null, ` · ${label}`) : null),
      h('span', { class: 'trick-cards' },
        p.cards ? p.cards.map((c) => cardEl(c, { trump: v.trump, small: true }))
          : Array.from({ length: p.count }, () => backEl({ small: true }))));
    }));
  }

  showLastTrick() {
    const tb = this.table;
    const lt = tb.view && tb.view.last_trick;
    if (!lt) { toast(t('no_last_trick')); return; }
    showDialog({
      name: 'last-trick', title: t('last_trick'),
      body: [h('p', null, t('won_by', { name: tb.name(lt.winner) })), this.playsBlock(tb.game.lastTrick(lt), lt.winner)],
      actions: [{ label: t('close'), action: 'close', primary: true }],
    });
  }

  /** The match's result, its last deal and (of two or more) every deal. */
  showMatch(s) {
    const tb = this.table;
    const v = tb.view;
    closeDialogs('deal-summary');
    closeDialogs('match-summary');
    if (this.holding) { // a deal's summary closed by this one: the table goes on
      this.holding = false;
      setTimeout(() => this.table.pump(), 0);
    }
    const last = s || { index: completeDeals(v) - 1, deal: v.deals[completeDeals(v) - 1], match: v.match };
    const body = [h('p', { class: 'headline big' }, tb.game.resultText(v))];
    if (last.deal) body.push(h('p', { class: 'sub' }, tb.game.dealTitle(last.index + 1)), ...this.dealBody(last));
    body.push(this.history(v));
    const actions = [];
    if (tb.token) actions.push({ label: t(tb.info && tb.info.rematch ? 'rematch_join' : 'rematch'), action: 'rematch', primary: true, onClick: () => tb.rematch() });
    actions.push({ label: t('home'), action: 'home', onClick: () => tb.navigate('/') });
    actions.push({ label: t('close'), action: 'close' });
    this.open = true;
    showDialog({ name: 'match-summary', title: t('match_over'), body, actions, described: true,
      onClose: () => { this.open = false; } });
    tb.noticeRematch(); // asked for already: said at the top
  }

  /** The score sheet (asked for at any time, from the scores row or the menu): every finished
   * deal of the match in order, its result and the running score, as the game keeps it; the
   * deal being played under it.  Open while a deal ends, it is drawn again. */
  showSheet() {
    const tb = this.table;
    if (!tb.view || !tb.game) return;
    closeDialogs('score-sheet');
    showDialog({ name: 'score-sheet', title: t('score_sheet'), body: this.sheetBody(tb.view),
      actions: [{ label: t('close'), action: 'close', primary: true }] });
  }

  refreshSheet() {
    const open = document.querySelector("dialog[data-dialog='score-sheet'] .dialog-body");
    if (open && this.table.view) fill(open, this.sheetBody(this.table.view));
  }

  sheetBody(v) {
    const tb = this.table;
    const g = tb.game;
    const my = g.mySide();
    const side = (x) => `${(x || [0, 0])[my]} – ${(x || [0, 0])[1 - my]}`;
    const done = (v.deals || []).filter((d) => d.complete);
    const out = [];
    if (v.over) out.push(h('p', { class: 'headline' }, g.resultText(v)));
    if (!done.length) {
      out.push(h('p', { class: 'sub', 'data-sheet-empty': '' }, t('sheet_empty')));
    } else {
      out.push(h('p', { class: 'sub' }, `${tb.sideName(my)} – ${tb.sideName(1 - my)}`));
      const run = {};
      const rows = [['#', ...g.sheetHead()], ...done.map((d, i) => [String(i + 1), ...g.sheetRow(d, run, side)])];
      const table = scoreTable(rows);
      table.dataset.sheet = String(done.length);
      out.push(h('div', { class: 'sheet-scroll' }, table));
    }
    const playing = (v.deals || []).find((d) => !d.complete);
    if (playing && !v.over) {
      out.push(h('p', { class: 'sub', 'data-sheet-playing': '' },
        t('sheet_playing', { n: done.length + 1, tricks: side(v.tricks) })));
    }
    return out;
  }

  history(v) {
    const done = (v.deals || []).filter((d) => d.complete);
    if (done.length < 2) return null;
    const my = this.table.game.mySide();
    const side = (x) => `${(x || [])[my]} – ${(x || [])[1 - my]}`;
    return h('details', { class: 'history' }, h('summary', null, t('all_deals', { n: done.length })),
      h('ol', null, done.map((d, i) => h('li', null, this.table.game.historyLine(d, side), ' ', this.reviewLink(i)))));
  }
}
