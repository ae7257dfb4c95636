"""The core's trick steps that the solver and the bots call (``beats``, ``playable``) are the
rules the core's own fast path applies inline: held together over random play of every trick
game.  (``collect_step``, the double-sar pile with CP-7a's first trick, is held to the engine
by ``test_core_api.test_collector_follows_the_engine_and_collect_step``.)"""

from __future__ import annotations

import random

import pytest

from taash.cards import card_list
from taash.games import new_match
from taash.games.tricks_play import PLAY, TrickPlay, beats, playable, trick_winner

VARIANTS = [("court-piece", {"sar": "single"}), ("court-piece", {"sar": "double"}),
            ("court-piece", {"sar": "double", "ace_rule": True}), ("court-piece-2p", None)]


@pytest.mark.parametrize(("game", "options"), VARIANTS, ids=["single", "double", "ace", "2p"])
def test_the_steps_the_solver_and_bots_call_are_the_cores(game: str, options: object) -> None:
    tricks = 0
    for seed in range(30):
        m = new_match(game, options, seed=seed)
        assert isinstance(m, TrickPlay)
        rng = random.Random(seed)
        while not m.is_over() and tricks < 10_000:
            if m.needs_deal():
                m.deal_from(rng)
                continue
            seat = m.to_move
            if m.phase == PLAY:
                assert card_list(playable(m.hands[seat], m.trick)) == m.legal_ids(seat)
            played = m.tricks_played
            a = rng.choice(m.legal_ids(seat))
            before = [*m.trick, a] if m.phase == PLAY else []
            m.apply_id(seat, a)
            if m.trick:  # the trick goes on: the best card so far is beats' answer
                i = trick_winner(m.trick, m.trump)
                assert m.best == m.trick[i] and all(
                    not beats(c, m.best, m.trump) for c in m.trick)
            elif len(before) == m.num_seats and m.tricks_played == played + 1:
                tricks += 1
                lead = m.last_trick[0]
                winner = (lead + trick_winner(before, m.trump)) % m.num_seats
                assert m.last_trick[2] == winner
    assert tricks > 100
