// The home screen's featured tables (issue 47): the live tables with the highest-rated players
// that anyone may watch (GET /api/featured), each with its players and a link to watch it at
// /t/<id> as its spectator delay lets spectators (docs/spectators.md).  Hidden when none.
import { t } from './i18n.js';
import { h, fill } from './ui.js';

export class Featured {
  constructor({ navigate }) {
    this.navigate = navigate;
    this.el = h('section', { class: 'panel featured', 'data-section': 'featured', hidden: true });
  }

  render(rows) {
    this.el.hidden = !rows.length;
    if (!rows.length) { fill(this.el); return; }
    const who = (s) => s.name || (s.type === 'bot' ? t(`bot_name_${s.seat % 4}`) : t('player_n', { n: s.seat + 1 }));
    fill(this.el, h('h2', null, t('featured')),
      h('ul', { class: 'table-list' }, rows.map((r) => h('li', { 'data-featured': r.id, 'data-final': String(!!r.final) },
        h('div', { class: 'row-main' },
          h('b', null, t(`game_${r.game}`)), r.final ? [' ', h('span', { class: 'badge' }, t('featured_final'))] : null,
          h('small', null, [t('featured_rating', { r: r.rating }), r.seats.map(who).join(', ')].join(' · '))),
        h('a', { class: 'btn', href: r.url, 'data-action': 'watch',
          onclick: (e) => { e.preventDefault(); this.navigate(r.url); } }, t('featured_watch'))))));
  }
}
