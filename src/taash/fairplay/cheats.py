"""Cheating policies, for the arena only: they are given the whole state, which no seat at a
table ever is.  The server never imports this module (pyproject.toml's import-linter
contract "The server plays no cheating policy"); they exist to calibrate the detector
(``taash.fairplay.detect``) on players known to cheat.

Every policy answers ``act(state, seat)``; given a seed it is deterministic.

- ``honest``: a bot level (``hard``, ``easy``, ``random``) from the seat's view alone, with
  ``noise`` the chance of a uniformly random legal action instead (a weaker, erratic player).
- ``peeker``: sees every hand; with probability ``p`` plays the full-information best action
  (``taash.fairplay.open_best``; hard's own card where it is among the best), otherwise the
  hard bot's.  Where the solver cannot settle a position in time it plays hard's card.
- ``colluder`` (the four-player games, Court Piece and Goat): the hard bot whose samples of the
  hidden cards hold the partner's real hand (``taash.fairplay.partner``): a partnership that
  tells each other their cards.  ``colluder:uniform`` (Court Piece): the same, the opponents'
  cards drawn uniformly instead (the colluder before 2026-12-07): a cheat whose reading differs
  from the detector's partner-seeing bot.  ``colluder:easy`` (Court Piece): the rules of thumb
  told the partner's hand (the partner's cards are not the opponents', the partner's strong
  suits are led to), a colluder that reads the partner's cards another way than the
  detector's bot does.  ``colluder~Q`` (with any reading, e.g. ``colluder~0.5:easy``): looks
  at the partner's hand on a share ``Q`` of its decisions only, a coin thrown each time, and
  plays the honest bot of its reading (``hard``; ``easy`` for ``:easy``) otherwise, so
  ``colluder~0`` plays exactly as ``hard`` with the same seed.
- ``helped``: plays the hint of a helper who sees every hand: the full-information best
  action, ties broken by the rules of thumb (the rules' card where none is settled in time).

The solver's budget is counted in positions searched and the hard bot's in work (its wall-clock
cap off, ``taash.bots.pimc.work_only``), and the solver's tables are cleared at each deal, so
``play_records`` gives the same records on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from taash.bots import make_bot
from taash.bots.base import Bot, BotError, Json, must_move
from taash.bots.court import call_trump, choose_play, high, is_master, knowledge_from_view
from taash.bots.infer import CourtChain
from taash.bots.pimc import work_only
from taash.bots.sampling import CourtSampler
from taash.fairplay.open_best import SOLVE_MS, best_actions, node_budget, open_values
from taash.fairplay.partner import (
    PARTNER_GAMES,
    PartnerSampler,
    SeeingPartnerBot,
    SeeingPartnerGoatBot,
    partner_hand,
    seeing_bot,
)
from taash.games import CourtPiece, GameClass, MatchState, game_class
from taash.games.tricks import ACTION_TEXT, PACK, SUIT_MASK
from taash.review import solver

POLICIES = ("hard", "easy", "random", "peeker", "colluder", "helped")


class Policy(Protocol):
    name: str

    def act(self, state: MatchState, seat: int) -> str | None: ...


class Honest:
    """A bot level from the seat's view alone; ``noise``: the chance of a random action."""

    def __init__(self, game: str, level: str, seed: int, budget_ms: float | None,
                 noise: float = 0.0) -> None:
        self.bot = make_bot(game, level, seed=seed, budget_ms=budget_ms)
        self.rng = random.Random(seed ^ 0x5EED)
        self.noise = noise
        self.name = level if not noise else f"{level}~{noise:g}"

    def act(self, state: MatchState, seat: int) -> str | None:
        view = state.view(seat)
        a = self.bot.act(view)
        legal: list[str] = view.get("legal_actions") or []
        if a is not None and legal and self.noise and self.rng.random() < self.noise:
            return self.rng.choice(legal)
        return a


def _seen_best(state: MatchState, seat: int, prefer: str | None) -> str | None:
    """The full-information best action (``prefer`` where it is among the best, else the
    first best), or None where the solver cannot settle it within its budget (``SOLVE_MS``
    counted in positions searched)."""
    legal = state.legal_ids(seat)
    vals = open_values(state, seat, nodes=node_budget(state.game_id, SOLVE_MS))
    if vals is None:
        return None
    best = best_actions(vals, legal)
    if prefer is not None and state.action_id(seat, prefer) in best:
        return prefer
    return state.action_text(min(best))


class Peeker:
    """Sees every hand; plays the full-information best action with probability ``p``."""

    def __init__(self, game: str, p: float, seed: int, budget_ms: float | None) -> None:
        self.hard = make_bot(game, "hard", seed=seed, budget_ms=budget_ms)
        self.rng = random.Random(seed ^ 0xBEEF)
        self.p = p
        self.name = f"peeker-{p:g}"

    def act(self, state: MatchState, seat: int) -> str | None:
        view = state.view(seat)
        mine = self.hard.act(view)
        legal: list[str] = view.get("legal_actions") or []
        if not must_move(view) or len(legal) < 2 or self.rng.random() >= self.p:
            return mine
        return _seen_best(state, seat, mine) or mine


class Helped:
    """Plays an all-seeing helper's hint (ties, and what the helper cannot settle, go to the
    rules of thumb)."""

    def __init__(self, game: str, seed: int) -> None:
        self.rules = make_bot(game, "easy", seed=seed)
        self.name = "helped"

    def act(self, state: MatchState, seat: int) -> str | None:
        view = state.view(seat)
        mine = self.rules.act(view)
        legal: list[str] = view.get("legal_actions") or []
        if not must_move(view) or len(legal) < 2:
            return mine
        return _seen_best(state, seat, mine) or mine


class _Uniform:
    """Independent uniform draws of a sampler, in place of hard's posterior chain."""

    def __init__(self, sampler: PartnerSampler) -> None:
        self.sampler = sampler
        self.work = 0
        self.ok = sampler.hands(random.Random(0)) is not None
        self.hands: list[int] = []

    def next(self, rng: random.Random) -> list[int]:
        got = self.sampler.hands(rng)
        assert got is not None  # ok said one can be drawn; fill retries until one is
        self.hands = got
        return got


class UniformSeeingBot(SeeingPartnerBot):
    """The partner-seeing bot drawing the opponents' cards uniformly."""

    def chain(self, sampler: CourtSampler) -> CourtChain:
        if isinstance(sampler, PartnerSampler):
            return cast(CourtChain, _Uniform(sampler))
        return super().chain(sampler)


class EasySeeingBot:
    """The Court Piece rules of thumb told the partner's hand before each decision: the
    partner's cards are left out of the cards the opponents may hold (so a king is a master
    when the partner holds the ace, a trump ruffs safely when the opponents have none left),
    and a side suit where the partner holds the opponents' master counts as one the partner
    has shown strength in (the rules lead to it).  A colluder that reads the partner's cards
    by rules, not by the detector's search; the trump call is the honest one."""

    level = "easy"
    partner_hand = 0

    def act(self, view: Mapping[str, Json]) -> str | None:
        legal: list[str] = view.get("legal_actions") or []
        if not legal or not must_move(view):
            return None
        if view.get("phase") == "trump":
            return call_trump(view)
        k = knowledge_from_view(view)
        mate = self.partner_hand
        k.unseen &= ~mate
        for s in range(4):
            held = mate & SUIT_MASK[s]
            if s != k.trump and held and is_master(high(held), k.unseen):
                k.partner_leads |= 1 << s
        return ACTION_TEXT[choose_play(k, PACK.mask(a.partition(":")[2] for a in legal))]


#: how a colluder reads the partner's hand: ``hard``'s search (the detector's own model),
#: the same with the opponents' cards drawn uniformly, or the rules of thumb
READINGS = ("", "uniform", "easy")


class Colluder:
    """One seat of a colluding partnership: sees its partner's hand (the four-player games:
    Court Piece and Goat, both played two against two), on a share ``share`` of its
    decisions (a coin each time; otherwise the honest bot of its reading: ``hard``, or
    ``easy`` for the rules of thumb)."""

    def __init__(self, game: str, seed: int, budget_ms: float | None,
                 reading: str = "", share: float = 1.0) -> None:
        if game not in PARTNER_GAMES:
            raise BotError("colluders need partners: court-piece or goat only")
        if reading and game != CourtPiece.game_id:
            raise BotError(f"colluder:{reading} is for court-piece")
        self.bot: SeeingPartnerBot | SeeingPartnerGoatBot | EasySeeingBot
        if reading == "easy":
            self.bot = EasySeeingBot()
        elif reading == "uniform":
            self.bot = UniformSeeingBot(game, seed, budget_ms)
        else:
            self.bot = seeing_bot(game, seed, budget_ms)
        self.share = share
        # the honest bot of the same seed the seat plays when it does not look
        self.own: Bot | None = None if share >= 1 else make_bot(
            game, "easy" if reading == "easy" else "hard", seed=seed, budget_ms=budget_ms)
        self.rng = random.Random(seed ^ 0xC011)
        self.name = ("colluder" + (f"~{share:g}" if share < 1 else "")
                     + (f"-{reading}" if reading else ""))

    def act(self, state: MatchState, seat: int) -> str | None:
        if self.own is not None and self.rng.random() >= self.share:
            return self.own.act(state.view(seat))
        self.bot.partner_hand = partner_hand(state, seat)
        return self.bot.act(state.view(seat))


def make_policy(game: str, spec: str, seed: int, budget_ms: float | None = None) -> Policy:
    """A policy from its spec: ``hard``, ``easy``, ``random`` (optionally ``~NOISE``, e.g.
    ``hard~0.1``), ``peeker:P``, ``colluder`` (optionally ``~SHARE`` and ``:uniform`` or
    ``:easy``, e.g. ``colluder~0.5:easy``), ``helped``.  BotError on a bad spec."""
    name, _, arg = spec.partition(":")
    level, _, noise = name.partition("~")
    try:
        if level in ("hard", "easy", "random") and not arg:
            return Honest(game, level, seed, budget_ms, float(noise) if noise else 0.0)
        if name == "peeker":
            p = float(arg)
            if not 0 <= p <= 1:
                raise ValueError
            return Peeker(game, p, seed, budget_ms)
        share = float(noise) if level == "colluder" and noise else 1.0
        if not 0 <= share <= 1:
            raise ValueError
    except ValueError:
        raise BotError(f"bad policy {spec!r}") from None
    if level == "colluder" and arg in READINGS:
        return Colluder(game, seed, budget_ms, reading=arg, share=share)
    if name == "helped" and not arg:
        return Helped(game, seed)
    raise BotError(f"unknown policy {spec!r} (policies: hard, easy, random, hard~NOISE, "
                   "peeker:P, colluder, colluder:uniform, colluder:easy, colluder~SHARE, "
                   "helped)")


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat in the arena's records: a policy spec and the name written."""

    spec: str
    name: str


def play_records(game: str, options: object, seats: Sequence[Seat], deals: int, seed: int,
                 budget_ms: float | None = None) -> list[dict[str, Json]]:
    """Play ``deals`` deals with these seats and return their records (a new match starts
    when one ends), each with a ``seats`` list naming who sat where, as a table's record
    does.  Seeded: the same arguments give the same records."""
    cls = game_class(game)
    if len(seats) != cls.num_seats:
        raise BotError(f"{game} has {cls.num_seats} seats, not {len(seats)}")
    rng = random.Random(f"taash-fairplay:{seed}")
    policies = [make_policy(game, s.spec, rng.getrandbits(62), budget_ms) for s in seats]
    names: list[Json] = [{"type": "bot", "level": p.name, "name": s.name}
                         for p, s in zip(policies, seats, strict=True)]
    out: list[dict[str, Json]] = []
    m: MatchState | None = None
    with work_only():
        for _ in range(deals):
            m = _play_deal(cls, options, m, rng, policies, names, out)
    if m is not None:
        out.append({**m.record(), "seats": names})
    return out


def _play_deal(cls: GameClass, options: object, m: MatchState | None,
               rng: random.Random, policies: list[Policy], names: list[Json],
               out: list[dict[str, Json]]) -> MatchState:
    """One deal (a new match first if the last one is over, its record added to ``out``)."""
    solver.clear_tables()  # what a policy's solver settles depends on this deal alone
    if m is None or m.is_over():
        if m is not None:
            out.append({**m.record(), "seats": names})
        m = cls.new_match(options, rng=rng, deal=False, first_seat=rng.randrange(cls.num_seats))
    m.deal_from(rng)
    while not (m.needs_deal() or m.is_over()):
        chosen: tuple[int, str] | None = None
        for s in m.actors():
            a = policies[s].act(m, s)
            if a is not None and chosen is None:
                chosen = (s, a)
        if chosen is None:
            raise RuntimeError("no seat acted")
        m.apply(*chosen)
    return m


__all__ = ["POLICIES", "READINGS", "Colluder", "EasySeeingBot", "Helped", "Honest", "Peeker",
           "Seat", "make_policy", "play_records"]
