"""Every level plays only legal actions, in every game and option set, reproducibly."""

from __future__ import annotations

from typing import Any

import pytest

from taash.bots import LEVELS, BotError, make_bot, trump_hint
from taash.games import get_game

CASES: list[tuple[str, Any]] = [
    ("court-piece", None),
    ("court-piece", {"sar": "double"}),
    ("court-piece", {"sar": "double", "ace_rule": True, "trump_rule": "most-held"}),
    ("court-piece", {"trump_rule": "most-held"}),
    ("court-piece-2p", None),
    ("goat", None),
    ("goat", {"eggs": "double-next", "target": 6}),
]


def play_deals(game: str, options: Any, levels: list[str], seed: int, deals: int,
               budget_ms: float = 5) -> list[tuple[int, str]]:
    """Play ``deals`` deals with bots at every seat (asking each actor in the order the
    engine lists them), checking each answer against the view's legal actions."""
    cls = get_game(game)
    m = cls.new_match(options, seed=seed)
    bots = [make_bot(game, levels[i % len(levels)], seed=seed * 7 + i, budget_ms=budget_ms)
            for i in range(cls.num_seats)]
    log: list[tuple[int, str]] = []
    while not m.is_over() and len(m.summary()["deals"]) <= deals:
        if len(m.summary()["deals"]) == deals and m.summary()["deals"][-1]["complete"]:
            break
        chosen: tuple[int, str] | None = None
        for s in m.actors():  # all are asked; the first in the engine's order acts
            view = m.view(s)
            a = bots[s].act(view)
            if a is None:
                assert view["to_move"] != s, "the seat to move must act"
                continue
            assert a in view["legal_actions"]
            if chosen is None:
                chosen = (s, a)
        assert chosen is not None
        m.apply(*chosen)
        log.append(chosen)
    return log


@pytest.mark.parametrize(("game", "options"), CASES)
@pytest.mark.parametrize("level", ["random", "easy"])
def test_legal_and_reproducible(game: str, options: Any, level: str) -> None:
    for seed in range(3):
        first = play_deals(game, options, [level, "random"], seed, 2)
        assert first == play_deals(game, options, [level, "random"], seed, 2)


def test_levels_and_errors() -> None:
    assert LEVELS == ("random", "easy", "hard")
    assert make_bot("goat", "heuristic").level == "easy"
    with pytest.raises(BotError, match="unknown level"):
        make_bot("goat", "expert")
    with pytest.raises(BotError, match="unknown game"):
        make_bot("chess", "easy")


def test_trump_hint() -> None:
    assert trump_hint("court-piece", ["AS", "2S", "KH", "QH", "3D"]) == ["H", "S"]
    assert trump_hint("court-piece-2p", ["2C", "3C", "4C", "AS", "KS"]) == ["C"]
    assert trump_hint("goat", ["AS"]) == []


@pytest.mark.parametrize(("game", "options"), CASES[::2] + CASES[4:5])
def test_hard_is_legal_and_reproducible(game: str, options: Any) -> None:
    """The hard level with a tiny budget (its budget is work, not time, so it repeats)."""
    first = play_deals(game, options, ["hard", "random"], 11, 1, budget_ms=1)
    assert first == play_deals(game, options, ["hard", "random"], 11, 1, budget_ms=1)


def test_hard_takes_a_won_trick_when_it_can() -> None:
    """Sanity of the search: late in a deal, holding the master card of the led suit as
    last player with the trick decisive, hard wins the trick like the rules of thumb do."""
    from tests.bots.helpers import bot_positions

    seen = 0
    for seed in range(30):
        for _, seat, view in bot_positions("court-piece-2p", None, seed, ["random"]):
            if view["phase"] != "play" or len(view["trick"]) != 1:
                continue
            led = view["trick"][0]["card"]
            higher = [c for c in view["hand"] if c[1] == led[1] and
                      "23456789TJQKA".index(c[0]) > "23456789TJQKA".index(led[0])]
            if not higher or max(view["tricks"]) != 6 or view["tricks"][seat] != 6:
                continue
            action = make_bot("court-piece-2p", "hard", seed=1, budget_ms=5).act(view)
            assert action is not None and action[5:] in higher  # winning now ends the deal
            seen += 1
    assert seen >= 1


def test_hard_decides_out_of_turn_molodkas() -> None:
    """Asked out of turn while holding a molodka, the hard level answers the molodka or
    nothing, never anything else."""
    from tests.bots.helpers import bot_positions

    asked = 0
    for seed in range(300):
        for _, seat, view in bot_positions("goat", None, seed, ["random"]):
            if seat == view["to_move"] or not view["can_molodka"]:
                continue
            a = make_bot("goat", "hard", seed=seed, budget_ms=2).act(view)
            assert a is None or (a.startswith("molodka:") and a in view["legal_actions"])
            asked += 1
        if asked >= 3:
            break
    assert asked >= 1
