"""An event's boards, pure: no I/O, no clock (docs/events.md).

Board ``b`` (from 1) of event ``E`` is one fair deal (RECORD.md, "Fair deals") with ``table`` =
``E-b``, deal index 0 and every seed ``""``, derived from the event's one secret: the event
commits to all its boards at once, and each board's record carries that commitment.  The
entrant always sits in seat 0; robots (the easy bots) hold the other seats, each move seeded
from the board and the actions before it, so an entrant who plays the same cards meets the same
answers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from taash import fair
from taash.bots import make_bot
from taash.games import game_class
from taash.games.base import MatchState
from taash.games.goat import POINTS
from taash.games.tricks_play import CALL, TrickPlay

#: the entrant's seat on every board (Court Piece: their robot partner sits in seat 2)
ENTRANT = 0
ROBOTS = "easy"  # fast and without a clock: the same position always gets the same answer


def board_table(event_id: str, board: int) -> str:
    """The ``table`` of board ``board``'s fair deal: the event id, a hyphen, the number.

    >>> board_table("ev1", 3)
    'ev1-3'
    """
    return f"{event_id}-{board}"


def first_seat(game: str, board: int) -> int:
    """The first dealer (or caller) of a board: it goes round the seats board by board, so
    an entrant deals, calls and leads in turn."""
    return (board - 1) % game_class(game).num_seats


def deal_board(game: str, options: Mapping[str, object], event_id: str, board: int,
               secret: str) -> MatchState:
    """The board dealt, before anyone acts."""
    cls = game_class(game)
    state = cls.new_match(dict(options), deal=False, first_seat=first_seat(game, board))
    seeds = [""] * cls.num_seats
    state.deal(*fair.derive(game, board_table(event_id, board), 0, seeds, secret))
    return state


def board_over(state: MatchState) -> bool:
    """Whether the board's one deal is over (the match would deal a next one, or is over)."""
    return state.is_over() or state.needs_deal()


def _robot_seed(table: str, seat: int, state: MatchState) -> int:
    """A robot's seed for its next move: from the board and every action before it."""
    deal = state.record()["deals"]
    assert isinstance(deal, list)
    actions = deal[-1]["actions"] if deal else []
    line = "|".join(f"{a['seat']}:{a['action']}" for a in actions)
    digest = hashlib.sha256(f"{table}/{seat}/{line}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def robots_move(state: MatchState, table: str) -> None:
    """Let the robots act until the entrant must (or the board is over).  A robot that may
    act out of turn (Goat's molodka) is asked; one whose turn it is always acts."""
    while not board_over(state):
        for seat in state.actors():
            if seat == ENTRANT:
                continue
            action = make_bot(state.game_id, ROBOTS, seed=_robot_seed(table, seat, state)) \
                .act(state.view(seat))
            if action is not None:
                state.apply(seat, action)
                break
        else:
            return


def play_board(game: str, options: Mapping[str, object], event_id: str, board: int,
               secret: str, actions: Sequence[Mapping[str, object]]) -> MatchState:
    """The board after its stored actions (``{"seat", "action"}``, every seat's, in order),
    and the robots' moves that follow them."""
    state = deal_board(game, options, event_id, board, secret)
    for a in actions:
        seat, action = a["seat"], a["action"]
        assert isinstance(seat, int) and isinstance(action, str)
        state.apply(seat, action)
    robots_move(state, board_table(event_id, board))
    return state


def board_actions(state: MatchState) -> list[dict[str, object]]:
    """Every action of the board's deal, in order: what the store keeps."""
    deals = state.record()["deals"]
    assert isinstance(deals, list)
    return [{"seat": a["seat"], "action": a["action"]} for a in deals[0]["actions"]]


def board_record(state: MatchState, event_id: str, board: int, commit: str,
                 secret: str | None) -> dict[str, object]:
    """The board's ``taash-record/1`` (its one deal), its ``fair`` object carrying the event's
    commitment, and the secret only when given (once the event has closed)."""
    rec = state.record()
    deals = rec["deals"]
    assert isinstance(deals, list)
    rec["deals"] = deals[:1]
    proof: dict[str, object] = {"scheme": fair.SCHEME, "table": board_table(event_id, board),
                              "commit": commit, "seeds": [""] * state.num_seats}
    if secret is not None:
        proof["secret"] = secret
    rec["deals"][0]["fair"] = proof
    return rec


@dataclass(frozen=True)
class BoardResult:
    """What a board came to for the entrant: ``score`` orders results (higher is better);
    ``tricks`` (Court Piece, its two-player form) or ``points`` and ``defeat`` (Goat: the
    defeat points the entrant's side took; 0 is the goat avoided) say it in the game's words."""

    score: int
    tricks: int | None = None
    points: int | None = None
    defeat: int | None = None

    def json(self) -> dict[str, object]:
        out: dict[str, object] = {"score": self.score}
        if self.tricks is not None:
            out["tricks"] = self.tricks
        else:
            out["points"], out["defeat"] = self.points, self.defeat
        return out


GOAT_PACK_POINTS = sum(POINTS)  # the pack's points (the core's): more than any deal's, so a
# goat avoided beats any points taken


def side_of(game: str, seat: int) -> int:
    """The index of the seat's side in a summary's per-side lists."""
    return next(i for i, team in enumerate(game_class(game).teams) if seat in team)


def board_result(game: str, deal: Mapping[str, object], seat: int = ENTRANT) -> BoardResult:
    """The result of a complete deal (its summary) for ``seat``'s side: tricks won in Court
    Piece and its two-player form; in Goat the points taken, a goat taken counting below any
    points (``score`` = points - 121 * defeat points).
    """
    side = side_of(game, seat)
    if game_class(game).deal_unit == "points":
        points, defeat = deal["points"], deal["defeat"]
        assert isinstance(points, list) and isinstance(defeat, list)
        p, d = points[side], defeat[side]
        assert isinstance(p, int) and isinstance(d, int)
        return BoardResult(p - (GOAT_PACK_POINTS + 1) * d, points=p, defeat=d)
    tricks = deal["tricks"]
    assert isinstance(tricks, list)
    t = tricks[side]
    assert isinstance(t, int)
    return BoardResult(t, tricks=t)


def state_result(state: MatchState) -> BoardResult:
    """The entrant's result of a board that is over."""
    deals = state.summary()["deals"]
    assert isinstance(deals, list) and deals and board_over(state)
    return board_result(state.game_id, deals[0])


def opening_actions(actions: Sequence[Mapping[str, object]]) -> tuple[str, ...]:
    """The actions before the first card of a board is played (the trump call in Court
    Piece; none in Goat): what the best result with all hands open is solved after."""
    out: list[str] = []
    for a in actions:
        text = str(a["action"])
        if not text.startswith("trump:"):
            break
        out.append(f"{a['seat']}:{text}")
    return tuple(out)


def first_card_reached(state: MatchState) -> bool:
    """Whether the board is past its trump call (Goat has none): its best result from the first
    card can be searched for."""
    return not (isinstance(state, TrickPlay) and state.phase == CALL)


def first_trick(actions: Sequence[Mapping[str, object]], seats: int) -> tuple[str, ...]:
    """The first trick's plays of a board (after the trump call), ``seat:action`` each: the
    first play of every seat."""
    plays = [f"{a['seat']}:{a['action']}" for a in actions
             if not str(a["action"]).startswith("trump:")]
    return tuple(plays[:seats])


def at_first_card(game: str, options: Mapping[str, object], event_id: str, board: int,
                  secret: str, opening: Sequence[str]) -> MatchState:
    """The board once its trump is called (``opening`` as ``opening_actions`` gives it),
    before the first card."""
    state = deal_board(game, options, event_id, board, secret)
    for a in opening:
        seat, action = a.split(":", 1)
        state.apply(int(seat), action)
    return state
