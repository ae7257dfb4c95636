"""A puzzle's position as a player is shown it, and the judging of their move.

A puzzle is made with every hand open (docs/puzzles.md: the solver sees all the cards still in
play), so its position shows what the seat to move sees at a table (the core's
``view(seat)``: the trick, the tricks and points so far, the play before, Goat's passes face
down as counts) and, as the puzzle states them, the other seats' hands now.  Nothing else of
the record goes out: not the deck (Court Piece for two leaves 26 cards out of play, unseen),
not the cards passed face down, and never the solution, the obvious move, the best line or the
themes (they hint at the answer), which come only with an attempt's answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from taash.games.base import IllegalAction, MalformedAction, MatchState
from taash.record import replay, validate
from taash.server.errors import BadRequest
from taash.server.puzzles.shapes import Continuation, Shown
from taash.server.puzzles.source import Entry


def state_of(entry: Entry) -> MatchState:
    """The puzzle's position, rebuilt by the rules core from its record prefix."""
    return replay(validate(entry.data["record"]))


def key_of(action: str) -> str:
    """An action's verb and its cards sorted: one key for Goat's cards in any order."""
    verb, _, cards = action.partition(":")
    return f"{verb}:{','.join(sorted(c for c in cards.split(',') if c))}"


def shown(entry: Entry) -> Shown:
    """What a player is shown of the puzzle before their attempt."""
    state = state_of(entry)
    seat = int(cast(int, entry.data["seat"]))
    view = cast(dict[str, object], state.view(seat))
    hands = []
    for s in range(state.num_seats):
        hand = state.view(s).get("hand")
        hands.append([str(c) for c in hand] if isinstance(hand, list) else [])
    options = cast(Mapping[str, object], view.get("options") or {})
    return {"id": entry.id, "game": entry.game, "options": dict(options),
            "seat": seat, "open_hands": True, "view": view, "hands": hands,
            "url": f"/puzzles/{entry.id}"}


def judge(entry: Entry, action: str) -> tuple[str, bool]:
    """The player's move as the core writes it and whether it solves the puzzle.  A move
    that is not legal here is refused as at a table: the core's rule and words
    (IllegalAction), or a malformed one (MalformedAction)."""
    state = state_of(entry)
    seat = int(cast(int, entry.data["seat"]))
    key = key_of(action)
    legal = next((a for a in state.legal_actions(seat) if key_of(a) == key), None)
    if legal is None:
        try:
            state.apply(seat, action)
        except (IllegalAction, MalformedAction):
            raise
        except ValueError as e:  # the core's other refusals of a text it cannot read
            raise MalformedAction(str(e)) from None
        raise BadRequest(f"{action!r} is not a move of seat {seat} in this puzzle")
    solution = {key_of(str(a)) for a in cast(list[object], entry.data["solution"])}
    return legal, key in solution


def answer_of(entry: Entry) -> tuple[list[str], list[Continuation], dict[str, object],
                                     list[str]]:
    """What an attempt's answer reveals: the solution, the best line after it, the result of
    each (its unit, the best and the obvious move's) and the themes."""
    d = entry.data
    line = [{"seat": int(cast(Mapping[str, int], x)["seat"]),
             "action": str(cast(Mapping[str, str], x)["action"])}
            for x in cast(list[object], d.get("continuation") or [])]
    return ([str(a) for a in cast(list[object], d["solution"])], cast(list[Continuation], line),
            dict(cast(Mapping[str, object], d.get("value") or {})),
            [str(t) for t in cast(list[object], d.get("themes") or [])])
