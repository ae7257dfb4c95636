"""Goat (Kozel): RULES.md GT-1..GT-12, the subtle ones (pairing, molodka, drawing, defeat
points) several times."""

from __future__ import annotations

import random
from itertools import combinations, permutations
from typing import Any

import pytest

from taash.games import Goat, IllegalAction, OptionError, RecordError
from taash.games.goat import PACK, POINTS, defeat_points

ORDER = "6789JQKTA"


def goat_deck(hands: dict[int, list[str]], dealer: int, stock: list[str] | None = None
              ) -> list[str]:
    """A deck dealing ``hands`` (seat -> 4 codes) with ``dealer``; then ``stock`` from deck[16]."""
    deck: list[str | None] = [None] * 36
    used: set[str] = set()
    for seat, codes in hands.items():
        for r, code in enumerate(codes):
            deck[4 * r + (seat - dealer - 1) % 4] = code
            used.add(code)
    for i, code in enumerate(stock or []):
        deck[16 + i] = code
        used.add(code)
    rest = [c for c in PACK.full_deck() if c not in used]
    for i in range(36):
        if deck[i] is None:
            deck[i] = rest.pop()
    return [c for c in deck if c is not None]


def game(hands: dict[int, list[str]], dealer: int = 0, trump_card: str | None = None,
         stock: list[str] | None = None, options: Any = None) -> Goat:
    deck = goat_deck(hands, dealer, stock)
    m = Goat.new_match(options, first_dealer=dealer, deal=False)
    m.deal(deck, trump_card or deck[20])
    return m


def test_gt1_pack_and_points() -> None:
    assert len(PACK.full_deck()) == 36 and sum(POINTS) == 120
    assert {PACK.code(c)[0]: POINTS[c] for c in range(9)} == {
        "6": 0, "7": 0, "8": 0, "9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
    m = Goat.new_match(seed=1, first_dealer=0)
    seat = m.actors()[0]
    with pytest.raises(IllegalAction, match="GT-1"):
        m.apply(seat, "lead:2H")


def test_gt2_gt5_dealers_rotate_and_the_last_trick_winner_leads_next() -> None:
    rng = random.Random(4)
    m = Goat.new_match({"target": 100}, rng=rng, first_dealer=2)
    last_winner = None
    games = 0
    while games < 4:
        seat = m.actors()[0]
        ev = m.apply(seat, rng.choice(m.legal_actions(seat)))
        for e in ev:
            if e["type"] == "trick":
                last_winner = e["winner"]
            if e["type"] == "deal_over":
                games += 1
                nxt = m.summary()["deals"][-1]
                assert nxt["complete"] is False
                assert nxt["dealer"] == (e["dealer"] + 1) % 4
                assert nxt["leader"] == last_winner == m.actors()[0]
    first = m.summary()["deals"][0]
    assert first["dealer"] == 2 and first["leader"] == 3


def test_gt3_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = PACK.full_deck()
    random.Random(2).shuffle(deck)
    m = Goat.new_match(first_dealer=1, deal=False)
    m.deal(deck, deck[30])
    for i in range(16):
        assert deck[i] in m.view((1 + 1 + i) % 4)["hand"]
    assert m.view(0)["stock"] == 20 and m.view(0)["hand_counts"] == [4, 4, 4, 4]


def test_gt4_trump_card_shown_from_the_stock_only() -> None:
    deck = PACK.full_deck()
    m = Goat.new_match(first_dealer=0, deal=False)
    with pytest.raises(RecordError, match="not in the stock"):
        m.deal(deck, deck[3])
    with pytest.raises(RecordError):
        m.deal(deck, None)
    m.deal(deck, deck[25])
    v = m.view(2)
    assert v["trump_card"] == deck[25] and v["trump"] == deck[25][1]
    assert "stock_order" not in v and isinstance(v["stock"], int)
    cards = {Goat.new_match(seed=s).public_view()["trump_card"] for s in range(60)}
    assert len(cards) > 20  # drawn at random from the stock


def test_gt6_gt7_beat_needs_a_one_to_one_pairing() -> None:
    # Trump D.  Seat 1 leads AD,9D; seat 0 holds QD,JD: each beats 9D, neither beats AD.
    m = game({1: ["AD", "9D", "6S", "7S"], 0: ["QD", "JD", "8C", "7C"]}, dealer=0,
             stock=["6D"] + [], trump_card="6D")
    m.apply(1, "lead:AD,9D")
    m.apply(2, "pass:" + ",".join(m.view(2)["hand"][:2]))
    m.apply(3, "pass:" + ",".join(m.view(3)["hand"][:2]))
    with pytest.raises(IllegalAction) as e:
        m.apply(0, "beat:QD,JD")
    assert e.value.rule == "GT-6"
    assert not any(a.startswith("beat:") for a in m.legal_actions(0))
    with pytest.raises(IllegalAction, match="exactly 2"):
        m.apply(0, "pass:8C")
    m.apply(0, "pass:QD,JD")


def _oracle_beats(new: list[str], top: list[str], trump: str) -> bool:
    def b(x: str, y: str) -> bool:
        if x[1] == y[1]:
            return ORDER.index(x[0]) > ORDER.index(y[0])
        return x[1] == trump

    return any(all(b(x, y) for x, y in zip(p, top, strict=True)) for p in permutations(new))


def test_gt7_legal_leads_beats_and_passes_match_an_oracle() -> None:
    rng = random.Random(8)
    checked = 0
    for _ in range(60):
        m = Goat.new_match({"target": 100}, rng=rng)
        for _ in range(120):
            if m.is_over():
                break
            seat = m.actors()[0]
            v = m.view(seat)
            hand, legal = v["hand"], set(v["legal_actions"])
            if not v["trick"]:
                want = {"lead:" + ",".join(c) for k in range(1, len(hand) + 1)
                        for c in combinations(hand, k) if len({x[1] for x in c}) == 1}
            else:
                k = v["k"]
                want = {"pass:" + ",".join(c) for c in combinations(hand, k)}
                want |= {"beat:" + ",".join(c) for c in combinations(hand, k)
                         if _oracle_beats(list(c), v["top"], v["trump"])}
            if v["can_molodka"]:
                want.add("molodka:" + ",".join(hand))
            assert legal == want
            checked += 1
            m.apply(seat, rng.choice(sorted(legal)))
    assert checked > 1000


def test_gt7_lead_must_be_one_suit_and_only_the_leader_leads() -> None:
    m = game({1: ["AH", "KS", "7S", "6D"]}, dealer=0)
    with pytest.raises(IllegalAction, match="one suit"):
        m.apply(1, "lead:AH,KS")
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        m.apply(2, "lead:" + m.view(2)["hand"][0])
    with pytest.raises(IllegalAction, match="you lead this trick"):
        m.apply(1, "beat:AH")
    m.apply(1, "lead:KS, 7s")
    with pytest.raises(IllegalAction, match="already led"):
        m.apply(2, "lead:" + m.view(2)["hand"][0])


def test_gt7_the_cards_on_top_win() -> None:
    # Trump S.  Seat 1 leads 6H; seat 2 beats with 7H; seat 3 beats with 6S (trump); seat 0
    # passes: seat 3 wins all four cards and leads next.
    m = game({1: ["6H", "6C", "7C", "8C"], 2: ["7H", "9C", "JC", "QC"],
              3: ["6S", "KC", "TC", "AC"], 0: ["8H", "6D", "7D", "8D"]},
             dealer=0, stock=["7S"], trump_card="7S")
    m.apply(1, "lead:6H")
    m.apply(2, "beat:7H")
    with pytest.raises(IllegalAction):
        m.apply(3, "beat:KC")
    m.apply(3, "beat:6S")
    m.apply(0, "pass:8H")
    assert m.view(0)["tricks"] == [0, 1] and m.actors()[0] == 3


def test_gt8_molodka_out_of_turn_before_the_lead() -> None:
    m = game({1: ["6C", "7C", "8C", "9C"], 3: ["6H", "7H", "8H", "9H"]}, dealer=3)
    # seat 0 leads (dealer 3); seat 1 and seat 3 may play their molodkas at once
    assert m.actors() == [0, 1, 3]
    assert m.legal_actions(1) == ["molodka:9C,8C,7C,6C"]
    assert m.public_view()["actors"] == [0]  # nobody else learns who holds a molodka
    m.apply(3, "molodka:6H,7H,8H,9H")
    assert m.actors() == [0]  # answered in playing order from seat 3
    v = m.view(0)
    assert v["k"] == 4 and v["top"] == ["9H", "8H", "7H", "6H"] and v["molodka_played"]
    with pytest.raises(IllegalAction, match="only one molodka"):
        m.apply(1, "molodka:6C,7C,8C,9C")
    assert not any(a.startswith("molodka") for a in m.legal_actions(1))


def test_gt8_molodka_after_plays_returns_the_cards() -> None:
    m = game({1: ["AS", "KD", "QD", "JD"], 2: ["6C", "7C", "8C", "9C"]}, dealer=0,
             stock=["6S"], trump_card="6S")
    m.apply(1, "lead:AS")
    before3 = m.view(3)["hand"]
    m.apply(2, "molodka:9C,8C,7C,6C")
    assert m.view(1)["hand"] == ["AS", "KD", "QD", "JD"]  # the lead went back
    assert m.view(3)["hand"] == before3
    assert m.actors() == [3] and m.view(3)["k"] == 4 and m.view(3)["trick"][0]["seat"] == 2


def test_gt8_a_player_who_has_played_cannot_molodka_and_the_leader_uses_lead() -> None:
    m = game({1: ["6C", "7C", "8C", "9C"], 2: ["6H", "7H", "8H", "9H"]}, dealer=0)
    assert "molodka:9C,8C,7C,6C" not in m.legal_actions(1)
    with pytest.raises(IllegalAction, match="lead your four cards with lead:"):
        m.apply(1, "molodka:6C,7C,8C,9C")
    assert "lead:9C,8C,7C,6C" in m.legal_actions(1)
    m.apply(1, "lead:9C")
    with pytest.raises(IllegalAction, match="GT-8"):
        m.apply(1, "molodka:6C,7C,8C,9C")
    # a four-card lead is a molodka too: no other molodka in that trick
    m2 = game({1: ["6C", "7C", "8C", "9C"], 2: ["6H", "7H", "8H", "9H"]}, dealer=0)
    m2.apply(1, "lead:6C,7C,8C,9C")
    with pytest.raises(IllegalAction, match="only one molodka"):
        m2.apply(2, "molodka:6H,7H,8H,9H")


def test_gt9_drawing_one_at_a_time_from_the_winner() -> None:
    stock = ["6D", "7D", "8D", "9D", "JD", "QD", "KD", "TD"]
    m = game({1: ["AS", "6C", "7C", "8C"], 2: ["6H", "9C", "JC", "QC"],
              3: ["7H", "KC", "TC", "AC"], 0: ["8H", "9H", "JH", "QH"]},
             dealer=0, stock=stock, trump_card="6D")
    m.apply(1, "lead:AS")
    m.apply(2, "pass:6H")
    m.apply(3, "pass:7H")
    m.apply(0, "pass:8H")
    # seat 1 won; draws start with seat 1: 6D to 1, 7D to 2, 8D to 3, 9D to 0
    assert "6D" in m.view(1)["hand"] and "7D" in m.view(2)["hand"]
    assert "8D" in m.view(3)["hand"] and "9D" in m.view(0)["hand"]
    assert m.view(0)["stock"] == 16 and m.view(0)["hand_counts"] == [4, 4, 4, 4]
    m.apply(1, "lead:8C,7C")
    m.apply(2, "beat:JC,9C")
    m.apply(3, "beat:AC,KC")
    m.apply(0, "pass:9H,JH")
    # seat 3 won; two rounds of draws in playing order from seat 3: JD 3, QD 0, KD 1, TD 2, ...
    assert "JD" in m.view(3)["hand"] and "QD" in m.view(0)["hand"]
    assert "KD" in m.view(1)["hand"] and "TD" in m.view(2)["hand"]
    assert m.view(0)["stock"] == 8 and m.view(0)["hand_counts"] == [4, 4, 4, 4]


def test_gt10_gt11_game_end_points_and_defeat_over_random_games() -> None:
    rng = random.Random(21)
    kinds = set()
    for _ in range(150):
        m = Goat.new_match({"target": 1000}, rng=rng, deal=False)
        m.deal_from(rng)
        tricks = [0, 0]
        while not m.needs_deal():
            seat = rng.choice(m.actors())
            ev = m.apply(seat, rng.choice(m.legal_actions(seat)))
            for e in ev:
                if e["type"] == "trick":
                    tricks[e["winner"] % 2] += 1
        d = m.summary()["deals"][0]
        assert sum(d["points"]) == 120
        assert d["defeat"] == defeat_points(d["points"], tricks)
        assert d["eggs"] == (d["points"] == [60, 60])
        kinds.add(max(d["defeat"]))
    assert {2, 4} <= kinds


@pytest.mark.parametrize(("points", "tricks", "want"), [
    ((61, 59), (3, 3), [0, 2]), ((59, 61), (3, 3), [2, 0]), ((89, 31), (5, 2), [0, 2]),
    ((90, 30), (5, 2), [0, 4]), ((120, 0), (8, 1), [0, 4]), ((120, 0), (9, 0), [0, 6]),
    ((0, 120), (0, 9), [6, 0]), ((60, 60), (4, 5), [0, 0]),
])
def test_gt11_defeat_point_boundaries(points: tuple[int, int], tricks: tuple[int, int],
                                      want: list[int]) -> None:
    assert defeat_points(points, tricks) == want
    assert defeat_points(points, tricks, doubled=True) == [2 * w for w in want]


def test_gt11_eggs_double_the_next_game_only_with_the_option() -> None:
    found = 0
    for seed in range(3000):
        rng = random.Random(seed)
        rec_opts = {"eggs": "double-next", "target": 1000}
        m = Goat.new_match(rec_opts, rng=rng)
        while len(m.summary()["deals"]) < 3:
            seat = rng.choice(m.actors())
            m.apply(seat, rng.choice(m.legal_actions(seat)))
        d = m.summary()["deals"]
        if d[0]["eggs"] and not d[1]["eggs"]:
            assert max(d[1]["defeat"]) in (4, 8, 12)
            plain_rec = m.record()
            plain_rec["options"] = {"eggs": "none", "target": 1000}
            from taash.record import verify
            assert max(verify(plain_rec)["deals"][1]["defeat"]) in (2, 4, 6)
            found += 1
            if found == 2:
                break
    assert found, "no eggs game found in the seeds tried"


def test_gt12_the_goat_is_the_team_that_reaches_the_target() -> None:
    rng = random.Random(3)
    for target in (1, 5, 12):
        m = Goat.new_match({"target": target}, rng=rng)
        while not m.is_over():
            seat = rng.choice(m.actors())
            m.apply(seat, rng.choice(m.legal_actions(seat)))
        s = m.summary()["match"]
        assert s["over"] and s["defeat"][s["loser"]] >= target
        assert s["defeat"][1 - s["loser"]] < target
        before = [sum(d["defeat"][t] for d in m.summary()["deals"][:-1]) for t in (0, 1)]
        assert before[s["loser"]] < target
        assert m.actors() == [] and all(m.legal_actions(x) == [] for x in range(4))
        with pytest.raises(IllegalAction, match="GT-12"):
            m.apply(0, "lead:6H")


@pytest.mark.parametrize("bad", [{"eggs": "double"}, {"target": 0}, {"target": "12"},
                                 {"target": 12.0}, {"sar": "single"}])
def test_bad_goat_options(bad: Any) -> None:
    with pytest.raises(OptionError):
        Goat.new_match(bad, seed=1)


def test_errors_change_nothing_and_name_the_rule() -> None:
    m = Goat.new_match(seed=12, first_dealer=0)
    seat = m.actors()[0]
    before = (m.record(), [m.view(s) for s in range(4)])
    for bad, rule in [("lead:", "GT-7"), ("play:6H", "GT-7"), ("beat:6H", "GT-7"),
                      ("molodka:6H,7H,8H", "GT-8")]:
        with pytest.raises(IllegalAction) as e:
            m.apply(seat, bad)
        assert e.value.rule == rule
    with pytest.raises(ValueError):
        m.apply(seat, "lead:XX")
    assert (m.record(), [m.view(s) for s in range(4)]) == before


# -- the fast path against plain enumeration (issue 29) --------------------------------------

def _reference_ids(m: Goat, seat: int) -> list[int]:
    """legal_ids by enumerating cards and subsets one by one, in the fast path's order."""
    from taash.games.goat_rules import BEAT, LEAD, MOLODKA, PASS, SHIFT, SUIT_MASK, beats_all

    def subsets(mask: int, k: int) -> list[int]:  # k-card subsets by value, lowest first
        cards = [1 << c for c in range(36) if mask >> c & 1]
        return sorted(sum(c) for c in combinations(cards, k))

    out: list[int] = []
    if m.phase == 1 and seat == m.to_move:
        hand = m.hands[seat]
        if not m.plays:
            for sm in SUIT_MASK:
                part = hand & sm
                for k in range(1, part.bit_count() + 1):
                    out += [LEAD << SHIFT | sub for sub in subsets(part, k)]
        else:
            for sub in subsets(hand, m.k):
                out.append(PASS << SHIFT | sub)
                if beats_all(sub, m.top, m.trump):
                    out.append(BEAT << SHIFT | sub)
    if m.can_molodka(seat):
        out.append(MOLODKA << SHIFT | m.hands[seat])
    return out


@pytest.mark.parametrize("seed", range(30))
def test_legal_ids_are_plain_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    m = Goat.new_match({"target": 1000}, rng=rng)
    for _ in range(600):
        if m.is_over():
            break
        for s in range(4):
            assert m.legal_ids(s) == _reference_ids(m, s)
        actors = m.actors()
        seat = rng.choice(actors)
        ids = m.legal_ids(seat)
        mol = [a for a in ids if a >> 36 == 4]
        m.apply_id(seat, mol[0] if mol and rng.random() < 0.5 else rng.choice(ids))


def test_deal_from_is_random_shuffle_then_choice() -> None:
    """deal_from's own loop over getrandbits deals what rng.shuffle and rng.choice would, and
    leaves the rng where they would; any other rng is asked itself."""
    class Other(random.Random):
        pass

    for seed in range(200):
        for rng, ref in ((random.Random(seed), random.Random(seed)),
                         (Other(seed), Other(seed))):
            m = Goat.new_match(first_dealer=seed % 4, deal=False)
            m.deal_from(rng)
            deck = list(range(36))
            ref.shuffle(deck)
            assert m.deck == deck
            assert m.trump_card == ref.choice(deck[16:])
            assert rng.random() == ref.random()
