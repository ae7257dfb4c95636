"""Sampled deals are indistinguishable from the real one to the seat that samples them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from taash.bots.sampling import CourtSampler, GoatSampler
from taash.games import get_game
from taash.games.goat import is_molodka

MATCH_LEVEL = ("deal_number", "deals", "match", "over", "dealer")


def random_positions(game: str, options: Any, seed: int, count: int) -> list[Any]:
    """States at random moments of random deals (random actors, so molodkas happen)."""
    cls = get_game(game)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        m = cls.new_match(options, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 70)):
            if m.needs_deal() or m.is_over():
                break
            s = rng.choice(m.actors())
            m.apply_id(s, rng.choice(m.legal_ids(s)))
        if not (m.needs_deal() or m.is_over()):
            out.append(m)
    return out


def deal_view(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in MATCH_LEVEL}


@pytest.mark.parametrize(("game", "options"), [
    ("court-piece", None), ("court-piece", {"sar": "double", "ace_rule": True}),
    ("court-piece-2p", None), ("goat", None)])
def test_samples_look_the_same_to_the_seat(game: str, options: Any) -> None:
    rng = random.Random(5)
    for m in random_positions(game, options, 1, 25):
        for seat in range(m.num_seats):
            view = m.view(seat)
            sampler = GoatSampler(view) if game == "goat" else CourtSampler(view)
            for _ in range(3):  # the first sample replays, later ones may take a shortcut
                st = sampler.sample(rng)
                assert st is not None
                assert deal_view(st.view(seat)) == deal_view(view)
                assert [h.bit_count() for h in st.hands] == [h.bit_count() for h in m.hands]
                play_out(st, rng)


def play_out(st: Any, rng: random.Random) -> None:
    """A sampled state is a sound deal: it plays to its end with every card accounted for."""
    st = st.clone()
    for _ in range(500):
        if st.needs_deal() or st.is_over():
            return
        s = rng.choice(st.actors())
        legal = st.legal_ids(s)
        assert legal
        st.apply_id(s, rng.choice(legal))
    raise AssertionError("the sampled deal did not end")


def test_court_samples_respect_shown_voids() -> None:
    rng = random.Random(2)
    checked = 0
    for m in random_positions("court-piece", None, 3, 40):
        for seat in range(4):
            sampler = CourtSampler(m.view(seat))
            voids = sampler.info.voids
            for _ in range(3):
                st = sampler.sample(rng)
                for s in range(4):
                    for suit in range(4):
                        if voids[s] >> suit & 1:
                            assert not st.hands[s] & (0x1FFF << (13 * suit))
                            checked += 1
    assert checked > 50


def test_goat_trump_card_never_dealt_to_a_hand() -> None:
    """GT-4: the shown card is in the stock, so no sample deals it among the first 16."""
    rng = random.Random(4)
    for m in random_positions("goat", None, 9, 25):
        for seat in range(4):
            got = GoatSampler(m.view(seat)).sample_deck(rng)
            assert got is not None
            deck, _ = got
            assert m.trump_card in deck[16:]
            assert sorted(deck) == list(range(36))


def test_goat_molodka_positions_sample() -> None:
    rng = random.Random(6)
    found = 0
    for m in random_positions("goat", None, 11, 400):
        if not any(is_molodka(h) for h in m.hands) and not m.molodka_done:
            continue
        found += 1
        for seat in range(4):
            for _ in range(3):
                st = GoatSampler(m.view(seat)).sample(rng)
                assert st is not None
                assert deal_view(st.view(seat)) == deal_view(m.view(seat))
                assert [h.bit_count() for h in st.hands] == [h.bit_count() for h in m.hands]
                play_out(st, rng)
    assert found > 5
