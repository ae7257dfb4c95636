"""Properties over many random matches of every game and option (Hypothesis).

- cards are conserved; a record replays to the same summary;
- legal actions are exactly those `apply` accepts, and a refused action changes nothing;
- no view ever holds a card of another player's hand, another player's face-down pass, the
  stock order or the out-of-play cards.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taash.games import get_game
from taash.games.base import IllegalAction, MalformedAction
from taash.record import verify
from tests.games.helpers import cards_in, random_states

CASES = [
    ("court-piece", {"sar": "single"}),
    ("court-piece", {"sar": "double", "ace_rule": False}),
    ("court-piece", {"sar": "double", "ace_rule": True, "trump_rule": "most-held"}),
    ("court-piece-2p", None),
    ("goat", None),
    ("goat", {"eggs": "double-next", "target": 4}),
]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
case_st = st.sampled_from(CASES)
seed_st = st.integers(0, 2**32 - 1)


def deal_actions(state: Any) -> tuple[list[str], list[dict[str, Any]]]:
    rec = state.record()
    if not rec["deals"]:
        return [], []
    last = rec["deals"][-1]
    return last["deck"], last["actions"]


def shown_face_up(actions: list[dict[str, Any]]) -> set[str]:
    out: set[str] = set()
    for a in actions:
        verb, _, arg = a["action"].partition(":")
        if verb != "pass" and verb != "trump":
            out |= set(arg.split(","))
    return out


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """Cards that ``seat`` (None: a spectator) must not see now."""
    if state.needs_deal() or state.is_over():
        return set()
    deck, actions = deal_actions(state)
    shown = shown_face_up(actions)
    n = state.num_seats
    hidden: set[str] = set()
    pack = state.pack()
    if state.game_id == "goat":
        shown.add(pack.code(state.trump_card))
    for s in range(n):
        if s != seat:
            hidden |= set(pack.codes(state.hands[s])) - shown
    for a in actions:
        verb, _, arg = a["action"].partition(":")
        if verb == "pass" and a["seat"] != seat:
            hidden |= set(arg.split(",")) - shown
    if state.game_id == "goat":
        # the shown trump card is public (GT-4), wherever it is now
        hidden |= set(deck[state.stock_pos:])
        hidden.discard(pack.code(state.trump_card))  # even in someone's hand
    elif state.game_id == "court-piece-2p":
        hidden |= set(deck[26:]) | (set(deck[10:26]) if state.trump < 0 else set())
    elif state.trump < 0:
        hidden |= set(deck[20:])
    return hidden


@pytest.mark.slow
@FAST
@given(case_st, seed_st)
def test_no_view_shows_a_hidden_card(case: tuple[str, Any], seed: int) -> None:
    game, options = case
    for state in random_states(game, options, seed, deals=2):
        for seat in [*range(state.num_seats), None]:
            v = state.public_view() if seat is None else state.view(seat)
            json.dumps(v)
            # finished games' summaries name their own (public) trump cards
            v = {**v, "deals": v["deals"][-1:]}
            leak = cards_in(v) & hidden_from(state, seat)
            assert not leak, (seat, leak)


@FAST
@given(case_st, seed_st)
def test_cards_are_conserved(case: tuple[str, Any], seed: int) -> None:
    game, options = case
    for state in random_states(game, options, seed, deals=2):
        if state.needs_deal() or state.is_over():
            continue
        deck, actions = deal_actions(state)
        if game == "goat":
            parts = [state.hands[s] for s in range(4)] + [state.taken[0], state.taken[1]]
            parts += [m for _, _, m in state.plays]
            stock = 0
            for c in state.deck[state.stock_pos:]:
                stock |= 1 << c
            parts.append(stock)
            total = 0
            for p in parts:
                assert not total & p
                total |= p
            assert total == state.pack().all_mask
        else:
            held = [c for s in range(state.num_seats) for c in state.pack().codes(state.hands[s])]
            played = [a["action"][5:] for a in actions if a["action"].startswith("play:")]
            assert len(held) + len(played) == len(set(held) | set(played))
            dealt = {"court-piece": 52 if state.trump >= 0 else 20,
                     "court-piece-2p": 26 if state.trump >= 0 else 10}[game]
            assert sorted(held + played) == sorted(deck[:dealt])


@FAST
@given(case_st, seed_st)
def test_a_record_replays_to_the_same_summary(case: tuple[str, Any], seed: int) -> None:
    game, options = case
    state = list(random_states(game, options, seed, deals=3))[-1]
    rec = json.loads(json.dumps(state.record()))
    summary = state.summary()  # verify adds each deal's "fair": null (no fair deals here)
    summary["deals"] = [{**d, "fair": None} for d in summary["deals"]]
    assert verify(rec) == summary
    assert verify(json.dumps(rec)) == json.loads(json.dumps(summary))


def candidates(state: Any, seat: int, rng: random.Random) -> list[str]:
    pack = state.pack()
    if state.game_id == "goat":
        hand = pack.codes(state.hands[seat])
        out = []
        for k in range(1, len(hand) + 1):
            for c in combinations(hand, k):
                out += [f"{v}:{','.join(c)}" for v in ("lead", "beat", "pass", "molodka")]
        others = [c for c in pack.full_deck() if c not in hand]
        out += [f"{v}:{','.join(rng.sample(others, 2))}" for v in ("lead", "beat", "pass")]
        out += ["play:" + hand[0] if hand else "play:6H", "lead:6H,6H"]
        return out
    return ([f"play:{c}" for c in pack.full_deck()] + [f"trump:{s}" for s in "SHDC"]
            + ["lead:AS", "play:AS,KS", "trump:X", "noverb"])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case_st, seed_st)
def test_legal_actions_are_exactly_what_apply_accepts(case: tuple[str, Any], seed: int) -> None:
    game, options = case
    rng = random.Random(seed)
    for i, state in enumerate(random_states(game, options, seed, deals=1, max_steps=60)):
        if i % 7:
            continue
        for seat in range(state.num_seats):
            legal = set(state.legal_actions(seat))
            assert legal == {state.action_text(a) for a in state.legal_ids(seat)}
            assert bool(legal) == (seat in state.actors())
            for text in candidates(state, seat, rng):
                probe = state.clone()
                before = probe.record()
                try:
                    probe.apply(seat, text)
                    accepted = True
                except (IllegalAction, MalformedAction):
                    accepted = False
                    assert probe.record() == before
                canonical = None
                if accepted:
                    canonical = probe.record()["deals"][-1]["actions"][-1]["action"] \
                        if probe.record()["deals"][-1]["actions"] else None
                assert accepted == (canonical in legal), (seat, text, sorted(legal))


def test_same_seed_same_match() -> None:
    for game, options in CASES:
        cls = get_game(game)
        a = cls.new_match(options, seed=99)
        b = cls.new_match(options, seed=99)
        assert a.record() == b.record() and a.view(0) == b.view(0)


def test_a_clone_that_keeps_its_rng_deals_on_like_the_original() -> None:
    for game, options in CASES:
        a = get_game(game).new_match(options, seed=5)
        b = a.clone(keep_rng=True)
        c = a.clone()
        rng = random.Random(1)
        while len(a.summary()["deals"]) < 3 and not a.is_over():
            seat = a.turn()
            assert seat is not None and seat in a.actors()
            act = rng.choice(a.legal_actions(seat))
            a.apply(seat, act)
            b.apply(seat, act)
            if not c.needs_deal():
                c.apply(seat, act)
        assert a.record() == b.record()
        assert c.needs_deal() and len(c.summary()["deals"]) == 1
        assert c.turn() is None


def test_a_match_clones_before_its_first_deal() -> None:
    for game, options in CASES:
        m = get_game(game).new_match(options, seed=1, deal=False)
        c = m.clone()
        assert c.needs_deal() and c.turn() is None and c.actors() == []
        c.deal_from(random.Random(2))
        assert m.needs_deal() and c.turn() is not None
