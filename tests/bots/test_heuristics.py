"""The rules of thumb, checked on every matching position of real deals played by bots."""

from __future__ import annotations

from taash.bots import make_bot, trump_hint
from taash.bots.court import knowledge_from_view
from taash.games.goat import PACK as GOAT_PACK
from taash.games.goat import POINTS
from taash.games.tricks import PACK
from tests.bots.helpers import bot_positions

RANKS = "23456789TJQKA"


def rank(code: str) -> int:
    return RANKS.index(code[0])


def unseen_higher(view: dict, card: str) -> bool:
    """Is any card of ``card``'s suit above it neither played nor in this hand?"""
    played = {h["action"][5:] for h in view["history"] if h["action"].startswith("play:")}
    suit = card[1]
    for r in RANKS[rank(card) + 1:]:
        c = r + suit
        if c not in played and c not in view["hand"]:
            return True
    return False


def winning(view: dict) -> tuple[int, str]:
    """(seat, card) now winning the trick in a Court Piece view."""
    trump = view["trump"]
    best = view["trick"][0]
    for t in view["trick"][1:]:
        c, b = t["card"], best["card"]
        if (c[1] == b[1] and rank(c) > rank(b)) or (c[1] == trump and b[1] != trump):
            best = t
    return best["seat"], best["card"]


def test_trump_call_follows_most_held_advice() -> None:
    calls = 0
    for seed in range(40):
        for game in ("court-piece", "court-piece-2p"):
            for _, seat, view in bot_positions(game, None, seed, ["random"]):
                if view["phase"] != "trump" or seat != view["to_move"]:
                    continue
                hint = trump_hint(game, view["hand"])
                if "trump_hint" in view:
                    assert set(hint) == set(view["trump_hint"])  # the core's own hint
                for level in ("easy", "hard"):
                    action = make_bot(game, level, seed=seed, budget_ms=2).act(view)
                    if level == "easy":
                        assert action == "trump:" + hint[0]
                    assert action in view["legal_actions"]
                calls += 1
                break
    assert calls == 80


def test_does_not_overtake_a_partner_who_is_winning() -> None:
    """With the partner winning by the highest card still out and the seat able to follow
    higher, the easy bot follows with its lowest card of the suit instead."""
    seen = 0
    for seed in range(120):
        for _, seat, view in bot_positions("court-piece", None, seed, ["easy", "random"]):
            if view["phase"] != "play" or len(view["trick"]) not in (2, 3):
                continue
            who, card = winning(view)
            led = view["trick"][0]["card"][1]
            mine = [c for c in view["hand"] if c[1] == led]
            if who != (seat + 2) % 4 or card[1] != led or not mine:
                continue
            if unseen_higher(view, card) and len(view["trick"]) == 2:
                continue  # not safe against the last player: the bot may cover
            if not any(rank(c) > rank(card) for c in mine):
                continue
            action = make_bot("court-piece", "easy", seed=1).act(view)
            assert action == "play:" + min(mine, key=rank), (view, action)
            seen += 1
    assert seen >= 5


def test_wins_cheaply_when_last() -> None:
    """Last to play, an opponent winning with the led suit and no trump in the trick: the
    easy bot takes the trick with its lowest card that wins it."""
    seen = 0
    for seed in range(60):
        for _, seat, view in bot_positions("court-piece", None, seed, ["random"]):
            if view["phase"] != "play" or len(view["trick"]) != 3:
                continue
            who, card = winning(view)
            led = view["trick"][0]["card"][1]
            if who == (seat + 2) % 4 or card[1] != led:
                continue
            winners = [c for c in view["hand"] if c[1] == led and rank(c) > rank(card)]
            if not winners:
                continue
            action = make_bot("court-piece", "easy", seed=1).act(view)
            assert action == "play:" + min(winners, key=rank)
            seen += 1
    assert seen >= 10


def test_keeps_trumps_when_partner_wins() -> None:
    """Unable to follow while the partner wins the trick as the last card is played, the
    easy bot throws a side card rather than a trump (trumps are kept for when they count)."""
    seen = 0
    for seed in range(150):
        for _, seat, view in bot_positions("court-piece", None, seed, ["random"]):
            if view["phase"] != "play" or len(view["trick"]) != 3:
                continue
            led = view["trick"][0]["card"][1]
            who, _ = winning(view)
            trump = view["trump"]
            side = [c for c in view["hand"] if c[1] != trump]
            if who != (seat + 2) % 4 or any(c[1] == led for c in view["hand"]) or not side:
                continue
            action = make_bot("court-piece", "easy", seed=1).act(view)
            assert action[5:] in side
            seen += 1
    assert seen >= 3


def goat_points(codes: list[str]) -> int:
    return sum(POINTS[GOAT_PACK.index(c)] for c in codes)


def test_goat_passes_cheapest_cards_to_opponents() -> None:
    """When the easy bot passes under an opponent's cards, it gives away the fewest points
    any legal pass could."""
    seen = 0
    for seed in range(40):
        for _, seat, view in bot_positions("goat", None, seed, ["random"]):
            if seat != view["to_move"] or not view["trick"]:
                continue
            if view["top_seat"] % 2 == seat % 2:
                continue
            action = make_bot("goat", "easy", seed=1).act(view)
            assert action is not None and action in view["legal_actions"]
            if not action.startswith("pass:"):
                continue
            least = min(goat_points(a[5:].split(",")) for a in view["legal_actions"]
                        if a.startswith("pass:"))
            assert goat_points(action[5:].split(",")) == least
            seen += 1
    assert seen >= 20


def test_goat_beats_with_least_points_when_last() -> None:
    """Last to answer an opponent's cards, if the easy bot beats, no other beat made of
    non-trumps would have spent fewer points."""
    seen = 0
    for seed in range(40):
        for _, seat, view in bot_positions("goat", None, seed, ["random"]):
            if seat != view["to_move"] or len(view["trick"]) != 3:
                continue
            if view["top_seat"] % 2 == seat % 2:
                continue
            action = make_bot("goat", "easy", seed=1).act(view)
            assert action is not None
            if not action.startswith("beat:"):
                continue
            trump = view["trump"]
            mine = action[5:].split(",")
            if any(c[1] == trump for c in mine):
                continue
            beats = [a[5:].split(",") for a in view["legal_actions"] if a.startswith("beat:")]
            plain = [b for b in beats if not any(c[1] == trump for c in b)]
            assert goat_points(mine) <= min(goat_points(b) for b in plain) or \
                GOAT_PACK.mask(mine) in {GOAT_PACK.mask(b) for b in plain}
            seen += 1
    assert seen >= 5


def test_goat_molodka_is_played_against_opponents() -> None:
    """A seat that may play a molodka out of turn plays it when an opponent holds the trick."""
    seen = 0
    for seed in range(300):
        for _, seat, view in bot_positions("goat", None, seed, ["random"]):
            if seat == view["to_move"] or not view["can_molodka"] or not view["trick"]:
                continue
            action = make_bot("goat", "easy", seed=1).act(view)
            if view["top_seat"] % 2 != seat % 2:
                assert action is not None and action.startswith("molodka:")
                seen += 1
            else:
                assert action is None  # the partner holds it: keep the molodka for later
        if seen >= 3:
            break
    assert seen >= 1


def test_trump_hint_for_uis() -> None:
    for seed in range(30):
        import random

        rng = random.Random(seed)
        five = rng.sample(PACK.full_deck(), 5)
        hint = trump_hint("court-piece", five)
        counts = {s: sum(c[1] == s for c in five) for s in "SHDC"}
        top = max(counts.values())
        assert set(hint) == {s for s in "SHDC" if counts[s] == top}


def test_double_sar_returns_the_partners_suit_when_not_collecting() -> None:
    """Double sar, leading without a chain to collect: low in a suit the partner has led
    (side suits only), as the rules of thumb do in single sar."""
    seen = 0
    for seed in range(40):
        for _, seat, view in bot_positions("court-piece", {"sar": "double"}, seed, ["random"]):
            if view["phase"] != "play" or view["trick"] or seat != view["to_move"]:
                continue
            if knowledge_from_view(view).collect:
                continue  # holding the chain, it plays to collect instead
            partner = (seat + 2) % 4
            plays = [h for h in view["history"] if h["action"].startswith("play:")]
            led = {h["action"][6] for i, h in enumerate(plays) if i % 4 == 0
                   and h["seat"] == partner} - {view["trump"]}
            mine = [c for c in view["hand"] if c[1] in led]
            if not mine:
                continue
            action = make_bot("court-piece", "easy").act(view)
            assert action is not None
            card = action[5:]
            assert card[1] in led
            assert rank(card) == min(rank(c) for c in view["hand"] if c[1] == card[1])
            seen += 1
    assert seen >= 10
