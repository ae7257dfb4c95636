"""Reading the other Court Piece hands from their play: posterior samples by Markov chain.

The hard bot assumes the other seats play roughly by the rules of thumb (``court.choose_play``):
each of their plays that the rules would not have made from the hand they held costs a factor
``eps``, and the caller's trump should be the most held suit of five of its cards.  Those factors
depend on one seat's own cards only, so the likelihood of a deal is a product over seats and
each seat's factor is computed from its hand alone, replaying the public context of its plays,
which is read once per decision (``CourtModel``).

``CourtChain`` then samples deals from the posterior (the deals consistent with the view,
weighted by that likelihood) by Metropolis steps: swap one unknown card between two places
(seats, or the cards still to be dealt), never into a suit a seat has shown void in, and accept by
the ratio of the two seats' factors.  Swaps are symmetric, so the chain's stationary
distribution is the posterior.  This reads hands far better than drawing deals uniformly and
rejecting the unlikely ones: after a few tricks nearly every uniform deal is very unlikely.
"""

from __future__ import annotations

import random
from functools import lru_cache
from math import comb

from taash.bots import court as cp
from taash.bots.sampling import CourtInfo, CourtSampler
from taash.cards import card_list
from taash.games.court_piece import collect_step
from taash.games.tricks import SUIT_MASK, TRUMP_BASE, trick_winner
from taash.games.tricks import SUIT_OF as CP_SUIT

# Burn-in sharpens the likelihood in this many stages, from this loose eps.
ANNEAL_STAGES = 4
ANNEAL_FROM = 0.5


@lru_cache(maxsize=4096)
def most_held_chance(counts: tuple[int, int, int, int], trump: int) -> float:
    """The chance that ``trump`` is (one of) the most held suits among five cards drawn at
    random from a hand with these suit ``counts`` (the caller's first five, CP-4)."""
    total = sum(counts)
    if total < 5:
        return 1.0
    good = 0
    for a in range(min(5, counts[0]) + 1):
        for b in range(min(5 - a, counts[1]) + 1):
            for c in range(min(5 - a - b, counts[2]) + 1):
                d = 5 - a - b - c
                if d > counts[3]:
                    continue
                ks = (a, b, c, d)
                if ks[trump] == max(ks):
                    good += (comb(counts[0], a) * comb(counts[1], b) * comb(counts[2], c)
                             * comb(counts[3], d))
    return good / comb(total, 5)


class CourtModel:
    """The per-seat likelihood of the other seats' play so far (see the module's text)."""

    def __init__(self, info: CourtInfo, eps: float) -> None:
        self.info = info
        self.eps = eps
        n, me, trump = info.seats, info.seat, info.trump
        # Replay the public history once; record the context of each choice another seat made.
        # ctx: (trick, leader, played before, voids before, partner's leads, collect, card, later)
        self.contexts: list[list[tuple[list[int], int, int, list[int], int, bool, int, int]]] = \
            [[] for _ in range(n)]
        played = 0
        voids = [0] * n
        leads = [0] * n
        trick: list[int] = []
        leader = -1
        # Double sar: who may collect (CP-7, CP-8), folded over the tricks by the core's step.
        double = info.options.get("sar") == "double"
        ace_rule = double and bool(info.options.get("ace_rule"))
        chain = -1
        tricks_done = 0
        plays = [(s, a) for s, a in info.history if a < TRUMP_BASE]
        after = [0] * n  # cards each seat played after the action being read (filled below)
        later: list[int] = [0] * len(plays)
        for i in range(len(plays) - 1, -1, -1):
            s, a = plays[i]
            later[i] = after[s]
            after[s] |= 1 << a
        for i, (s, a) in enumerate(plays):
            if len(trick) == n:
                if double:
                    tricks_done += 1
                    bi = trick_winner(trick, trump)
                    _, chain = collect_step(chain, tricks_done, (leader + bi) % n, trick[bi],
                                            ace_rule)
                trick = []
            if s != me:
                partner = leads[(s + 2) % 4] if n == 4 else 0
                self.contexts[s].append((trick[:], leader, played, voids[:], partner,
                                         chain >= 0, a, later[i] | 1 << a))
            if not trick:
                leader = s
                leads[s] |= 1 << CP_SUIT[a]
            elif CP_SUIT[a] != CP_SUIT[trick[0]]:
                voids[s] |= 1 << CP_SUIT[trick[0]]
            played |= 1 << a
            trick.append(a)
        self.caller_counts = info.caller != me and trump >= 0 and info.phase != "trump"

    def seat_factor(self, s: int, hand: int) -> float:
        """The likelihood of seat ``s``'s play so far if it now holds ``hand``."""
        info = self.info
        eps = self.eps
        n, trump = info.seats, info.trump
        w = 1.0
        if self.caller_counts and s == info.caller:
            full = hand | info.played[s]
            counts = tuple((full & SUIT_MASK[x]).bit_count() for x in range(4))
            w = eps + (1 - eps) * most_held_chance(counts, trump)
        allc = cp.ALL
        double = info.options.get("sar") == "double"
        for trick, leader, played, voids, partner, collect, a, later in self.contexts[s]:
            h = hand | later
            legal = h
            if trick:
                follow = h & SUIT_MASK[CP_SUIT[trick[0]]]
                if follow:
                    legal = follow
            if legal & (legal - 1) == 0:
                continue
            k = cp.Knowledge(s, n, h, trump, trick, leader, allc & ~h & ~played, voids,
                             partner, collect, double)
            if cp.choose_play(k, legal) != a:
                w *= eps
        return w


class CourtChain:
    """Posterior samples of the other hands by Metropolis card swaps (see the module's text).

    ``next(rng)`` advances the chain ``thin`` steps and returns the current hands (as
    ``CourtSampler.hands`` does: every seat, then the cards no seat holds now); ``work``
    counts the seat factors computed, the chain's cost."""

    def __init__(self, sampler: CourtSampler, eps: float, rng: random.Random,
                 burn: int = 40, thin: int = 8, start: list[int] | None = None,
                 warm_burn: int = 0) -> None:
        self.sampler = sampler
        self.model = CourtModel(sampler.info, eps)
        self.thin = thin
        self.work = 0
        info = sampler.info
        self.places = [*sampler.others] + ([info.seats] if len(sampler.caps) >
                                            len(sampler.others) else [])
        self.banned = {p: (info.voids[p] if p < info.seats else 0) for p in self.places}
        self.ok = False
        hands = self.carry(start, rng) if start is not None else None
        if hands is not None:
            burn = warm_burn
        else:
            got = sampler.hands(rng)
            if got is None:
                return
            hands = got
        self.ok = True
        self.hands = hands
        self.factor: dict[int, float] = {}
        self.where = {}
        for p in self.places:
            for c in card_list(hands[p]):
                self.where[c] = p
        self.cards = list(self.where)
        self.anneal(rng, burn, eps)

    def anneal(self, rng: random.Random, burn: int, eps: float) -> None:
        """Burn in while sharpening the likelihood step by step from a loose ``eps`` to the
        real one, so the chain crosses between deals freely first and then settles."""
        stages = ANNEAL_STAGES if burn >= 4 * ANNEAL_STAGES and eps < ANNEAL_FROM else 1
        for i in range(stages):
            e = eps if i == stages - 1 else ANNEAL_FROM * (eps / ANNEAL_FROM) ** (i / (stages - 1))
            if e != self.model.eps or i == 0:
                self.model.eps = e
                self.factor = {p: self.factor_of(p, self.hands[p]) for p in self.places}
            self.steps(rng, burn // stages)

    def carry(self, prev: list[int], rng: random.Random) -> list[int] | None:
        """A start for the chain from the hands it ended with at an earlier decision of the
        same deal: the cards played since are taken out, and the cards left over where a seat
        played a card the sample had given someone else go where there is room (never into a
        suit shown void).  None if the earlier hands do not fit the view."""
        sampler, info = self.sampler, self.sampler.info
        if len(prev) != info.seats + 1:
            return None
        seen = info.hand
        for m in info.played:
            seen |= m
        for c in info.trick:
            seen |= 1 << c
        unknown = 0
        for c in sampler.unknown:
            unknown |= 1 << c
        caps = dict(zip(self.places, sampler.caps, strict=True))
        hands = [0] * (info.seats + 1)
        hands[info.seat] = info.hand
        pool: list[int] = []
        covered = 0
        for p in self.places:
            h = prev[p] & ~seen
            covered |= h
            for c in card_list(h):
                if self.banned[p] >> CP_SUIT[c] & 1:
                    h &= ~(1 << c)
                    pool.append(c)
            extra = h.bit_count() - caps[p]
            if extra > 0:
                cards = card_list(h)
                rng.shuffle(cards)
                for c in cards[:extra]:
                    h &= ~(1 << c)
                    pool.append(c)
            hands[p] = h
        if covered != unknown:
            return None
        rng.shuffle(pool)
        for c in pool:
            room = [p for p in self.places if hands[p].bit_count() < caps[p]
                    and not self.banned[p] >> CP_SUIT[c] & 1]
            if not room:
                return None
            hands[rng.choice(room)] |= 1 << c
        return hands

    def factor_of(self, place: int, hand: int) -> float:
        if place >= self.sampler.info.seats:
            return 1.0
        self.work += 1
        return self.model.seat_factor(place, hand)

    def steps(self, rng: random.Random, count: int) -> None:
        cards, where, hands = self.cards, self.where, self.hands
        if len(self.places) < 2 or len(cards) < 2:
            return
        for _ in range(count):
            x = cards[rng.randrange(len(cards))]
            y = cards[rng.randrange(len(cards))]
            p, q = where[x], where[y]
            if p == q:
                continue
            if self.banned[q] >> CP_SUIT[x] & 1 or self.banned[p] >> CP_SUIT[y] & 1:
                continue
            hp = hands[p] & ~(1 << x) | 1 << y
            hq = hands[q] & ~(1 << y) | 1 << x
            fp = self.factor_of(p, hp)
            fq = self.factor_of(q, hq)
            old = self.factor[p] * self.factor[q]
            new = fp * fq
            if new >= old or rng.random() * old < new:
                hands[p], hands[q] = hp, hq
                self.factor[p], self.factor[q] = fp, fq
                where[x], where[y] = q, p

    def next(self, rng: random.Random) -> list[int]:
        self.steps(rng, self.thin)
        return self.hands[:]

