"""The OpenSpiel adapter passes OpenSpiel's own generic test and its IS-MCTS plays it."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

import numpy as np  # noqa: E402

from taash.interop import openspiel as tos  # noqa: E402
from taash.interop.episode import DECLINE, Episode  # noqa: E402


@pytest.mark.parametrize(("name", "params"), [
    ("python_court_piece", {}),
    ("python_court_piece", {"sar": "double", "ace_rule": True, "trump_rule": "most-held"}),
    ("python_court_piece_2p", {"first_seat": 1}),
    ("python_goat", {"first_seat": 2}),
])
def test_random_sim_test(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_shape() -> None:
    g = pyspiel.load_game("python_goat")
    assert g.num_distinct_actions() == 65 and g.max_chance_outcomes() == 36
    assert g.num_players() == 4
    g2 = pyspiel.load_game("python_court_piece_2p")
    assert g2.num_distinct_actions() == 56 and g2.num_players() == 2


@pytest.mark.parametrize("name", ["python_court_piece", "python_court_piece_2p", "python_goat"])
def test_resample_keeps_the_information_state(name: str) -> None:
    """IS-MCTS keys its nodes by (current player, information state): a resampled state must
    agree on both, and on the legal actions."""
    game = pyspiel.load_game(name)
    checked = 0
    for seed in range(3):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                acts, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(acts, p=probs)))
                continue
            p = state.current_player()
            other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
            assert other.current_player() == p
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.legal_actions() == state.legal_actions()
            checked += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 30


def test_ismcts_bot_plays_a_whole_deal() -> None:
    game = pyspiel.load_game("python_court_piece_2p")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(acts, p=probs)))
        else:
            a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
    assert sum(state.returns()) == 0 and max(state.returns()) in (1, 2, 4)


def test_goat_actions_are_hand_positions() -> None:
    ep = Episode("goat", None, 0)
    deck = list(range(36))
    random.Random(2).shuffle(deck)
    for c in deck:
        ep.apply_chance(c)
    ep.apply_chance(deck[20])
    seat = ep.current_player()
    legal = ep.legal_actions(seat)
    assert legal and all(0 <= a < DECLINE for a in legal)
    core = sorted(ep.state.legal_ids(seat))
    assert sorted(ep.decode(seat, a) for a in legal) == core
    assert all(ep.encode(seat, ep.decode(seat, a)) == a for a in legal)


def test_ismcts_level_answers_a_view() -> None:
    from taash.games import new_match

    m = new_match("court-piece", seed=4, first_seat=0)
    bot = tos.IsmctsBot("court-piece", seed=1, budget_ms=5)
    for _ in range(12):
        s = m.actors()[0]
        view = m.view(s)
        a = bot.act(view)
        assert a in view["legal_actions"]
        m.apply(s, a)
