"""PettingZoo adapter (extra ``taash[rl]``): one deal of each game as an AEC environment.

>>> env = raw_env("court-piece")
>>> env.reset(seed=1)
>>> obs = env.observe(env.agent_selection)
>>> int(obs["action_mask"].sum()) > 0
True

Agents are ``player_0`` .. ``player_{n-1}`` (the seats).  The deal is shuffled from the reset
seed.  Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; the
mask is all zeros except for the agent asked now.  Actions and rewards are those of
``taash.interop.episode`` (rewards only at the end of the deal, zero-sum).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-not-found,import-untyped,unused-ignore]

from taash.games import CLASSES
from taash.interop.episode import NUM_ACTIONS, Episode
from taash.interop.observe import observation_size, observation_vector

ENV_NAMES = {g: f"taash_{g.replace('-', '_')}_v0" for g in CLASSES}


class raw_env(AECEnv):  # type: ignore[misc]  # (PettingZoo names its classes so)
    """One deal of ``game_id`` (options as in the core; ``first_seat`` deals, or calls in
    two-player Court Piece)."""


    def __init__(self, game_id: str = "court-piece", options: object = None, first_seat: int = 0,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.options = options
        self.first_seat = first_seat
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi"], "name": ENV_NAMES[game_id],
                         "is_parallelizable": False}
        probe = Episode(game_id, options, first_seat)  # checks the game and options now
        self.n = probe.n
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.agents = self.possible_agents[:]
        size = observation_size(game_id)
        na = NUM_ACTIONS[game_id]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (na,), np.int8),
        })
        self._act_space = spaces.Discrete(na)
        self.ep = probe

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rng = random.Random(seed)
        ep = Episode(self.game_id, self.options, self.first_seat)
        deck = list(range(ep.pack.size))
        rng.shuffle(deck)
        for c in deck:
            ep.apply_chance(c)
        if ep.is_chance():  # Goat: the shown trump card
            ep.apply_chance(rng.choice([deck[p] for p in ep.stock_slots]))
        self.ep = ep
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[ep.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        obs = np.asarray(observation_vector(self.ep, seat), dtype=np.float32)
        mask = np.zeros(NUM_ACTIONS[self.game_id], np.int8)
        for a in self.ep.legal_actions(seat):
            mask[a] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        legal = self.ep.legal_actions(seat)
        if action is None or int(action) not in legal:
            raise ValueError(f"illegal action {action!r} for {agent}: legal are {legal}")
        self._cumulative_rewards[agent] = 0.0
        self.ep.apply(seat, int(action))
        if self.ep.is_terminal():
            returns = self.ep.returns()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
            self.agent_selection = self.possible_agents[(seat + 1) % self.n]
        else:
            self.agent_selection = self.possible_agents[self.ep.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        st = self.ep.state
        return "\n".join(f"player_{s}: {' '.join(self.ep.pack.codes(h))}"
                         for s, h in enumerate(st.hands))

    def close(self) -> None:
        pass


def env(game_id: str = "court-piece", **kwargs: Any) -> raw_env:
    """The environment (PettingZoo's usual entry point)."""
    return raw_env(game_id, **kwargs)
