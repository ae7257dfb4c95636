"""Court Piece, four players: one test (or several) per rule of RULES.md CP-1..CP-11."""

from __future__ import annotations

import random
from typing import Any

import pytest

from taash.games import CourtPiece, IllegalAction, OptionError
from taash.games.tricks import PACK
from tests.games.helpers import cp_deck

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S".split()


def match(options: Any = None, dealer: int = 0, deck: list[str] | None = None) -> CourtPiece:
    m = CourtPiece.new_match(options, first_dealer=dealer, deal=False)
    m.deal(deck if deck is not None else PACK.full_deck())
    return m


def test_cp1_pack_and_ranks() -> None:
    assert len(PACK.full_deck()) == 52
    m = match(dealer=3)  # caller 0 leads; no trump among the cards played below
    m.apply(0, "trump:C")
    hands = {s: m.view(s)["hand"] for s in range(4)}
    assert sorted(c for h in hands.values() for c in h) == sorted(PACK.full_deck())


def test_cp2_caller_is_left_of_dealer_and_first_dealer_from_seed() -> None:
    for d in range(4):
        m = match(dealer=d)
        assert m.view(0)["dealer"] == d and m.view(0)["caller"] == (d + 1) % 4
        assert m.actors() == [(d + 1) % 4]
    dealers = {CourtPiece.new_match(seed=s).view(0)["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert CourtPiece.new_match(seed=7).record() == CourtPiece.new_match(seed=7).record()


def test_cp3_deal_in_packets_five_then_four_then_four() -> None:
    deck = PACK.full_deck()
    random.Random(3).shuffle(deck)
    m = match(dealer=2, deck=deck)  # caller 3, then 0, 1, dealer 2
    order = [3, 0, 1, 2]
    for i, seat in enumerate(order):
        assert sorted(m.view(seat)["hand"]) == sorted(deck[5 * i:5 * i + 5])
        assert m.view(seat)["hand_counts"] == [5, 5, 5, 5]
    m.apply(3, "trump:H")
    for i, seat in enumerate(order):
        want = deck[5 * i:5 * i + 5] + deck[20 + 4 * i:24 + 4 * i] + deck[36 + 4 * i:40 + 4 * i]
        assert sorted(m.view(seat)["hand"]) == sorted(want)


def test_cp4_free_call_any_suit_even_unheld() -> None:
    deck = cp_deck({1: SPADES}, dealer=0)  # caller 1 holds only spades
    m = match(dealer=0, deck=deck)
    assert m.legal_actions(1) == ["trump:C", "trump:D", "trump:H", "trump:S"]
    m.apply(1, " Trump : d ")
    assert m.view(0)["trump"] == "D"


def test_cp4_most_held_allows_only_tied_top_suits() -> None:
    opts = {"trump_rule": "most-held"}
    deck = cp_deck({1: ["AS", "KS", "2H", "3H", "4D"]}, dealer=0)
    m = match(opts, dealer=0, deck=deck)
    assert m.legal_actions(1) == ["trump:H", "trump:S"]
    assert m.view(1)["trump_hint"] == ["S", "H"]
    with pytest.raises(IllegalAction) as e:
        m.apply(1, "trump:D")
    assert e.value.rule == "CP-4" and "spades or hearts" in e.value.message
    with pytest.raises(IllegalAction):
        m.apply(1, "trump:C")
    m.apply(1, "trump:H")


def test_cp4_only_the_caller_calls_and_only_once() -> None:
    m = match(dealer=0)
    with pytest.raises(IllegalAction, match="only the caller"):
        m.apply(2, "trump:S")
    with pytest.raises(IllegalAction, match="trump must be called first"):
        m.apply(1, "play:" + m.view(1)["hand"][0])
    with pytest.raises(IllegalAction, match="not a suit"):
        m.apply(1, "trump:X")
    m.apply(1, "trump:S")
    with pytest.raises(IllegalAction, match="already been called"):
        m.apply(1, "trump:H")


def test_cp5_follow_suit_and_the_winner_leads() -> None:
    # Seat 1 (caller) leads 2H; seat 2 holds hearts and must follow; seat 3 has no hearts and
    # trumps with 2S; seat 0 overtrumps with 3S and leads next.
    hands = {
        1: "2H 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD".split(),
        2: "AH KH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC".split(),
        3: "2S KC AC 4S 5S 6S 7S 8S 9S TS JS QS KS".split(),
        0: "3S 3H 4H 5H 6H 7H 8H 9H TH JH QH AS 2D".split(),
    }
    m = match(dealer=0, deck=cp_deck(hands, dealer=0))
    m.apply(1, "trump:S")
    m.apply(1, "play:2H")
    assert m.legal_actions(2) == ["play:AH", "play:KH"]
    with pytest.raises(IllegalAction) as e:
        m.apply(2, "play:2C")
    assert str(e.value) == "must follow suit: you hold hearts (CP-5)"
    m.apply(2, "play:AH")
    assert len(m.legal_actions(3)) == 13  # void in hearts: anything goes
    with pytest.raises(IllegalAction, match="seat 3's turn"):
        m.apply(0, "play:3S")
    m.apply(3, "play:2S")
    m.apply(0, "play:3H")  # follows suit: 3S would be a revoke
    assert m.view(0)["last_trick"]["winner"] == 3 and m.actors() == [3]


def test_cp5_highest_trump_wins_and_without_trump_highest_of_led_suit() -> None:
    rng = random.Random(11)
    for _ in range(30):
        deck = PACK.full_deck()
        rng.shuffle(deck)
        m = match(dealer=rng.randrange(4), deck=deck)
        m.apply(m.actors()[0], "trump:" + "SHDC"[rng.randrange(4)])
        trump = m.view(0)["trump"]
        while not m.is_over() and not m.needs_deal():
            seat = m.actors()[0]
            ev = m.apply(seat, rng.choice(m.legal_actions(seat)))
            for t in (e for e in ev if e["type"] == "trick"):
                cards = t["cards"]
                trumps = [c for c in cards if c[1] == trump]
                pool = trumps or [c for c in cards if c[1] == cards[0][1]]
                best = max(pool, key=lambda c: "23456789TJQKA".index(c[0]))
                assert (t["leader"] + cards.index(best)) % 4 == t["winner"]


def test_cp5_errors_change_nothing() -> None:
    m = match(dealer=0)
    m.apply(1, "trump:S")
    before = (m.record(), m.view(1), m.summary())
    for bad in ["play:AS,KS", "play:", "lead:AS", "play:ZZ", "hello", "play:AS,AS"]:
        with pytest.raises(ValueError):
            m.apply(1, bad)
    with pytest.raises(IllegalAction, match="do not hold"):
        m.apply(1, "play:" + m.view(2)["hand"][0])
    assert (m.record(), m.view(1), m.summary()) == before


def test_cp6_single_sar_ends_at_seven_tricks() -> None:
    for seed in range(10):
        m = CourtPiece.new_match({"session_end": None}, seed=seed, first_dealer=0)
        played = 0
        while m.summary()["deals"][0]["complete"] is False:
            seat = m.actors()[0]
            ev = m.apply(seat, m.legal_actions(seat)[0])
            played += sum(e["type"] == "trick" for e in ev)
        d = m.summary()["deals"][0]
        assert max(d["tricks"]) == 7 and sum(d["tricks"]) == played <= 13


# -- double sar: an independent oracle of CP-7 and CP-8 -------------------------------------
def oracle_collect(winners: list[int], aces: list[bool], ace_rule: bool) -> tuple[list[int], int]:
    """Collected tricks per team when the deal stops, and how many tricks were played, by the
    wording of CP-7 (a-d) and CP-8, written independently of the engine."""
    collected = [0, 0]
    pile = 0
    for i, (w, ace) in enumerate(zip(winners, aces, strict=True)):
        n = i + 1
        pile += 1
        prev_ok = False
        if n > 1:
            # the trick before must be won by the same player, must not be trick 1 (a), and
            # must not itself have collected (c)
            j = n - 2
            prev_ok = winners[j] == w and j != 0 and not _collected_at(winners, aces, ace_rule, j)
        if n == 13 or (prev_ok and not (ace_rule and ace)):
            collected[w % 2] += pile
            pile = 0
        if max(collected) >= 7:
            return collected, n
    return collected, len(winners)


def _collected_at(winners: list[int], aces: list[bool], ace_rule: bool, j: int) -> bool:
    pile = 0
    for i in range(j + 1):
        pile += 1
        col = i == 12 or (i >= 2 and winners[i - 1] == winners[i]
                          and not _collected_at(winners, aces, ace_rule, i - 1)
                          and not (ace_rule and aces[i]))
        if col:
            pile = 0
        if i == j:
            return col
    return False


def test_oracle_examples_from_the_rules() -> None:
    f = [False] * 13
    # (a) tricks 1 and 2 by seat 0 do not collect; trick 3 by seat 0 collects all three
    assert oracle_collect([0, 0, 0, 1], f[:4], False) == ([3, 0], 4)
    # (b) partner does not chain
    assert oracle_collect([1, 0, 2, 0], f[:4], False) == ([0, 0], 4)
    # (c) after collecting at 3, trick 4 by the same player does not collect; trick 5 does
    assert oracle_collect([1, 0, 0, 0, 0], f[:5], False) == ([5, 0], 5)
    # CP-8: an ace blocks, the next non-ace trick by the same player collects
    assert oracle_collect([3, 1, 1, 1], [False, False, True, False], True) == ([0, 4], 4)


@pytest.mark.parametrize("ace_rule", [False, True])
def test_cp7_cp8_double_sar_matches_the_oracle(ace_rule: bool) -> None:
    opts = {"sar": "double", "ace_rule": ace_rule, "session_end": None}
    rng = random.Random(5 + ace_rule)
    seen_collect_with_ace_block = False
    for _ in range(300):
        m = CourtPiece.new_match(opts, rng=rng, deal=False)
        m.deal_from(rng)
        winners: list[int] = []
        aces: list[bool] = []
        piles: list[int] = []
        while not m.needs_deal():
            seat = m.actors()[0]
            ev = m.apply(seat, rng.choice(m.legal_actions(seat)))
            for t in (e for e in ev if e["type"] == "trick"):
                winners.append(t["winner"])
                win_card = t["cards"][(t["winner"] - t["leader"]) % 4]
                aces.append(win_card[0] == "A")
                piles.append(m.view(0)["pile"])
        want, n = oracle_collect(winners + [0] * (13 - len(winners)),
                                 aces + [False] * (13 - len(aces)), ace_rule)
        d = m.summary()["deals"][0]
        assert (d["tricks"], len(winners)) == (want, n), (winners, aces)
        assert d["winner"] == (0 if want[0] >= 7 else 1)
        if ace_rule and any(a and i > 1 and winners[i - 1] == winners[i]
                            for i, a in enumerate(aces[:-1])):
            seen_collect_with_ace_block = True
        assert piles[0] == 1 and (len(piles) < 2 or piles[1] == 2)  # CP-7a
    assert seen_collect_with_ace_block or not ace_rule


def test_cp7_thirteenth_trick_collects_the_pile_and_ace_rule_ignored_in_single() -> None:
    # Single sar with ace_rule true behaves as single sar (CP-8 only applies to double).
    a = CourtPiece.new_match({"ace_rule": True, "session_end": None}, seed=4)
    b = CourtPiece.new_match({"ace_rule": False, "session_end": None}, seed=4)
    for _ in range(200):
        if a.is_over():
            break
        seat = a.actors()[0]
        act = a.legal_actions(seat)[-1]
        a.apply(seat, act)
        b.apply(seat, act)
    assert a.summary() == b.summary()
    # Double sar: a deal always accounts for every trick collected by the end of trick 13.
    rng = random.Random(2)
    for _ in range(100):
        m = CourtPiece.new_match({"sar": "double", "session_end": None}, rng=rng, deal=False)
        m.deal_from(rng)
        tricks = 0
        while not m.needs_deal():
            seat = m.actors()[0]
            ev = m.apply(seat, rng.choice(m.legal_actions(seat)))
            tricks += sum(e["type"] == "trick" for e in ev)
        d = m.summary()["deals"][0]
        if tricks == 13:
            assert sum(d["tricks"]) == 13


def test_cp9_coat_when_the_other_team_took_nothing() -> None:
    # Seat 1 (caller) holds all thirteen spades and calls spades: team 1 wins 7-0, a coat.
    m = match(dealer=0, deck=cp_deck({1: SPADES}, dealer=0))
    m.apply(1, "trump:S")
    while m.summary()["deals"][0]["complete"] is False:
        seat = m.actors()[0]
        m.apply(seat, m.legal_actions(seat)[0])
    d = m.summary()["deals"][0]
    assert (d["winner"], d["tricks"], d["coat"]) == (1, [0, 7], True)
    assert m.summary()["match"]["coats"] == [0, 1]


@pytest.mark.parametrize(("dealer", "caller_wins", "coat", "next_dealer"), [
    (0, False, False, 1),  # dealer's team won: the player on the dealer's left deals
    (0, True, False, 0),  # dealer's team lost, no coat: the same player deals again
    (0, True, True, 2),  # caller's team won with a coat: the dealer's partner deals
    (3, True, True, 1),
    (3, False, False, 0),
])
def test_cp10_next_dealer(dealer: int, caller_wins: bool, coat: bool, next_dealer: int) -> None:
    caller = (dealer + 1) % 4
    strong = caller if caller_wins else dealer
    if coat:
        hands = {strong: SPADES}
    else:  # the strong seat holds the top of every suit but not enough to sweep
        hands = {strong: "AS KS QS JS TS AH KH QH AD KD AC KC 2C".split()}
    m = match({"session_end": None}, dealer=dealer, deck=cp_deck(hands, dealer=dealer))
    m.apply(caller, "trump:S")
    rng = random.Random(1)
    while m.summary()["deals"][0]["complete"] is False:
        seat = m.actors()[0]
        legal = m.legal_actions(seat)
        # the strong seat plays its highest card, the others their lowest
        m.apply(seat, legal[0] if seat == strong else rng.choice(legal))
    d = m.summary()["deals"][0]
    assert d["winner"] == strong % 2 and d["coat"] == coat
    m.deal(PACK.full_deck())
    assert m.summary()["deals"][1]["dealer"] == next_dealer
    assert m.actors() == [(next_dealer + 1) % 4]


def play_deals(m: CourtPiece, n: int, rng: random.Random) -> None:
    done = 0
    while done < n and not m.is_over():
        seat = m.actors()[0]
        ev = m.apply(seat, rng.choice(m.legal_actions(seat)))
        done += sum(e["type"] == "deal_over" for e in ev)


def test_cp11_session_by_coats_by_deals_and_open_ended() -> None:
    rng = random.Random(9)
    m = CourtPiece.new_match({"session_end": {"coats": 1}}, rng=rng)
    while not m.is_over():
        play_deals(m, 1, rng)
    s = m.summary()["match"]
    assert s["over"] and s["coats"][s["winner"]] == 1 and sum(s["coats"]) == 1
    with pytest.raises(IllegalAction, match="match is over"):
        m.apply(0, "play:AS")

    m = CourtPiece.new_match({"session_end": {"deals": 3}}, rng=rng)
    play_deals(m, 3, rng)
    s = m.summary()["match"]
    assert s["over"] and len(m.summary()["deals"]) == 3
    c, d = s["coats"], s["deals_won"]
    want = (0 if c[0] > c[1] else 1) if c[0] != c[1] else (0 if d[0] > d[1] else 1)
    assert s["winner"] == want

    m = CourtPiece.new_match({"session_end": None}, rng=rng)
    play_deals(m, 25, rng)
    assert not m.is_over() and m.summary()["match"]["winner"] is None
    assert len(m.summary()["deals"]) == 26


@pytest.mark.parametrize("bad", [
    {"sar": "triple"}, {"ace_rule": "true"}, {"ace_rule": 1}, {"trump_rule": "most"},
    {"session_end": {"coats": 2, "deals": 1}}, {"session_end": {"coats": 0}},
    {"session_end": {"coats": 2.0}}, {"session_end": {"deals": True}}, {"target": 5}, [],
])
def test_bad_options_are_rejected_clearly(bad: Any) -> None:
    with pytest.raises(OptionError) as e:
        CourtPiece.new_match(bad, seed=1)
    assert str(e.value)


def test_clone_is_independent() -> None:
    m = CourtPiece.new_match({"sar": "double"}, seed=3)
    c = m.clone()
    seat = c.actors()[0]
    c.apply(seat, c.legal_actions(seat)[0])
    assert m.record()["deals"][0]["actions"] == []
    assert c.record()["deals"][0]["actions"] != []
