"""`taash play` says "Your first five cards" only when the seat sees its first five: before
the trump call, at the seat of a player who does not call (issue 43: joining a table mid-deal
printed it over a hand of thirteen)."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from taash.games import new_match
from taash.play.screen import Screen
from taash.play.table import NARRATIONS


def announced(game: str, seed: int, seat: int, trump_called: bool) -> str:
    """What the deal's first lines say at ``seat``, the trump called or not yet."""
    m = new_match(game, None, seed=seed)
    if trump_called:
        caller = m.view(0)["caller"]
        m.apply(caller, m.legal_actions(caller)[0])
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    screen = Screen(console, human=seat, seats=m.num_seats, symbols=False)
    NARRATIONS[game](screen, m).announce(m.view(seat))
    return out.getvalue()


@pytest.mark.parametrize("game", ["court-piece", "court-piece-2p"])
def test_the_first_five_only_before_the_trump_call(game: str) -> None:
    m = new_match(game, None, seed=3)
    caller = m.view(0)["caller"]
    other = (caller + 1) % m.num_seats
    before = announced(game, 3, other, trump_called=False)
    five = re.search(r"Your first five cards: (.*)", before)
    assert five and len(five.group(1).split()) == 5, before
    # the caller sees five too, but is asked to call on them (the prompt shows them)
    assert "first five" not in announced(game, 3, caller, trump_called=False)
    # joined after the call: the whole hand, no "first five"
    after = announced(game, 3, other, trump_called=True)
    assert "first five" not in after, after
    assert m.view(other)["phase"] == "trump"
