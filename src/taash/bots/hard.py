"""The hard level: sample the hidden cards consistently with the view, then search each sample.

This is perfect-information Monte Carlo (PIMC):

- **Sampling**: deals consistent with everything the seat has seen (cards played, voids
  shown, Goat's trump card and draws).  In Court Piece they are drawn from the posterior by a
  Markov chain (``taash.bots.infer``): a deal is as likely as the rules of thumb explain the
  other seats' play in it (each play unlike theirs costs a factor ``COURT_EPS``; the caller's
  trump should be its most held suit), so the bot reads hands from the play.  In Goat deals
  are *rejection-sampled* by the same kind of likelihood (``EPS``).
- **Search**: every candidate action (a card, or a trump to call) is applied to a clone of
  each sampled state and played out to the end by the rules of thumb, each seat knowing only
  what it would know, so the playout predicts how such players go on and the search plays for
  their habits rather than against a perfect defence.  (Single sar was searched double dummy
  on each sample, with ``taash.bots.dd``, until measured against these playouts at a bigger
  budget: the playouts won more deals against ``heuristic`` in the same arena, at a tenth of
  the median time; the README gives the figures.)  The same samples serve every candidate
  (common random numbers); candidates clearly behind are dropped as samples come in (racing).
  The rules-of-thumb choice stands unless another is better by a clear paired margin
  (``Z_OVERRULE`` standard errors): a noisy argmax is worse than the rules.
- It calls trumps and decides Goat's molodkas, in turn and out of turn (molodka now against
  letting play go on).

The budget is counted in work (actions applied in playouts, likelihood factors),
converted from milliseconds by rates measured on one core, so a seeded bot makes the same
choices on any machine; a wall-clock cap (``cap_ms``: four times the budget, at least 200 ms)
only guards against a machine far slower than the reference.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from taash.bots import court as cp
from taash.bots import goat as gt
from taash.bots.base import Bot, Json, must_move
from taash.bots.infer import CourtChain
from taash.bots.sampling import CourtInfo, CourtSampler, GoatSampler
from taash.cards import SUITS, card_list
from taash.games import get_game
from taash.games.goat import CARDS, MOLODKA, PASS, SHIFT, defeat_points
from taash.games.goat import CODES as GOAT_CODES
from taash.games.goat import points as goat_points
from taash.games.tricks import ACTION_TEXT, PACK, SUIT_MASK, TRUMP_BASE
from taash.games.tricks import SUIT_OF as CP_SUIT

DEFAULT_BUDGET_MS = 200.0
# Four-player single sar's default: its deals are close (a side needs 7 of 13 tricks), and more
# samples kept paying there (seed 1: 62.5% at 200 ms, 64.0% at 600 ms against heuristic), while
# the median move stays a few tens of milliseconds (most decisions are settled by racing).
SINGLE_SAR_BUDGET_MS = 600.0
# Playout actions per millisecond of one reference core (measured with bench/arena runs):
# the work budget is budget_ms times this, so the median move stays near or under budget_ms.
STEPS_PER_MS = {"court-piece": 150.0, "court-piece-2p": 150.0, "goat": 40.0}
# What one trick of margin is worth beside a win (1): a little, so that among moves that
# win or lose alike the search still prefers more tricks, which is a smoother signal.
MARGIN = 0.1
# The factor by which one action unlike the rules of thumb makes a sampled deal less likely
# (Goat's rejection sampling; Court Piece's posterior chain uses COURT_EPS).
EPS = 0.25

# Court Piece's posterior chain (``taash.bots.infer``): the likelihood factor of one play
# unlike the rules of thumb, the burn-in (Metropolis steps) of a fresh chain and of one carried
# on from the seat's previous decision, the steps between samples, and what one seat factor
# costs in playout actions (PLAYOUT_PER_FACTOR).
COURT_EPS = 0.05
BURN = 1000
WARM_BURN = 200
THIN = 20
PLAYOUT_PER_FACTOR = 3.0


# -- Court Piece ----------------------------------------------------------------------------

def cp_rule_card(st: Any, played: int, voids: list[int], leads: list[int]) -> int:
    """The card the rules of thumb play for the seat to move in ``st``, knowing only what that
    seat would know (its hand, the cards played, the voids shown, the suits led); a failure to
    follow suit is recorded in ``voids`` as the public would see it."""
    seat = st.to_move
    hand = st.hands[seat]
    trick = st.trick
    legal = hand
    if trick:
        led = CP_SUIT[trick[0]]
        follow = hand & SUIT_MASK[led]
        if follow:
            legal = follow
        else:
            voids[seat] |= 1 << led
    if legal & (legal - 1) == 0:
        return int(legal & -legal).bit_length() - 1
    n = st.num_seats
    partner = leads[(seat + 2) % 4] if n == 4 else 0
    double = n == 4 and st.double
    collect = double and st.chain >= 0 and st.chain == st.leader
    k = cp.Knowledge(seat, n, hand, st.trump, trick, st.leader, cp.ALL & ~hand & ~played,
                     voids, partner, collect, double)
    return cp.choose_play(k, legal)


def cp_playout(st: Any, played: int, voids: list[int], leads: list[int]) -> int:
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


def cp_play_on(st: Any, card: int, played: int, voids: list[int], leads: list[int]) -> int:
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


def cp_score(st: Any, team: int) -> float:
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
        self.memory: tuple[Any, list[int]] | None = None

    def act(self, view: dict[str, Json]) -> str | None:
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
        sampler = CourtSampler(view)
        return ACTION_TEXT[self.playout_search(sampler, seat, team, ids, prior, trump_phase)]

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

        def evaluate(st: Any, a: int) -> tuple[float, int]:
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

        def sample() -> tuple[Any, float, float] | None:
            if chain is None:
                hands = sampler.hands(rng)
                return None if hands is None else (sampler.state_for(hands, rng), 1.0, 30.0)
            if not chain.ok:
                return None
            hands = chain.next(rng)
            cost = (chain.work - spent[0]) * PLAYOUT_PER_FACTOR
            spent[0] = chain.work
            return sampler.state_for(hands, rng), 1.0, cost + 30.0

        return pimc(ids, prior, sample, evaluate, budget * STEPS_PER_MS[self.game_id],
                    max(4 * budget, 200.0))

    def chain(self, sampler: CourtSampler) -> CourtChain:
        """A posterior sampler for this decision, started where this seat's last one in the
        same deal ended (so it needs little burn-in), and remembered for the next."""
        info = sampler.info
        key = (info.dealer, info.caller, info.trump, tuple(info.history[:1]))
        start = self.memory[1] if self.memory is not None and self.memory[0] == key else None
        chain = CourtChain(sampler, COURT_EPS, self.rng, burn=BURN, thin=THIN, start=start,
                           warm_burn=WARM_BURN)
        if chain.ok:
            self.memory = (key, chain.hands)
        return chain


def pimc(ids: list[int], prior: int, sample: Callable[[], tuple[Any, float, float] | None],
         evaluate: Callable[[Any, int], tuple[float, int]], work: float, cap_ms: float,
         min_samples: int = 2) -> int:
    """The candidate with the best weighted mean playout score over common samples (each
    sample weighted by how well it explains the play so far).  The prior (the rules-of-thumb
    choice) stands unless the search finds a clearly better one.

    ``evaluate(state, id)`` plays the candidate out on (a clone of) the sampled state and
    returns its score and the actions it took.  Candidates clearly worse than the leader are
    dropped as the samples come in (racing), so the budget goes to the close calls; the
    search stops early when every remaining candidate has scored the same so far."""
    scores: list[list[float]] = [[] for _ in ids]
    weights: list[float] = []
    alive = list(range(len(ids)))
    done = 0.0
    t0 = time.perf_counter()
    samples = fails = 0
    while True:
        got = sample()  # (state, weight, cost in playout actions) or None
        if got is None:
            done += 30
            fails += 1
            if fails > 10 and samples == 0:
                return prior
        else:
            st, w, cost = got
            done += cost
            weights.append(w)
            for i in alive:
                sc, steps = evaluate(st, ids[i])
                done += 1 + steps
                scores[i].append(sc)
            samples += 1
            if samples >= RACE_FROM and samples % 2 == 0:
                alive = race(alive, scores, weights)
                if len(alive) == 1:
                    break
                if samples >= 8 and all(scores[i] == scores[alive[0]] for i in alive):
                    break  # nothing the seat does now changes how these deals end
        if samples >= min_samples and (done >= work or
                                       (time.perf_counter() - t0) * 1000 >= cap_ms):
            break
    if len(alive) == 1:
        return ids[alive[0]]
    return choose_best([ids[i] for i in alive], prior, [scores[i] for i in alive], weights)


# Racing: from this many samples on, a candidate more than Z_DROP standard errors (paired)
# below the leader is dropped.
RACE_FROM = 6
Z_DROP = 2.5


def race(alive: list[int], scores: list[list[float]], weights: list[float]) -> list[int]:
    """The candidates still in the race (see ``pimc``)."""
    tw = sum(weights)
    if tw <= 0:
        return alive
    n_eff = tw * tw / sum(w * w for w in weights)
    means = {i: sum(w * x for w, x in zip(weights, scores[i], strict=True)) / tw
             for i in alive}
    lead = max(alive, key=lambda i: means[i])
    keep = []
    for i in alive:
        d = means[lead] - means[i]
        if i == lead or d <= 0:
            keep.append(i)
            continue
        var = sum(w * (a - b - d) ** 2 for w, a, b in zip(weights, scores[lead], scores[i],
                                                          strict=True)) / tw
        if d * d * n_eff <= Z_DROP * Z_DROP * var:
            keep.append(i)
    return keep


# How sure the search must be before it overrules the rules of thumb: the paired difference
# of means in standard errors.  Few samples are noisy, and a noisy argmax is worse than the
# rules of thumb; the same samples for every candidate make the paired test sharp.
Z_OVERRULE = 1.5


def choose_best(ids: list[int], prior: int, scores: list[list[float]],
                weights: list[float] | None = None) -> int:
    """The best candidate by weighted mean score, if it beats the prior by a clear paired
    margin (in standard errors, over the effective number of samples)."""
    n = len(scores[0])
    w = weights or [1.0] * n
    tw = sum(w)
    if tw <= 0:
        w, tw = [1.0] * n, float(n)
    means = [sum(wi * x for wi, x in zip(w, xs, strict=True)) / tw for xs in scores]
    best = max(range(len(ids)), key=lambda i: means[i])
    if prior not in ids or ids[best] == prior:
        return ids[best]
    p = ids.index(prior)
    d = means[best] - means[p]
    n_eff = tw * tw / sum(wi * wi for wi in w)
    if n_eff < 2 or d <= 0:
        return prior
    var = sum(wi * (a - b - d) ** 2 for wi, a, b in zip(w, scores[best], scores[p],
                                                         strict=True)) / tw
    if d * d * n_eff > Z_OVERRULE * Z_OVERRULE * var:
        return ids[best]
    return prior


# -- Goat ----------------------------------------------------------------------------------

def goat_knowledge(st: Any, seat: int, seen: int = -1) -> gt.GoatKnowledge:
    """What the rules of thumb know in a sampled Goat state.  With ``seen`` (the cards shown
    face up so far) the seat knows only what it would really know; without it, it sees the
    other hands and the stock as they are in the sample."""
    hands = st.hands
    if seen >= 0:
        unseen = gt.ALL & ~hands[seat] & ~seen
        plays = [(s, v, 0 if v == PASS and s != seat else m) for s, v, m in st.plays]
    else:
        unseen = 0
        for o in range(4):
            if o != seat:
                unseen |= hands[o]
        for c in st.deck[st.stock_pos:]:
            unseen |= 1 << c
        plays = st.plays
    return gt.GoatKnowledge(seat, hands[seat], st.trump, unseen, plays, st.top,
                            st.top_seat, st.k, 36 - st.stock_pos)


def goat_playout(st: Any, seen: int = -1) -> int:
    """Play a sampled Goat game to its end by the rules of thumb.  With ``seen`` (the cards
    shown face up so far, kept up to date here) each seat plays knowing only what it would
    really know, so the playout predicts how such players go on."""
    steps = 0
    while st.to_move >= 0:
        seat = st.to_move
        legal = st.legal_ids(seat)
        a = legal[0] if len(legal) == 1 else gt.choose(goat_knowledge(st, seat, seen), legal)
        if seen >= 0 and a >> SHIFT != PASS:
            seen |= a & CARDS
        st.apply_id(seat, a)
        steps += 1
    return steps


def goat_replay(sampler: GoatSampler, deck: list[int], ids: list[int], floor: float,
                eps: float) -> tuple[Any, float]:
    """Replay a sampled Goat deal to the view's moment, and how likely the other seats' play
    is in it if they play by the rules of thumb: a pass where the rules would have beaten,
    or a face-up play other than theirs, costs a factor ``eps`` (stopping below ``floor``).
    Returns the state (None once below ``floor``) and the likelihood."""
    cls = get_game("goat")
    st = cls.new_match(sampler.options, deal=False, first_dealer=sampler.dealer)
    st.deal([GOAT_CODES[c] for c in deck], GOAT_CODES[sampler.trump_card])
    me = sampler.seat
    seen = 0
    w = 1.0
    for p, a in zip(sampler.plays, ids, strict=True):
        s = p.seat
        if s != me and s == st.to_move and p.verb != MOLODKA:
            legal = st.legal_ids(s)
            if len(legal) > 1:
                mine = gt.choose(goat_knowledge(st, s, seen), legal)
                if p.verb == PASS:
                    differs = mine >> SHIFT != PASS
                else:
                    differs = mine != a
                if differs:
                    w *= eps
                    if w < floor:
                        return None, w
        if p.verb != PASS:
            seen |= a & CARDS
        st.apply_id(s, a)
    return st, w


def goat_score(st: Any, team: int) -> float:
    """A finished game from ``team``'s side: the win (eggs half) and the points margin."""
    mine, theirs = goat_points(st.taken[team]), goat_points(st.taken[1 - team])
    lost, won = defeat_points((mine, theirs), (st.tricks[team], st.tricks[1 - team]))
    s = 1.0 if won else (0.0 if lost else 0.5)  # neither side defeated: eggs (60-60)
    return s + 0.5 * (mine - theirs) / 120


def goat_candidates(k: gt.GoatKnowledge, legal: list[int], prior: int, limit: int) -> list[int]:
    """The actions worth searching: every beat, lead and molodka, but only the passes that
    give away least (a pass of other cheap cards plays out the same)."""
    passes = [a for a in legal if a >> SHIFT == PASS]
    rest = [a for a in legal if a >> SHIFT != PASS]
    passes.sort(key=lambda a: (gt.pts(a & CARDS), sum(gt.card_value(c, k.trump)
                                                         for c in card_list(a & CARDS))))
    out = rest + passes[:3]
    if len(out) > limit:
        out.sort(key=lambda a: gt.pts(a & CARDS))
        out = out[:limit]
    if prior not in out:
        out.append(prior)
    return out


class HardGoatBot:
    """PIMC for Goat: leads, beats, passes and molodkas (in turn and out of turn)."""

    level = "hard"

    def __init__(self, game_id: str = "goat", seed: int | None = None,
                 budget_ms: float | None = None) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else float(budget_ms)
        self.cap_ms = max(4 * self.budget_ms, 200.0)

    def act(self, view: dict[str, Json]) -> str | None:
        legal_text: list[str] = view.get("legal_actions") or []
        if not legal_text:
            return None
        seat = int(view["seat"])
        team = seat & 1
        k = gt.knowledge_from_view(view)
        legal = [gt.parse_action(a) for a in legal_text]
        sampler = GoatSampler(view)
        work = self.budget_ms * STEPS_PER_MS["goat"]
        if not must_move(view):
            # Out of turn the choice is a molodka now or nothing (-1: let play go on).
            mol = [a for a in legal if a >> SHIFT == MOLODKA]
            if not mol:
                return None
            prior = mol[0] if gt.want_molodka(k) else -1
            best = pimc_goat([mol[0], -1], prior, sampler, self.rng, seat, team, work,
                             self.cap_ms)
            return gt.action_text(best) if best >= 0 else None
        if len(legal) == 1:
            return legal_text[0]
        prior = gt.choose(k, legal)
        ids = goat_candidates(k, legal, prior, 12)
        if len(ids) == 1:
            return gt.action_text(ids[0])
        return gt.action_text(pimc_goat(ids, prior, sampler, self.rng, seat, team, work,
                                        self.cap_ms))


def pimc_goat(ids: list[int], prior: int, sampler: GoatSampler, rng: random.Random, seat: int,
              team: int, work: float, cap_ms: float) -> int:
    """PIMC over Goat actions; the id -1 stands for declining an out-of-turn molodka: the
    seat to move plays on by the policy instead.  Deals are rejection-sampled by how well
    the rules of thumb explain the others' play, and played out faithfully."""
    seen0 = 0
    for p in sampler.plays:
        if p.verb != PASS:
            seen0 |= p.cards

    def evaluate(st: Any, a: int) -> tuple[float, int]:
        c = st.clone()
        seen = seen0
        if a >= 0:
            c.apply_id(seat, a)
            seen |= a & CARDS if a >> SHIFT != PASS else 0
        else:
            mover = c.to_move
            b = gt.choose(goat_knowledge(c, mover, seen), c.legal_ids(mover))
            seen |= b & CARDS if b >> SHIFT != PASS else 0
            c.apply_id(mover, b)
        steps = goat_playout(c, seen)
        return goat_score(c, team), steps

    def sample() -> tuple[Any, float, float] | None:
        best: tuple[Any, float] | None = None
        for tries in range(1, GOAT_REJECT_TRIES + 1):
            got = sampler.sample_deck(rng)
            if got is None:
                return None
            u = rng.random()
            st, w = goat_replay(sampler, got[0], got[1], u, EPS)
            if st is not None and w >= u:
                return st, 1.0, GOAT_TRY_COST * tries
            if best is None or w > best[1]:
                best = (got, w)
        assert best is not None
        (deck, ids_), w = best
        st, _ = goat_replay(sampler, deck, ids_, 0.0, EPS)
        return st, max(w, 1e-9), GOAT_TRY_COST * GOAT_REJECT_TRIES

    return pimc(ids, prior, sample, evaluate, work, cap_ms)


# Goat deals tried per kept sample, and what a try costs in playout actions.
GOAT_REJECT_TRIES = 10
GOAT_TRY_COST = 40.0


def make_hard_bot(game_id: str, seed: int | None, budget_ms: float | None) -> Bot:
    if game_id == "goat":
        return HardGoatBot(game_id, seed, budget_ms)
    return HardCourtBot(game_id, seed, budget_ms)
