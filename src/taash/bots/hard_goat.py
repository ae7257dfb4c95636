"""The hard level for Goat: PIMC (``taash.bots.pimc``) over leads, beats, passes and molodkas,
in turn and out of turn (a molodka now against letting play go on).

Deals are *rejection-sampled* by how well the rules of thumb (``taash.bots.goat``) explain the
other seats' play: each play unlike theirs costs a factor ``EPS``.  Each candidate is then played
out on the sampled state by the rules of thumb, every seat knowing only what it would know.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from taash.bots import goat as gt
from taash.bots.base import Json, must_move
from taash.bots.pimc import DEFAULT_BUDGET_MS, STEPS_PER_MS, Search, search
from taash.bots.sampling_goat import GoatSampler
from taash.cards import card_list
from taash.games.goat import CARDS, CODES, MOLODKA, PASS, SHIFT, Goat, defeat_points
from taash.games.goat import points as goat_points

# The factor by which one action unlike the rules of thumb makes a sampled deal less likely.
EPS = 0.25


def goat_knowledge(st: Goat, seat: int, seen: int = -1) -> gt.GoatKnowledge:
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


def goat_playout(st: Goat, seen: int = -1) -> int:
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
                eps: float) -> tuple[Goat | None, float]:
    """Replay a sampled Goat deal to the view's moment, and how likely the other seats' play
    is in it if they play by the rules of thumb: a pass where the rules would have beaten,
    or a face-up play other than theirs, costs a factor ``eps`` (stopping below ``floor``).
    Returns the state (None once below ``floor``) and the likelihood."""
    st = Goat.new_match(sampler.options, deal=False, first_dealer=sampler.dealer)
    st.deal([CODES[c] for c in deck], CODES[sampler.trump_card])
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


def goat_score(st: Goat, team: int) -> float:
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

    def __init__(self, game_id: str = Goat.game_id, seed: int | None = None,
                 budget_ms: float | None = None) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else float(budget_ms)
        self.cap_ms = max(4 * self.budget_ms, 200.0)
        # the last decision's search (None: decided without one), for the deal review
        self.last_search: Search | None = None

    def sampler_for(self, view: Mapping[str, Json]) -> GoatSampler:
        """Where this seat's samples of the hidden cards come from: everything its view
        allows (the arena's colluders and the fair-play detector narrow it)."""
        return GoatSampler(view)

    def last_scores(self) -> dict[str, tuple[float, int]] | None:
        """The last decision's candidates as actions (None: declining a molodka out of
        turn): (mean playout score, samples)."""
        if self.last_search is None:
            return None
        return {("" if a < 0 else gt.action_text(a)): (m, self.last_search.samples[a])
                for a, m in self.last_search.means.items()}

    def act(self, view: Mapping[str, Json]) -> str | None:
        self.last_search = None
        legal_text: list[str] = view.get("legal_actions") or []
        if not legal_text:
            return None
        seat = int(view["seat"])
        team = seat & 1
        k = gt.knowledge_from_view(view)
        legal = [gt.parse_action(a) for a in legal_text]
        sampler = self.sampler_for(view)
        work = self.budget_ms * STEPS_PER_MS[Goat.game_id]
        if not must_move(view):
            # Out of turn the choice is a molodka now or nothing (-1: let play go on).
            mol = [a for a in legal if a >> SHIFT == MOLODKA]
            if not mol:
                return None
            prior = mol[0] if gt.want_molodka(k) else -1
            self.last_search = pimc_goat([mol[0], -1], prior, sampler, self.rng, seat, team,
                                         work, self.cap_ms)
            best = self.last_search.choice
            return gt.action_text(best) if best >= 0 else None
        if len(legal) == 1:
            return legal_text[0]
        prior = gt.choose(k, legal)
        ids = goat_candidates(k, legal, prior, 12)
        if len(ids) == 1:
            return gt.action_text(ids[0])
        self.last_search = pimc_goat(ids, prior, sampler, self.rng, seat, team, work,
                                     self.cap_ms)
        return gt.action_text(self.last_search.choice)


def pimc_goat(ids: list[int], prior: int, sampler: GoatSampler, rng: random.Random, seat: int,
              team: int, work: float, cap_ms: float) -> Search:
    """PIMC over Goat actions; the id -1 stands for declining an out-of-turn molodka: the
    seat to move plays on by the policy instead.  Deals are rejection-sampled by how well
    the rules of thumb explain the others' play, and played out faithfully."""
    seen0 = 0
    for p in sampler.plays:
        if p.verb != PASS:
            seen0 |= p.cards

    def evaluate(st: Goat, a: int) -> tuple[float, int]:
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

    def sample() -> tuple[Goat, float, float] | None:
        best: tuple[tuple[list[int], list[int]], float] | None = None
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
        st, _ = goat_replay(sampler, deck, ids_, 0.0, EPS)  # a floor of 0 keeps every deal
        assert st is not None
        return st, max(w, 1e-9), GOAT_TRY_COST * GOAT_REJECT_TRIES

    return search(ids, prior, sample, evaluate, work, cap_ms)


# Goat deals tried per kept sample, and what a try costs in playout actions.
GOAT_REJECT_TRIES = 10
GOAT_TRY_COST = 40.0
