"""OpenSpiel adapter (extra ``taash[rl]``): each game's single deal as a registered pyspiel game.

Importing this module registers ``python_court_piece``, ``python_court_piece_2p`` and
``python_goat``; load them with ``pyspiel.load_game("python_goat")`` or with parameters,
e.g. ``pyspiel.load_game("python_court_piece", {"sar": "double"})``.  The deal is dealt by
chance nodes, one card each; actions, the Goat molodka window and the returns are described
in ``taash.interop.episode``.  ``resample_from_infostate`` draws the hidden cards with the
hard bot's sampler, so OpenSpiel's ``ISMCTSBot`` can search these games.

``IsmctsBot`` plays OpenSpiel's IS-MCTS behind the taash bot interface (a view in, an action
out), for the arena's ``openspiel-ismcts`` level.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
from open_spiel.python.algorithms import (  # type: ignore[import-not-found,import-untyped,unused-ignore]
    ismcts,
    mcts,
)

from taash.bots.base import Json, must_move
from taash.bots.hard import DEFAULT_BUDGET_MS
from taash.bots.sampling import CourtSampler
from taash.bots.sampling_goat import GoatSampler
from taash.games import CLASSES, CourtPiece, CourtPiece2P, Goat, game_class
from taash.interop.episode import (
    CHANCE,
    MAX_CHANCE,
    MAX_LENGTH,
    NUM_ACTIONS,
    TERMINAL,
    UTILITY,
    Episode,
)
from taash.interop.observe import observation_size, observation_vector

SHORT_NAMES = {g: "python_" + g.replace("-", "_") for g in CLASSES}
# Game parameters: the deal's options (only those that matter within one deal, as plain
# scalars; Court Piece's alone have any) and the first seat (the class's seat_word: dealer,
# or caller in two-player Court Piece).
DEAL_OPTIONS: dict[str, dict[str, Any]] = {
    CourtPiece.game_id: {"sar": "single", "ace_rule": False, "trump_rule": "free"}}
PARAMS: dict[str, dict[str, Any]] = {g: {**DEAL_OPTIONS.get(g, {}), "first_seat": 0}
                                     for g in CLASSES}
NAMES = {g: cls.name for g, cls in CLASSES.items()} | {Goat.game_id: "Goat (Kozel)"}


def _game_type(game_id: str) -> Any:
    n = game_class(game_id).num_seats
    return pyspiel.GameType(
        short_name=SHORT_NAMES[game_id], long_name=f"taash {NAMES[game_id]} (one deal)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n, min_num_players=n,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=PARAMS[game_id])


def _game_info(game_id: str) -> Any:
    n = game_class(game_id).num_seats
    u = UTILITY[game_id]
    return pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS[game_id],
                            max_chance_outcomes=MAX_CHANCE[game_id], num_players=n,
                            min_utility=-u, max_utility=u, utility_sum=0.0,
                            max_game_length=MAX_LENGTH[game_id])


class TaashGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a taash game; subclasses name the game."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        gid = self.game_id
        super().__init__(_game_type(gid), _game_info(gid), params or {})
        p = {**PARAMS[gid], **(params or {})}
        self.first_seat = int(p.pop("first_seat"))
        self.options = p

    def new_initial_state(self) -> TaashState:
        return TaashState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.game_id, perfect)


class CourtPieceGame(TaashGame):
    game_id = CourtPiece.game_id


class CourtPiece2PGame(TaashGame):
    game_id = CourtPiece2P.game_id


class GoatGame(TaashGame):
    game_id = Goat.game_id


class TaashState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an ``Episode``."""

    def __init__(self, game: TaashGame, episode: Episode | None = None) -> None:
        super().__init__(game)
        self.tgame = game
        self.ep = episode or Episode(game.game_id, game.options, game.first_seat)

    def current_player(self) -> int:
        p = self.ep.current_player()
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return p

    def _legal_actions(self, player: int) -> list[int]:
        return self.ep.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.ep.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.ep.is_chance():
            self.ep.apply_chance(int(action))
        else:
            self.ep.apply(self.ep.current_player(), int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player < 0:
            return "deal:" + str(self.ep.pack.code(int(action)))
        return str(self.ep.action_text(player, int(action)))

    def is_terminal(self) -> bool:
        return self.ep.is_terminal()

    def returns(self) -> list[float]:
        return self.ep.returns()

    def __str__(self) -> str:
        ep = self.ep
        if ep.state is None:
            return "dealing " + " ".join(ep.pack.code(c) for c in ep.deck)
        st = ep.state
        hands = " / ".join(",".join(ep.pack.codes(h)) for h in st.hands)
        return f"{ep.game_id} hands {hands} | history {ep.history} | declined {ep.declined}"

    def __deepcopy__(self, memo: Any) -> TaashState:
        return TaashState(self.tgame, self.ep.clone())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TaashState:
        """A state ``player_id`` cannot tell from this one, its hidden cards drawn at random
        (the sampler is seeded from ``probability_sampler`` so OpenSpiel controls chance)."""
        rng = random.Random(int(probability_sampler() * 2**52))
        ep = resample(self.ep, player_id, rng)
        return TaashState(self.tgame, ep)


def resample(ep: Episode, seat: int, rng: random.Random) -> Episode:
    """An episode consistent with everything ``seat`` has seen in ``ep``."""
    if ep.state is None or ep.is_terminal():
        return ep.clone()
    view = ep.state.view(seat)
    decisions = [(s, a) for s, a in ep.history]
    if ep.cls.plays_card_sets:  # Goat's sampler replays its plays of card sets
        gs = GoatSampler(view)
        got = gs.sample_deck(rng, {p: ep.deck[p] for p in gs.own_positions()})
        if got is None:
            return ep.clone()
        deck, ids = got
        it = iter(ids)
        decisions = [(s, a if a < 0 else next(it)) for s, a in ep.history]
        new = Episode.from_deal(ep.game_id, ep.options, ep.first_seat, deck, ep.trump_card,
                                decisions)
        # Another seat may hold a molodka in the sample: it is taken to have let this moment
        # pass, so that the same seat is asked here as in the real state.
        new.declined = ep.declined | (((1 << ep.n) - 1) & ~(1 << seat))
        return new
    cs = CourtSampler(view)
    cdeck = cs.sample_deck(rng, {p: ep.deck[p] for p in cs.own_positions()})
    if cdeck is None:
        return ep.clone()
    return Episode.from_deal(ep.game_id, ep.options, ep.first_seat, cdeck, -1, decisions)


class Observer:
    """OpenSpiel's Python observer: strings for both kinds, a tensor for observations."""

    def __init__(self, game_id: str, perfect_recall: bool) -> None:
        self.game_id = game_id
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else observation_size(game_id)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TaashState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = observation_vector(state.ep, player)

    def string_from(self, state: TaashState, player: int) -> str:
        if self.perfect_recall:
            return state.ep.info_string(player)
        return state.ep.observation_string(player)


for _cls in (CourtPieceGame, CourtPiece2PGame, GoatGame):
    pyspiel.register_game(_game_type(_cls.game_id), _cls)


def load(game_id: str, options: dict[str, object] | None = None, first_seat: int = 0) -> Any:
    """The pyspiel game of one deal of ``game_id`` with taash options."""
    params: dict[str, Any] = {"first_seat": first_seat}
    for k, v in (options or {}).items():
        if k in PARAMS[game_id]:
            params[k] = v
    return pyspiel.load_game(SHORT_NAMES[game_id], params)


# -- the arena's openspiel-ismcts level ----------------------------------------------------

class IsmctsBot:
    """OpenSpiel's IS-MCTS (random rollouts, UCT) behind the bot interface.

    Its budget is time: it runs simulations until ``budget_ms`` has passed (the hard bot's
    budget, so the two are compared at equal time per move).  Each move it rebuilds an OpenSpiel
    state from the view (one consistent sample; IS-MCTS resamples per simulation anyway)."""

    level = "openspiel-ismcts"

    def __init__(self, game_id: str, seed: int | None = None,
                 budget_ms: float | None = None, uct_c: float = 2.0) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(self.rng.getrandbits(31))
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else float(budget_ms)
        self.uct_c = uct_c
        self.sims_per_ms = 0.5  # learnt from the moves so far

    def act(self, view: Mapping[str, Json]) -> str | None:
        legal: list[str] = view.get("legal_actions") or []
        if not legal or not must_move(view):
            return None  # out of turn (Goat's molodka) it never acts
        if len(legal) == 1:
            return legal[0]
        seat = int(view["seat"])
        ep = episode_from_view(view, self.rng)
        if ep is None:
            return self.rng.choice(legal)
        # Other molodka holders are taken to have declined, so the seat itself is asked.
        for s in range(ep.n):
            if s != seat:
                ep.declined |= 1 << s
        first = int(view[game_class(self.game_id).seat_word])
        game = load(self.game_id, view["options"], first)
        state = TaashState(game, ep)
        sims = max(8, int(self.sims_per_ms * self.budget_ms))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.np_rng)
        bot = ismcts.ISMCTSBot(game, evaluator, self.uct_c, sims, random_state=self.np_rng)
        t0 = time.perf_counter()
        action = int(bot.step(state))
        ms = (time.perf_counter() - t0) * 1000
        self.sims_per_ms = 0.7 * self.sims_per_ms + 0.3 * (sims / max(ms, 1e-3))
        return ep.action_text(seat, action)


def episode_from_view(view: Mapping[str, Json], rng: random.Random) -> Episode | None:
    """An episode at the view's moment, its hidden cards one consistent sample."""
    game_id = str(view["game"])
    cls = game_class(game_id)
    first = int(view[cls.seat_word])
    if cls.plays_card_sets:
        sampler = GoatSampler(view)
        got = sampler.sample_deck(rng)
        if got is None:
            return None
        deck, ids = got
        return Episode.from_deal(game_id, view["options"], sampler.dealer, deck,
                                 sampler.trump_card, [(p.seat, a) for p, a in
                                                      zip(sampler.plays, ids, strict=True)])
    cs = CourtSampler(view)
    cdeck = cs.sample_deck(rng)
    if cdeck is None:
        return None
    return Episode.from_deal(game_id, view["options"], first, cdeck, -1, cs.info.history)
