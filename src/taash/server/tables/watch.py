"""Spectators: what a table shows those who watch it without a seat, and how far behind.

A table's ``spectator_delay`` (its creator's choice, kept with the table) is one of
``DELAYS``: ``none`` (spectators see the table as it is), ``trick`` or ``deal`` (they see it
one trick or one deal behind), ``hidden`` (nobody watches while the match is on).  Left out,
it is ``deal`` for a table that would be rated (``default_delay``) and ``none`` otherwise.

One unit behind: the versions at which a unit (a trick, or a deal) ended are the table's
marks.  While the table is ``j`` actions into a unit that began at mark ``s``, a spectator
sees the unit before it ``j`` actions in (the version ``p + j``, ``p`` the mark before ``s``,
0 for the first), never past its end ``s``: so they watch the last unit as it was played,
while the next one is played, and never a card of a unit still in play.  During the first
unit they see the table as it was dealt.  Once the match is over they see all of it.

Every message a spectator gets is built from the core's public view of the match at that
delayed version (``wire.public``), with a table info that says that version (not the live
one), and no turn deadline; a reconnecting spectator's ``since`` is read against it.  A
``Watch`` per room keeps the delayed point's state and the steps after it (about two units),
so nothing is replayed per message."""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Protocol, cast

from taash.games.base import MatchState
from taash.ratings import bot_rating
from taash.server.errors import BadRequest, Forbidden
from taash.server.tables import wire
from taash.server.tables.match import Step, fair_view, fork, turn_of
from taash.server.tables.shapes import Event, TableInfo

JsonObject = wire.JsonObject

if TYPE_CHECKING:
    from taash.server.store.rows import SeatRow, TableRow

Delay = Literal["none", "trick", "deal", "hidden"]
DELAYS: tuple[Delay, ...] = ("none", "trick", "deal", "hidden")


def check_delay(raw: object) -> Delay:
    """A table's spectator delay as asked for (BadRequest naming the choices otherwise)."""
    if raw not in DELAYS:
        raise BadRequest(f"spectator_delay: one of {', '.join(DELAYS)}, not {str(raw)[:20]!r}")
    return raw


def rateable(game: str, seats: Sequence[SeatRow], pass_and_play: bool) -> bool:
    """Whether a table's match would be rated when its human seats are taken by players (as
    the ratings count a match: ``social.profiles.rated_seats``): a player's seat at least
    (its creator's), each bot of a level with a fixed rating, one player per seat."""
    if pass_and_play or not any(s.type == "human" and s.player_id for s in seats):
        return False
    return all(s.type == "human" or bot_rating(game, s.level or "") is not None
               for s in seats)


def rated(meta: TableRow) -> bool:
    """Whether the table's match is rated as its seats stand (as ``social.profiles``
    rates a finished one): each human seat a different player's, each bot of a rated
    level."""
    players = [s.player_id for s in meta.seats if s.type == "human"]
    return (rateable(meta.game, meta.seats, meta.pass_and_play)
            and all(players) and len(set(players)) == len(players))


def default_delay(game: str, seats: Sequence[SeatRow], live: bool,
                  pass_and_play: bool) -> Delay:
    """``deal`` for a live table that would be rated, else ``none``."""
    return "deal" if live and rateable(game, seats, pass_and_play) else "none"


def marks_of(kind: str, events: Sequence[Event]) -> bool:
    """Whether a step with these events ends a unit of ``kind`` (a trick, a deal)."""
    want = "trick" if kind == "trick" else "deal_over"
    return any(e.get("type") in (want, "deal_over") for e in events)


def delayed_version(kind: str, marks: Sequence[int], version: int, over: bool) -> int:
    """The version spectators of a ``kind`` table see when it is at ``version``."""
    if over or kind not in ("trick", "deal"):
        return version
    if not marks:  # the first unit is in play: as dealt
        return 0
    s = marks[-1]
    p = marks[-2] if len(marks) > 1 else 0  # the first unit is replayed from version 0
    return min(p + (version - s), s)


class Watch:
    """A room's spectators' side: the version they see (``shown``), the steps after it not
    shown yet (``ahead``), and the marks that decide when they are."""

    def __init__(self, kind: str, version: int, state: MatchState) -> None:
        self.kind = kind
        self.marks: list[int] = []
        self.deals_ended: list[int] = []  # the versions at which a deal ended
        self.over = bool(state.is_over())
        self.shown = Step(version, (), state)
        self.ahead: deque[Step] = deque()

    @property
    def delayed(self) -> bool:
        return self.kind in ("trick", "deal") and not self.over

    @property
    def hidden(self) -> bool:
        return self.kind == "hidden" and not self.over

    def note(self, version: int, events: Sequence[Event]) -> None:
        """A step's events, for the marks (a room being replayed fast, without states)."""
        if marks_of(self.kind, events):
            self.marks.append(version)
        if any(e.get("type") == "deal_over" for e in events):
            self.deals_ended.append(version)
        if any(e.get("type") == "match_over" for e in events):
            self.over = True

    def reset(self, version: int, state: MatchState) -> None:
        """The room's match at ``version`` (after a fast replay): shown from there."""
        self.shown = Step(version, (), fork(state))
        self.ahead.clear()

    def target(self, version: int) -> int:
        return delayed_version(self.kind, self.marks, version, self.over)

    def moved(self, step: Step) -> list[Step]:
        """A step the room took: the steps spectators see now because of it, in order."""
        self.note(step.version, step.events)
        if self.kind not in ("trick", "deal"):
            self.shown = step
            return [step]
        self.ahead.append(step)
        d = self.target(step.version)
        out: list[Step] = []
        while self.ahead and self.ahead[0].version <= d:
            self.shown = self.ahead.popleft()
            out.append(self.shown)
        return out


def delayed_info(meta: TableRow, info: TableInfo, watch: Watch,
                 step: Step | None = None) -> TableInfo:
    """The table's info as a delayed spectator gets it with the view at ``step`` (default:
    the shown one): its version, whose turn, whether over and the fair deal's proof are that
    version's; no turn deadline."""
    if not watch.delayed:
        return info
    at = watch.shown if step is None else step
    out = dict(info)
    out["version"] = at.version
    out["to_move"] = turn_of(at.state) if not at.state.is_over() else None
    out["turn_ends"] = None
    out["over"] = bool(at.state.is_over())
    if info["fair"] is not None:
        out["fair"] = fair_view(meta, bisect_right(watch.deals_ended, at.version))
    return cast(TableInfo, out)


def refuse_hidden(watch: Watch) -> None:
    """Forbidden while a table that keeps spectators out is being played."""
    if watch.hidden:
        raise Forbidden("this table's host keeps spectators out while it is played "
                        "(spectator_delay: hidden)")




# -- what spectators are sent ------------------------------------------------------------------
class Watched(wire.Shown, Protocol):
    """A room as its spectators' messages read it (``tables.room.Room`` is one)."""

    @property
    def watch(self) -> Watch: ...


def watchers_info(room: Watched, info: TableInfo | None = None,
                  step: Step | None = None) -> TableInfo:
    """The table's info as spectators get it (``delayed_info`` at a delayed table)."""
    return delayed_info(room.meta, wire.table_info(room) if info is None else info,
                        room.watch, step)


def shown_version(room: Watched) -> int:
    """The version spectators are at: the room's, or the delayed one."""
    return room.watch.shown.version if room.watch.delayed else room.version


def public(room: Watched) -> JsonObject:
    """What a spectator may see now: the public view at the version they are at (Forbidden
    while a hidden table is played)."""
    refuse_hidden(room.watch)
    if not room.watch.delayed:
        return wire.public(room)
    at = room.watch.shown
    return wire.public(room, at.state, at.version, watchers_info(room))


def view_message(room: Watched) -> tuple[str, int]:
    """A spectator's full view message now, and its version."""
    if not room.watch.delayed:
        return wire.view_message(room, None), room.version
    at = room.watch.shown
    return wire.dumps({"type": "view", "version": at.version,
                       "view": wire.public(room, at.state, at.version,
                                           watchers_info(room))}), at.version


def table_message(room: Watched, info: TableInfo) -> tuple[int, str]:
    """A table message for spectators (its queue version and text)."""
    if not room.watch.delayed:
        return room.version, wire.table_message(room, info)
    out = watchers_info(room, info)
    return out["version"], wire.table_message(room, out)


def event_messages(room: Watched, steps: Sequence[Step],
                   info: TableInfo) -> list[tuple[int, str]]:
    """The event messages spectators get for the steps shown to them now."""
    if not steps:
        return []
    shown = watchers_info(room, info, steps[-1]) if room.watch.delayed else info
    return [(s.version, wire.event_message(room, None, s, shown)) for s in steps]


def record(room: Watched) -> JsonObject:
    """The match's record as a spectator may have it: at the version they are at, the deal in
    play without its deck (Forbidden while a hidden table is played)."""
    refuse_hidden(room.watch)
    if not room.watch.delayed:
        return wire.record(room)
    return wire.record(room, room.watch.shown.state)


def fan_out(room: Watched, step: Step, shown: Sequence[Step]) -> None:
    """A step the room took, to each seat connected here; to its spectators, the steps they
    see now (``Watch.moved``)."""
    info: TableInfo | None = None
    for seat, subs in room.live.subs.items():
        if not subs:
            continue
        if info is None:
            info = wire.table_info(room)
        if seat is None:
            for v, text in event_messages(room, shown, info):
                for sub in subs:
                    sub.push(v, text)
            continue
        text = wire.event_message(room, seat, step, info)
        for sub in subs:
            sub.push(step.version, text)
