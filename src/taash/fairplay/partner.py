"""The hard bot told its partner's hand: what a seat of a four-player side would play if the
two partners saw each other's cards (Court Piece, both sars, and Goat, which is played two
against two: RULES.md, "Common").

Two users:

- the fair-play detector (``taash.fairplay.detect``): over a *finished* deal, where every hand
  is known, it asks what ``hard`` plays from the seat's view (``hard_choice``) and what this
  bot plays with the partner's hand added (``pair_choice``).  Where the two differ the
  partner's hidden cards change the best guess, and a partnership that plays the second one
  far more often than honest players do fits cards it could not see (the *partner-fit*
  statistic, docs/fairplay.md);
- the arena's colluders (``taash.fairplay.cheats``), which play it at a table of bots.

Nothing here is used at a live table: a seat never sees its partner's hand.  The opponents'
cards are read from their play as hard reads them (its posterior chain in Court Piece, its
weighted draws in Goat), with the partner's hand held.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import cast

from taash.bots.base import Json
from taash.bots.hard import HardCourtBot, HardGoatBot
from taash.bots.infer import CourtChain
from taash.bots.sampling import CourtSampler, GoatSampler
from taash.games import CourtPiece, Goat, MatchState
from taash.games.goat import PACK as GOAT_PACK
from taash.games.tricks import PACK as CP_PACK
from taash.review.replay import DealReplay

#: games played two against two, where a partnership can see each other's hands
PARTNER_GAMES = (CourtPiece.game_id, Goat.game_id)
#: the seeds' base of the detector's partner-seeing bots (``hard_choice`` uses 26)
PAIR_SEED = 48


class PartnerSampler(CourtSampler):
    """Samples in which the partner holds ``partner_hand`` (its real cards): the rest of the
    unseen cards are shared among the opponents as the view allows."""

    def __init__(self, view: Mapping[str, Json], partner: int, partner_hand: int) -> None:
        super().__init__(view)
        self.partner, self.partner_hand = partner, partner_hand
        i = self.others.index(partner)
        self.unknown = [c for c in self.unknown if not partner_hand >> c & 1]
        self.others = [s for s in self.others if s != partner]
        del self.caps[i], self.banned[i]

    def hands(self, rng: random.Random) -> list[int] | None:
        out = super().hands(rng)
        if out is not None:
            out[self.partner] = self.partner_hand
        return out


class _WithPartner:
    """Hard's posterior chain over the opponents' cards (the partner's hand held out of it),
    each sample given the partner's real hand."""

    def __init__(self, chain: CourtChain, partner: int, hand: int) -> None:
        self.chain, self.partner, self.hand = chain, partner, hand
        self.ok = chain.ok

    @property
    def work(self) -> int:
        return self.chain.work

    def next(self, rng: random.Random) -> list[int]:
        hands = self.chain.next(rng)
        hands[self.partner] = self.hand
        return hands


class SeeingPartnerBot(HardCourtBot):
    """The Court Piece hard bot, told its partner's hand before each decision: its posterior
    samples read the opponents' play as hard's do, with the partner's cards known."""

    partner_hand = 0

    def sampler_for(self, view: Mapping[str, Json]) -> CourtSampler:
        if view.get("phase") == "trump":
            return CourtSampler(view)
        return PartnerSampler(view, (int(view["seat"]) + 2) % 4, self.partner_hand)

    def chain(self, sampler: CourtSampler) -> CourtChain:
        got = super().chain(sampler)
        if not isinstance(sampler, PartnerSampler):
            return got
        return cast(CourtChain, _WithPartner(got, sampler.partner, sampler.partner_hand))


class SeeingPartnerGoatBot(HardGoatBot):
    """The Goat hard bot, told its partner's hand (as it is now) before each decision."""

    partner_hand = 0

    def sampler_for(self, view: Mapping[str, Json]) -> GoatSampler:
        sampler = GoatSampler(view)
        sampler.hold((int(view["seat"]) + 2) % 4, self.partner_hand)
        return sampler


def partner_hand(state: MatchState, seat: int) -> int:
    """The hand of ``seat``'s partner now, as a bitmask of its game's pack."""
    cards = state.view((seat + 2) % 4).get("hand") or []
    pack = GOAT_PACK if state.game_id == Goat.game_id else CP_PACK
    return pack.mask(cards)


def seeing_bot(game: str, seed: int, budget_ms: float | None
               ) -> SeeingPartnerBot | SeeingPartnerGoatBot:
    """A partner-seeing hard bot for ``game`` (one of ``PARTNER_GAMES``)."""
    if game == Goat.game_id:
        return SeeingPartnerGoatBot(game, seed, budget_ms)
    return SeeingPartnerBot(game, seed, budget_ms)


def pair_search(deal: DealReplay, step: int, budget_ms: float | None
                ) -> tuple[str | None, dict[str, tuple[float, int]] | None]:
    """What the partner-seeing hard bot plays for the seat of action ``step`` (a bot of its
    own, seeded from the deal and the step, as ``hard_search`` is), and its search's
    candidates: (mean score, samples) each, None where it decided without a search."""
    seat = deal.steps[step].seat
    state = deal.positions[step].state
    bot = seeing_bot(deal.game, PAIR_SEED * 100_003 + deal.deal * 1009 + step, budget_ms)
    bot.partner_hand = partner_hand(state, seat)
    choice = bot.act(state.view(seat))
    return choice, bot.last_scores()


def pair_choice(deal: DealReplay, step: int, budget_ms: float | None) -> str | None:
    """What the partner-seeing hard bot plays for the seat of action ``step``."""
    return pair_search(deal, step, budget_ms)[0]


__all__ = ["PAIR_SEED", "PARTNER_GAMES", "PartnerSampler", "SeeingPartnerBot",
           "SeeingPartnerGoatBot", "pair_choice", "pair_search", "partner_hand", "seeing_bot"]
