"""One game descriptor from the core (taash.games.options): each game states its options once,
and its DEFAULTS, CHECKS and BOUNDS, GET /api/games and the page's form are read from them.
tests/js/games.json is the descriptors as the page's unit tests see them (rewritten with
TAASH_UPDATE_DOCS=1)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from taash.games import GAMES, describe_game
from taash.games.base import OptionError
from taash.games.options import Count, CountOf, Flag

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "games.json"


def test_the_page_tests_see_the_games_as_the_core_describes_them() -> None:
    want = json.dumps([describe_game(cls) for cls in GAMES.values()], indent=1,
                      ensure_ascii=False) + "\n"
    if os.environ.get("TAASH_UPDATE_DOCS") == "1":
        FIXTURE.write_text(want, encoding="utf-8")
    assert FIXTURE.read_text(encoding="utf-8") == want, (
        "tests/js/games.json is stale: "
        "run TAASH_UPDATE_DOCS=1 pytest tests/games/test_descriptor.py")


@pytest.mark.parametrize("game", list(GAMES))
def test_each_described_option_is_what_the_core_checks(game: str) -> None:
    cls = GAMES[game]
    d = describe_game(cls)
    assert d["id"] == game and d["seats"] == cls.num_seats and d["name"]
    # every seat on exactly one side
    assert sorted(s for team in d["teams"] for s in team) == list(range(cls.num_seats))
    assert [f["name"] for f in d["fields"]] == list(cls.DEFAULTS) == list(d["options"])
    for o in cls.OPTIONS:
        assert cls.DEFAULTS[o.name] == o.default
        cls.check_options({o.name: o.default}, bounded=True)  # a default is within its bounds
        if isinstance(o, Flag):
            for need, value in o.needs.items():  # a flag needs another option's real value
                cls.check_options({need: value})
        if isinstance(o, Count):
            cls.check_options({o.name: o.maximum}, bounded=True)
            with pytest.raises(OptionError, match=o.name):
                cls.check_options({o.name: o.maximum + 1}, bounded=True)
        if isinstance(o, CountOf):
            for u in o.units:
                cls.check_options({o.name: {u.name: u.default}}, bounded=True)
                cls.check_options({o.name: {u.name: u.maximum}}, bounded=True)
                with pytest.raises(OptionError, match=o.name):
                    cls.check_options({o.name: {u.name: u.maximum + 1}}, bounded=True)


def test_the_session_messages_name_every_form() -> None:
    with pytest.raises(OptionError) as e:
        GAMES["court-piece"].check_options({"session_end": {"rounds": 3}})
    assert str(e.value) == ('option session_end: must be null, {"coats": N} or {"deals": N} '
                            'with N an integer of at least 1')
    with pytest.raises(OptionError, match="at most 50 at a table"):
        GAMES["court-piece"].check_options({"session_end": {"coats": 51}}, bounded=True)


@pytest.mark.parametrize("game", list(GAMES))
def test_what_a_game_says_of_itself_is_what_its_matches_do(game: str) -> None:
    """The capabilities other code asks of a game instead of its id (shows_trump_card,
    plays_card_sets, deal_unit) hold for a real match: a random deal played to its end."""
    cls = GAMES[game]
    rng = random.Random(3)
    m = cls.new_match(seed=3, first_seat=0)
    assert (m.deal_slots().trump_card is not None) == cls.shows_trump_card
    d = describe_game(cls)  # what the page reads instead of the game's id
    assert d["ranks"] == cls.pack().ranks and len(d["ranks"]) * 4 == cls.pack().size
    assert (d["shows_trump_card"], d["plays_card_sets"], d["deal_unit"]) == (
        cls.shows_trump_card, cls.plays_card_sets, cls.deal_unit)
    if cls.shows_trump_card:  # the page's fair check draws the shown card from these positions
        start, stop = d["trump_card_from"]
        assert tuple(range(start, stop)) == m.deal_slots().stock
        assert start <= m.deal_slots().trump_card < stop
    else:
        assert d["trump_card_from"] is None
    verbs: set[str] = set()
    sets = False
    while not m.needs_deal() and not m.is_over():
        seat = m.actors()[0]
        action = rng.choice(m.legal_actions(seat))
        verb, _, arg = action.partition(":")
        verbs.add(verb)
        sets = sets or len(arg.split(",")) > 1
        m.apply(seat, action)
    assert (sets or not verbs <= {"play", "trump"}) == cls.plays_card_sets
    deal = m.summary()["deals"][-1]
    assert ("points" in deal and "defeat" in deal) == (cls.deal_unit == "points")
    assert cls.deal_unit in ("tricks", "points")
    assert cls.text_name.lower() == cls.name.lower()  # the name, cased for running text


def test_a_game_renamed_by_a_subclass_is_called_by_its_new_name() -> None:
    from taash.games.court_piece_2p import CourtPiece2P

    class Renamed(CourtPiece2P):
        name = "Toy Piece"
        __slots__ = ()

    assert Renamed.text_name == "Toy Piece"
    assert CourtPiece2P.text_name == "two-player Court Piece"
