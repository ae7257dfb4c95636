"""The PettingZoo adapter passes PettingZoo's API test and plays whole deals by its masks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from taash.interop.pettingzoo import env

GAMES = ["court-piece", "court-piece-2p", "goat"]


@pytest.mark.parametrize("game", GAMES)
def test_api_test(game: str) -> None:
    api_test(env(game), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("game", GAMES)
def test_masked_random_play_to_the_end(game: str) -> None:
    e = env(game, options={"sar": "double"} if game == "court-piece" else None)
    rng = np.random.default_rng(0)
    for seed in range(3):
        e.reset(seed=seed)
        total = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter(max_iter=2000):
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            e.step(int(rng.choice(legal)))
        assert sum(total.values()) == 0 and max(total.values()) > 0


def test_same_seed_same_deal() -> None:
    a, b = env("goat"), env("goat")
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.render_mode is None
    assert np.array_equal(a.observe("player_0")["observation"],
                          b.observe("player_0")["observation"])
