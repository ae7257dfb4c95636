// Who sits where at a table, and their names (table.js's TableView is one of these): the
// number of seats, this browser's seat, where each seat shows, a seat's name, a side's, a
// sentence about a side, whether it is this seat's turn.  The renderers (games/) and the
// table's other parts ask the table these.
import { t } from './i18n.js';
import { place } from './seats.js';

export class TableSeating {
  numSeats() {
    const v = this.view;
    if (v && Array.isArray(v.hand_counts)) return v.hand_counts.length;
    return this.game ? this.game.seats : 4;
  }

  me() {
    const s = this.view && this.view.seat;
    return typeof s === 'number' ? s : null;
  }

  pos(seat) {
    return place(seat, this.me(), this.numSeats());
  }

  seatInfo(seat) {
    const seats = this.info && Array.isArray(this.info.seats) ? this.info.seats : [];
    return seats[seat] || {};
  }

  name(seat) {
    if (seat === this.me()) return t('you');
    const s = this.seatInfo(seat);
    if (s.name) return s.name;
    if (s.type === 'bot') return t(`bot_name_${seat % 4}`);
    return t('player_n', { n: seat + 1 });
  }

  /** Team labels from this seat's side: "Us"/"Them", or "Team 1"/"Team 2" when watching. */
  teamName(team) {
    const me = this.me();
    if (me === null) return t('team_n', { n: team + 1 });
    return team === me % 2 ? t('us') : t('them');
  }

  sideName(side) {
    return this.numSeats() === 2 ? this.name(side) : this.teamName(side);
  }

  /** A sentence about a side: "You won…", "They won…" or "{name} won…". */
  said(side, base, params = {}) {
    const me = this.me();
    const two = this.numSeats() === 2;
    if (me !== null && side === (two ? me : me % 2)) return t(`${base}_we`, params);
    if (me !== null && !two) return t(`${base}_they`, params);
    return t(`${base}_name`, { ...params, name: this.sideName(side) });
  }

  yourTurn() {
    const v = this.view;
    return !!v && !v.over && this.me() !== null && v.to_move === this.me() && !this.summaries.showing()
      && !this.waitingFor().length;
  }

  /** The seats a live table waits for before anyone moves (its invited friends not come
   * yet, and nobody at it has started it): [] once it plays. */
  waitingFor() {
    const w = this.info && this.info.waiting;
    return Array.isArray(w) && this.view && !this.view.over ? w : [];
  }
}
