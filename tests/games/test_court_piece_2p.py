"""Two-player Court Piece: RULES.md TW-1..TW-6."""

from __future__ import annotations

import random

import pytest

from taash.games import CourtPiece2P, IllegalAction, OptionError
from taash.games.tricks import PACK
from tests.games.helpers import cp_deck

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S".split()


def test_tw2_tw3_roles_and_deal() -> None:
    deck = PACK.full_deck()
    random.Random(1).shuffle(deck)
    m = CourtPiece2P.new_match(first_caller=1, deal=False)
    m.deal(deck)
    v = m.view(1)
    assert (v["caller"], v["dealer"], m.actors()) == (1, 0, [1])
    assert sorted(v["hand"]) == sorted(deck[0:5])
    assert sorted(m.view(0)["hand"]) == sorted(deck[5:10])
    assert m.legal_actions(1) == ["trump:C", "trump:D", "trump:H", "trump:S"]
    assert m.legal_actions(0) == []
    m.apply(1, "trump:S")
    assert sorted(m.view(1)["hand"]) == sorted(deck[0:5] + deck[10:18])
    assert sorted(m.view(0)["hand"]) == sorted(deck[5:10] + deck[18:26])
    out = set(deck[26:])
    for seat in (0, 1):
        assert not out & set(m.view(seat)["hand"])


def test_tw1_tw4_follow_suit_and_first_to_seven() -> None:
    rng = random.Random(3)
    for _ in range(40):
        m = CourtPiece2P.new_match({"target": 100}, rng=rng)
        tricks = 0
        while m.summary()["deals"][0]["complete"] is False:
            seat = m.actors()[0]
            v = m.view(seat)
            if v["trick"]:
                led = v["trick"][0]["card"][1]
                if any(c[1] == led for c in v["hand"]):
                    assert all(a[-1] == led for a in v["legal_actions"])
            ev = m.apply(seat, rng.choice(v["legal_actions"]))
            tricks += sum(e["type"] == "trick" for e in ev)
        d = m.summary()["deals"][0]
        assert max(d["tricks"]) == 7 and sum(d["tricks"]) == tricks <= 13
    with pytest.raises(IllegalAction) as e:
        m.apply(m.actors()[0] ^ 1, "play:AS")
    assert e.value.rule in ("TW-3", "TW-4")


@pytest.mark.parametrize(("winner_is_caller", "court", "scored"), [
    (True, True, 4), (False, True, 4),
])
def test_tw5_court_scores_four_and_the_winner_calls(winner_is_caller: bool, court: bool,
                                                     scored: int) -> None:
    caller = 0
    strong = caller if winner_is_caller else 1
    m = CourtPiece2P.new_match({"target": 100}, first_caller=caller, deal=False)
    m.deal(cp_deck({strong: SPADES}, dealer=caller, seats=2))
    m.apply(caller, "trump:S")
    while m.summary()["deals"][0]["complete"] is False:
        seat = m.actors()[0]
        m.apply(seat, m.legal_actions(seat)[0])
    d = m.summary()["deals"][0]
    assert (d["winner"], d["court"], d["scored"][strong]) == (strong, court, scored)
    m.deal(PACK.full_deck())
    assert m.actors() == [strong] and m.summary()["deals"][1]["caller"] == strong


def test_tw5_plain_wins_score_one_for_the_caller_two_for_the_other() -> None:
    rng = random.Random(8)
    seen = set()
    m = CourtPiece2P.new_match({"target": 1000}, rng=rng)
    for _ in range(4000):
        seat = m.actors()[0]
        for e in m.apply(seat, rng.choice(m.legal_actions(seat))):
            if e["type"] == "deal_over":
                w = e["winner"]
                want = 4 if e["court"] else (1 if w == e["caller"] else 2)
                assert e["scored"][w] == want and e["scored"][1 - w] == 0
                assert m.summary()["deals"][-1]["caller"] == w
                seen.add(want)
    assert {1, 2} <= seen


def test_tw6_match_to_target() -> None:
    rng = random.Random(5)
    for target in (1, 5, 9):
        m = CourtPiece2P.new_match({"target": target}, rng=rng)
        while not m.is_over():
            seat = m.actors()[0]
            m.apply(seat, rng.choice(m.legal_actions(seat)))
        s = m.summary()["match"]
        assert s["points"][s["winner"]] >= target > s["points"][1 - s["winner"]]
    with pytest.raises(OptionError):
        CourtPiece2P.new_match({"target": 0})
    with pytest.raises(OptionError):
        CourtPiece2P.new_match({"sar": "double"})
