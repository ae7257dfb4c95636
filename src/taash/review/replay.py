"""The positions of one deal of a record, for review: pure, no I/O.

A record is loaded and checked exactly as ``taash record verify`` checks it (``load_record``:
RecordError, ReplayError, NotFair), then one deal is replayed through the core's public API
(``game_class``, ``deal``, ``apply``, ``view``, ``public_view``, ``summary``, ``outcome``):
for every step (every action) the full state, each trick's plays and winner, the trump call
with the caller's first five cards, Goat's face-down passes turned up (the record has their
cards), the double-sar pile and each collection, and the deal's result.  Nothing here decides a
rule: who won a trick, what was collected and the result are what the core says.

>>> from taash.record import random_record
>>> rec, summary = load_record(random_record("court-piece-2p", seed=4, deals=1))
>>> d = replay_deal(rec, 0, summary)
>>> len(d.positions) == len(d.steps) + 1, d.tricks[0].number, d.result is not None
(True, 1, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taash import fair
from taash.games import MatchState, Outcome, game_class
from taash.games.base import Json, RecordError, parse_action
from taash.games.goat import PACK as GOAT_PACK
from taash.games.goat import points as goat_points
from taash.record import load, replay


@dataclass(frozen=True)
class Step:
    """One action of the deal: ``index`` into the deal's actions, the seat, the action in
    canonical text (a Goat pass with its cards), ``trick`` (1-based; 0 for a trump call) and
    the core's public events."""

    index: int
    seat: int
    action: str
    trick: int
    events: tuple[Mapping[str, Json], ...]

    @property
    def verb(self) -> str:
        return self.action.partition(":")[0]

    @property
    def cards(self) -> tuple[str, ...]:
        return parse_action(self.action).cards


@dataclass(frozen=True)
class Position:
    """The state before step ``step`` (0: as dealt; ``len(steps)``: after the last action).
    ``state`` is the core's own state (a private clone: read it, do not change it), ``view``
    its public view and ``hands`` every seat's hand from ``state.view(seat)``."""

    step: int
    state: MatchState
    view: Mapping[str, Json]
    hands: tuple[tuple[str, ...], ...]
    tricks_done: int


@dataclass(frozen=True)
class Play:
    """A card (Court Piece) or a Goat play of a finished trick, its cards always face up."""

    seat: int
    verb: str
    cards: tuple[str, ...]
    face_down: bool = False


@dataclass(frozen=True)
class Trick:
    """A finished trick.  ``steps``: the indexes of its actions (a Goat trick's plays undone by
    a molodka included); ``plays``: the plays that stand, in order; ``won``: tricks per side
    after it (``collected`` per side in double sar, as the core counts them); ``collector``:
    the core's double-sar pile before it (pile, who collects by winning it, whether it is the
    last); ``collected``: tricks the winner's side collected with it (double sar, else None);
    ``points``: Goat card points per team after it."""

    number: int
    leader: int
    winner: int
    steps: tuple[int, ...]
    plays: tuple[Play, ...]
    won: tuple[int, ...]
    collector: Mapping[str, Json] | None = None
    collected: int | None = None
    points: tuple[int, int] | None = None


@dataclass(frozen=True)
class TrumpCall:
    """A Court Piece trump call: who called which suit, from which first five cards."""

    seat: int
    suit: str
    first_cards: tuple[str, ...]


@dataclass(frozen=True)
class DealReplay:
    """Every position of one deal.  ``result``: the deal's summary (the core's, with ``fair``
    from verification); ``complete`` False when the record stops inside the deal.
    ``outcome``: the match's Outcome when the match ended with this deal."""

    game: str
    deal: int
    num_deals: int
    num_seats: int
    options: Mapping[str, Json]
    steps: tuple[Step, ...]
    positions: tuple[Position, ...]
    tricks: tuple[Trick, ...]
    call: TrumpCall | None
    dealt: tuple[tuple[str, ...], ...]
    result: Mapping[str, Json]
    outcome: Outcome | None
    trump_card: str | None = None

    @property
    def complete(self) -> bool:
        return bool(self.result.get("complete"))

    def side_of(self, seat: int) -> int:
        """The side (team, or the seat itself in a two-player game) a seat plays for, from
        the core's ``teams`` in the public view."""
        teams = self.positions[0].view.get("teams")
        if not teams:
            return seat
        return next(i for i, t in enumerate(teams) if seat in t)

    def trick_start(self, number: int) -> int:
        """The position index before trick ``number`` (1-based) is led; 0 for 0; past the
        last trick, the position after the last step."""
        if number <= 0:
            return 0
        if number > len(self.tricks):
            return len(self.steps)
        return self.tricks[number - 1].steps[0]


def load_record(source: str | bytes | dict[str, Json]) -> tuple[dict[str, Json], dict[str, Json]]:
    """A record and its summary, checked exactly as ``taash record verify`` checks it
    (RecordError: malformed; ReplayError: an illegal action; NotFair: a proof that fails)."""
    rec = load(source)
    summary: dict[str, Json] = dict(replay(rec).summary())
    fair.check_record(rec, summary)
    return rec, summary


def _canonical(state: MatchState, seat: int, text: str) -> str:
    return state.action_text(state.action_id(seat, text))


def _snapshot(state: MatchState, step: int, tricks_done: int) -> Position:
    st = state.clone()
    hands = tuple(tuple(st.view(s)["hand"]) for s in range(st.num_seats))
    return Position(step, st, st.public_view(), hands, tricks_done)


def replay_deal(rec: dict[str, Json], deal: int, summary: Mapping[str, Json]) -> DealReplay:
    """The positions of deal ``deal`` (0-based) of a record checked by ``load_record``."""
    deals: list[dict[str, Json]] = rec["deals"]
    if not 0 <= deal < len(deals):
        raise RecordError(f"deal {deal}: the record has {len(deals)} deal"
                          f"{'s' if len(deals) != 1 else ''} (0..{len(deals) - 1})")
    cls = game_class(rec["game"])
    state = cls(rec["options"], rec[cls.first_seat_key], None)
    for d in deals[:deal]:
        state.deal(d["deck"], d.get("trump_card"))
        for a in d["actions"]:
            state.apply(a["seat"], a["action"])
    d = deals[deal]
    state.deal(d["deck"], d.get("trump_card"))
    n = state.num_seats
    dealt = tuple(tuple(state.view(s)["hand"]) for s in range(n))
    positions = [_snapshot(state, 0, 0)]
    steps: list[Step] = []
    tricks: list[Trick] = []
    call: TrumpCall | None = None
    pending: list[int] = []
    collector = positions[0].view.get("collector")
    won = [0, 0]
    team_points = [0, 0]
    teams = positions[0].view.get("teams")
    sets = cls.plays_card_sets  # Goat: a trick's plays are sets of cards under a verb
    points = cls.deal_unit == "points"  # and its deal is counted in card points
    for i, a in enumerate(d["actions"]):
        seat = a["seat"]
        before = positions[-1]
        text = _canonical(state, seat, a["action"])
        if text.startswith("trump:"):
            first = before.hands[seat]
            call = TrumpCall(seat, text.partition(":")[2], first)
        events = tuple(state.apply(seat, text))
        trick_no = len(tricks) + (0 if text.startswith("trump:") else 1)
        steps.append(Step(i, seat, text, trick_no, events))
        if trick_no:
            pending.append(i)
        done = next((e for e in events if e["type"] == "trick"), None)
        after = _snapshot(state, i + 1, len(tricks) + (done is not None))
        if done is not None:
            winner = int(done["winner"])
            side = winner if not teams else next(k for k, t in enumerate(teams) if winner in t)
            plays = _trick_plays(steps, pending, done, sets)
            if points:
                won[side] += 1
                team_points[side] += goat_points(GOAT_PACK.mask(c for p in plays
                                                                for c in p.cards))
                now = tuple(won)
            else:
                now = tuple(after.view["tricks"])
            collected = None
            if collector is not None:
                collected = now[side] - (tricks[-1].won[side] if tricks else 0)
            tricks.append(Trick(len(tricks) + 1, int(done["leader"]), winner, tuple(pending),
                                plays, now, collector, collected,
                                (team_points[0], team_points[1]) if points else None))
            pending = []
            collector = after.view.get("collector")
        elif text.startswith("trump:"):
            collector = after.view.get("collector")
        positions.append(after)
    summ_deals = summary["deals"]
    result: Mapping[str, Json] = summ_deals[deal]
    last = deal == len(deals) - 1
    return DealReplay(cls.game_id, deal, len(deals), n, dict(rec["options"]), tuple(steps),
                      tuple(positions), tuple(tricks), call, dealt, result,
                      state.outcome() if last else None, result.get("trump_card"))


def _trick_plays(steps: Sequence[Step], pending: Sequence[int], done: Mapping[str, Json],
                 sets: bool) -> tuple[Play, ...]:
    """The plays that stand in a finished trick, every card face up: Court Piece's are the
    trick's steps; Goat's are the core's trick event (after any molodka), each face-down pass
    turned up from the seat's last action in the trick (the record holds its cards)."""
    if not sets:
        return tuple(Play(steps[i].seat, "play", steps[i].cards) for i in pending)
    out = []
    for p in done["plays"]:
        seat = int(p["seat"])
        mine = [steps[i] for i in pending if steps[i].seat == seat]
        cards = tuple(p["cards"]) if "cards" in p else mine[-1].cards
        out.append(Play(seat, str(p["verb"]), cards, face_down="cards" not in p))
    return tuple(out)


class Cursor:
    """Stepping through a deal's positions: forward, back, to a step or to a trick.

    >>> from taash.record import random_record
    >>> rec, summary = load_record(random_record("goat", seed=2, deals=1))
    >>> c = Cursor(replay_deal(rec, 0, summary))
    >>> c.forward().step, c.back().step, c.to_trick(2).tricks_done
    (1, 0, 1)
    """

    def __init__(self, deal: DealReplay, at: int = 0) -> None:
        self.deal = deal
        self.at = max(0, min(at, len(deal.positions) - 1))

    @property
    def position(self) -> Position:
        return self.deal.positions[self.at]

    def to_step(self, i: int) -> Position:
        self.at = max(0, min(i, len(self.deal.positions) - 1))
        return self.position

    def forward(self, n: int = 1) -> Position:
        return self.to_step(self.at + n)

    def back(self, n: int = 1) -> Position:
        return self.to_step(self.at - n)

    def to_trick(self, number: int) -> Position:
        """The position before trick ``number`` (1-based) is led."""
        return self.to_step(self.deal.trick_start(number))


__all__ = ["Cursor", "DealReplay", "Play", "Position", "Step", "Trick", "TrumpCall",
           "load_record", "replay_deal"]
