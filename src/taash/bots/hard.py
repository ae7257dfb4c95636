"""The hard level: sample the hidden cards consistently with the view, then search each sample.

This is perfect-information Monte Carlo (PIMC; the search itself is ``taash.bots.pimc``):

- **Sampling**: deals consistent with everything the seat has seen (cards played, voids
  shown, Goat's trump card and draws).  In Court Piece they are drawn from the posterior by a
  Markov chain (``taash.bots.infer``): a deal is as likely as the rules of thumb explain the
  other seats' play in it (each play unlike theirs costs a factor ``COURT_EPS``; the caller's
  trump should be its most held suit), so the bot reads hands from the play.  Goat's deals are
  rejection-sampled by the same kind of likelihood (``taash.bots.hard_goat``).
- **Search**: every candidate action (a card, or a trump to call) is applied to a clone of
  each sampled state and played out to the end by the rules of thumb, each seat knowing only
  what it would know, so the playout predicts how such players go on and the search plays for
  their habits rather than against a perfect defence.  (Single sar was searched double dummy
  on each sample until measured against these playouts: the playouts won more deals against
  ``heuristic`` at a fraction of the time; bench/RESULTS.md has the figures, and the solver
  is ``bench/dd.py`` now.)  Racing, common samples and the overrule margin: see
  ``taash.bots.pimc``.
- It calls trumps and decides Goat's molodkas, in turn and out of turn.

This module holds the Court Piece part and ``make_hard_bot``; the budget is counted in work,
not time (``taash.bots.pimc``), so a seeded bot makes the same choices on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from taash.bots import court as cp
from taash.bots.base import Bot, Json, must_move
from taash.bots.hard_goat import EPS as EPS
from taash.bots.hard_goat import HardGoatBot as HardGoatBot
from taash.bots.infer import CourtChain
from taash.bots.pimc import DEFAULT_BUDGET_MS as DEFAULT_BUDGET_MS
from taash.bots.pimc import STEPS_PER_MS as STEPS_PER_MS
from taash.bots.pimc import Search, search
from taash.bots.pimc import choose_best as choose_best
from taash.bots.sampling import CourtInfo, CourtSampler
from taash.cards import SUITS, card_list
from taash.games import CourtPiece, CourtPiece2P, Goat
from taash.games.tricks import ACTION_TEXT, PACK, SUIT_MASK, TRUMP_BASE, TrickMatch
from taash.games.tricks import SUIT_OF as CP_SUIT
from taash.games.tricks_play import playable

# Four-player single sar's default: its deals are close (a side needs 7 of 13 tricks), and more
# samples kept paying there (bench/RESULTS.md, 2026-11-30), while the median move stays a few
# tens of milliseconds (most decisions are settled by racing).
SINGLE_SAR_BUDGET_MS = 600.0
# What one trick of margin is worth beside a win (1): a little, so that among moves that
# win or lose alike the search still prefers more tricks, which is a smoother signal.
MARGIN = 0.1

# Court Piece's posterior chain (``taash.bots.infer``): the likelihood factor of one play
# unlike the rules of thumb, the burn-in (Metropolis steps) of a fresh chain and of one carried
# on from the seat's previous decision, the steps between samples, and what one seat factor
# costs in playout actions (PLAYOUT_PER_FACTOR).
COURT_EPS = 0.05
BURN = 1000
WARM_BURN = 200
THIN = 20
PLAYOUT_PER_FACTOR = 3.0

# The key of a deal a chain was run on: (dealer, caller, trump, the first action).
DealKey = tuple[int, int, int, tuple[tuple[int, int], ...]]


# -- Court Piece ----------------------------------------------------------------------------

def cp_rule_card(st: TrickMatch, played: int, voids: list[int], leads: list[int]) -> int:
    """The card the rules of thumb play for the seat to move in ``st``, knowing only what that
    seat would know (its hand, the cards played, the voids shown, the suits led); a failure to
    follow suit is recorded in ``voids`` as the public would see it."""
    seat = st.to_move
    hand = st.hands[seat]
    trick = st.trick
    legal = playable(hand, trick)  # the core's rule (CP-5, TW-4)
    if trick and not legal & SUIT_MASK[CP_SUIT[trick[0]]]:
        voids[seat] |= 1 << CP_SUIT[trick[0]]  # did not follow: void in the led suit
    if legal & (legal - 1) == 0:
        return int(legal & -legal).bit_length() - 1
    n = st.num_seats
    partner = leads[(seat + 2) % 4] if n == 4 else 0
    double = isinstance(st, CourtPiece) and st.double  # two-player has one sar
    collect = double and st.chain >= 0 and st.chain == st.leader
    k = cp.Knowledge(seat, n, hand, st.trump, trick, st.leader, cp.ALL & ~hand & ~played,
                     voids, partner, collect, double)
    return cp.choose_play(k, legal)


def cp_playout(st: TrickMatch, played: int, voids: list[int], leads: list[int]) -> int:
    """Play a sampled Court Piece deal to its end, every seat by the rules of thumb with only
    what that seat would know (its hand, the cards played, the voids shown), so the playout
    predicts how such players really go on.  ``played``, ``voids`` and ``leads`` (suits each
    seat has led) are the public knowledge at the start; they are updated as play goes on."""
    steps = 0
    voids = voids[:]
    leads = leads[:]
    while st.to_move >= 0:
        seat = st.to_move
        card = cp_rule_card(st, played, voids, leads)
        if not st.trick:
            leads[seat] |= 1 << CP_SUIT[card]
        played |= 1 << card
        st.apply_id(seat, card)
        steps += 1
    return steps


def cp_play_on(st: TrickMatch, card: int, played: int, voids: list[int], leads: list[int]) -> int:
    """Play ``card`` for the seat to move in ``st``, then on to the deal's end by the rules
    of thumb (``cp_playout``).  The card joins the public knowledge the later seats play by
    (cards played, suits led, a void shown), as it would at a real table.  Returns the
    actions taken."""
    seat = st.to_move
    trick = st.trick
    if not trick:
        leads = leads[:]
        leads[seat] |= 1 << CP_SUIT[card]
    elif CP_SUIT[card] != CP_SUIT[trick[0]]:
        voids = voids[:]
        voids[seat] |= 1 << CP_SUIT[trick[0]]
    played |= 1 << card
    st.apply_id(seat, card)
    return 1 + cp_playout(st, played, voids, leads)


def cp_score(st: TrickMatch, team: int) -> float:
    """A finished deal from ``team``'s side: the win, a coat, and a little for the margin."""
    won = st.won
    mine, theirs = won[team], won[1 - team]
    s = 1.0 if mine >= st.win_target else 0.0
    if s and theirs == 0:
        s += 0.25
    elif not s and mine == 0:
        s -= 0.25
    return s + MARGIN * float(mine - theirs)


def public_knowledge(info: CourtInfo) -> tuple[int, list[int], list[int]]:
    """What every seat knows at ``info``'s moment, as the playouts take it: the cards played
    (one mask), the voids shown and the suits each seat has led (bit per suit)."""
    played = 0
    for m in info.played:
        played |= m
    return played, info.voids, court_leads(info.history, info.seats)


def court_leads(history: list[tuple[int, int]], n: int) -> list[int]:
    """The suits each seat has led this deal (bit per suit)."""
    leads = [0] * n
    count = 0
    for s, a in history:
        if a >= TRUMP_BASE:
            continue
        if count % n == 0:
            leads[s] |= 1 << CP_SUIT[a]
        count += 1
    return leads


def cp_candidates(hand_legal: int, unseen: int) -> list[int]:
    """One card per run of equivalent cards: two cards of a suit with no unseen card between
    them win and lose the same tricks, so only the lowest of each run is searched."""
    out = []
    for s in range(4):
        m = hand_legal & SUIT_MASK[s]
        prev = -2
        for c in card_list(m):
            between = unseen & ((1 << c) - 1) & ~((2 << prev) - 1) if prev >= 0 else 1
            if prev < 0 or between:
                out.append(c)
            prev = c
    return out


class HardCourtBot:
    """Both Court Piece games: trump calls and card play, each candidate played out by the
    rules of thumb on posterior samples of the deal.  ``budget_ms`` None: the game's default
    (``SINGLE_SAR_BUDGET_MS`` in four-player single sar, else ``DEFAULT_BUDGET_MS``)."""

    level = "hard"

    def __init__(self, game_id: str, seed: int | None = None,
                 budget_ms: float | None = None) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.budget_ms = None if budget_ms is None else float(budget_ms)
        # Where the posterior chain ended at this seat's last decision, to carry on from.
        self.memory: tuple[DealKey, list[int]] | None = None
        # the last decision's search (None: decided without one), for the deal review
        self.last_search: Search | None = None

    def act(self, view: Mapping[str, Json]) -> str | None:
        self.last_search = None
        legal: list[str] = view.get("legal_actions") or []
        if not legal or not must_move(view):
            return None
        if len(legal) == 1:
            return legal[0]
        seat = int(view["seat"])
        team = seat if view["seats"] == 2 else seat & 1
        trump_phase = view.get("phase") == "trump"
        if trump_phase:
            ids = [TRUMP_BASE + SUITS.index(a.partition(":")[2]) for a in legal]
            prior = TRUMP_BASE + SUITS.index(cp.call_trump(view).partition(":")[2])
        else:
            k = cp.knowledge_from_view(view)
            mask = PACK.mask(a.partition(":")[2] for a in legal)
            prior = cp.choose_play(k, mask)
            ids = cp_candidates(mask, k.unseen)
            if prior not in ids:
                ids.append(prior)
            if len(ids) == 1:
                return ACTION_TEXT[prior]
        sampler = self.sampler_for(view)
        return ACTION_TEXT[self.playout_search(sampler, seat, team, ids, prior, trump_phase)]

    def sampler_for(self, view: Mapping[str, Json]) -> CourtSampler:
        """Where this seat's samples of the hidden cards come from: everything its view
        allows (the arena's cheating policies, ``taash.fairplay.cheats``, narrow it)."""
        return CourtSampler(view)

    def budget_for(self, info: CourtInfo) -> float:
        """This move's budget in milliseconds: the one given, else the game's default."""
        if self.budget_ms is not None:
            return self.budget_ms
        if info.seats == 4 and info.options.get("sar") != "double":
            return SINGLE_SAR_BUDGET_MS
        return DEFAULT_BUDGET_MS

    def playout_search(self, sampler: CourtSampler, seat: int, team: int, ids: list[int],
                       prior: int, trump_phase: bool) -> int:
        """PIMC with rules-of-thumb playouts: the trump call on deals drawn uniformly (nothing
        has been played yet), card play on posterior samples."""
        info = sampler.info
        budget = self.budget_for(info)
        played, voids, leads = public_knowledge(info)
        rng = self.rng

        def evaluate(st: TrickMatch, a: int) -> tuple[float, int]:
            c = st.clone()
            if trump_phase:
                c.apply_id(seat, a)
                steps = cp_playout(c, played, voids, leads)
            else:
                steps = cp_play_on(c, a, played, voids, leads)
            return cp_score(c, team), steps

        # Before any play there is nothing to read: deals are drawn uniformly.
        chain = None if trump_phase else self.chain(sampler)
        spent = [0]

        def sample() -> tuple[TrickMatch, float, float] | None:
            if chain is None:
                hands = sampler.hands(rng)
                return None if hands is None else (sampler.state_for(hands, rng), 1.0, 30.0)
            if not chain.ok:
                return None
            hands = chain.next(rng)
            cost = (chain.work - spent[0]) * PLAYOUT_PER_FACTOR
            spent[0] = chain.work
            return sampler.state_for(hands, rng), 1.0, cost + 30.0

        found = search(ids, prior, sample, evaluate, budget * STEPS_PER_MS[self.game_id],
                       max(4 * budget, 200.0))
        self.last_search = found
        return found.choice

    def last_scores(self) -> dict[str, tuple[float, int]] | None:
        """The last decision's candidates as actions: (mean playout score, samples)."""
        if self.last_search is None:
            return None
        return {ACTION_TEXT[a]: (m, self.last_search.samples[a])
                for a, m in self.last_search.means.items()}

    def chain(self, sampler: CourtSampler) -> CourtChain:
        """A posterior sampler for this decision, started where this seat's last one in the
        same deal ended (so it needs little burn-in), and remembered for the next."""
        info = sampler.info
        key: DealKey = (info.dealer, info.caller, info.trump, tuple(info.history[:1]))
        start = self.memory[1] if self.memory is not None and self.memory[0] == key else None
        chain = CourtChain(sampler, COURT_EPS, self.rng, burn=BURN, thin=THIN, start=start,
                           warm_burn=WARM_BURN)
        if chain.ok:
            self.memory = (key, chain.hands)
        return chain


#: each game's ``hard`` bot, given the game id, a seed and a budget
HARD: dict[str, Callable[[str, int | None, float | None], Bot]] = {
    CourtPiece.game_id: HardCourtBot, CourtPiece2P.game_id: HardCourtBot,
    Goat.game_id: HardGoatBot}


def make_hard_bot(game_id: str, seed: int | None, budget_ms: float | None) -> Bot:
    return HARD[game_id](game_id, seed, budget_ms)
