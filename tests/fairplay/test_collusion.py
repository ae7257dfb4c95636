"""Colluding partnerships (issue 48): two seats of a side that see each other's hands, in Court
Piece and in Goat (both played two against two), and the detector's partner-fit statistic
that catches them: a colluding partnership is flagged on a small arena.  Colluders unlike the
detector's model (looking now and then, ``colluder~Q``; reading by rules of thumb,
``colluder:easy``) play legal moves, and one that never looks plays as its honest bot."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from taash.bots.base import BotError
from taash.fairplay.cheats import Colluder, Seat, make_policy, play_records
from taash.fairplay.detect import load_reference, scan_record, verdicts
from taash.fairplay.score import PAIR, Opportunity, Scan
from taash.games import new_match
from taash.games.goat import PACK as GOAT_PACK
from taash.review.replay import load_record

BUDGET = 50.0  # as the shipped reference (its meta says)


def scans(recs: list[dict[str, Any]], names: set[str]) -> list[Any]:
    """The records scanned for the players ``names`` (and their partners)."""
    out = []
    for i, rec in enumerate(recs):
        r, summary = load_record(json.loads(json.dumps(rec)))
        out.append(scan_record(r, summary, f"r{i}", budget_ms=BUDGET,
                               wanted=lambda n: n in names))
    return out


def test_goat_colluders_are_given_their_partners_real_hand() -> None:
    m = new_match("goat", seed=5, first_seat=0)
    rng = random.Random(2)
    for _ in range(13):  # into the game: tricks taken, cards drawn from the stock
        s = m.actors()[0]
        m.apply(s, rng.choice(m.legal_actions(s)))
    seat = m.actors()[0]
    pol = make_policy("goat", "colluder", 3, budget_ms=20)
    assert pol.act(m, seat) in m.legal_actions(seat)
    sampler = pol.bot.sampler_for(m.view(seat))  # type: ignore[attr-defined]
    partner = (seat + 2) % 4
    real = GOAT_PACK.mask(m.view(partner)["hand"])
    for k in range(5):
        st = sampler.sample(random.Random(k))
        assert st is not None and st.hands[partner] == real
        assert st.hands[seat] == GOAT_PACK.mask(m.view(seat)["hand"])


@pytest.mark.slow
@pytest.mark.timeout(900)  # 16 four-player deals played, then two hard searches a decision
def test_a_colluding_partnership_is_flagged() -> None:
    # Honest partnerships are not flagged: test_fairplay's honest hard bots, three seeds.
    seats = [Seat("colluder", "Cora"), Seat("hard", "Hana"), Seat("colluder", "Cyrus"),
             Seat("hard~0.1", "Hugo")]
    recs = play_records("court-piece", None, seats, 16, 5, budget_ms=BUDGET)
    _players, pairs = verdicts(scans(recs, {"Cora", "Cyrus"}), load_reference())
    cheats = next(v for v in pairs if v.name == "Cora & Cyrus")
    assert cheats.flagged, cheats
    assert all(k.startswith(PAIR) for k in cheats.kinds)  # scored on partner-fit
    assert cheats.hits > 2 * cheats.expected and cheats.deals


def test_a_partnership_is_scored_on_partner_fit_but_in_goat_on_open_best() -> None:
    def scan(game: str) -> Scan:
        def op(seat: int, kind: str) -> Opportunity:
            return Opportunity(game, 0, seat, seat, game, kind, True)
        return Scan(game, ["A", "B", "C", "D"], [(0, 2), (1, 3)], [1, 1, 1, 1], 1,
                    opportunities=[op(0, "lead"), op(2, "follow")],
                    pair_ops=[op(0, "discard"), op(1, "lead")])
    ref = load_reference()
    for game, kinds in (("court-piece/single", {PAIR + "discard"}), ("goat", {"lead", "follow"})):
        _players, pairs = verdicts([scan(game)], ref)
        assert set(next(v for v in pairs if v.name == "A & C").kinds) == kinds


def moves(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records without who sat where (a policy's name is written there)."""
    return [{k: v for k, v in r.items() if k != "seats"} for r in recs]


@pytest.mark.parametrize("spec", ["colluder~0.5", "colluder:easy", "colluder~0.25:easy"])
def test_colluders_unlike_the_detectors_model_play_legal_moves(spec: str) -> None:
    # The rules of thumb are quick; hard at 5 ms a move keeps this in the fast loop.
    seats = [Seat(spec, "A"), Seat("easy", "B"), Seat(spec, "C"), Seat("easy", "D")]
    recs = play_records("court-piece", None, seats, 1, 3, budget_ms=5)
    load_record(json.loads(json.dumps(recs[0])))  # every action replays (legal, CP-5 ...)
    assert recs[0]["seats"][0]["level"] == make_policy("court-piece", spec, 1).name


def test_colluder_specs_say_what_they_are() -> None:
    pol = make_policy("goat", "colluder~0.5", 3, budget_ms=20)
    assert isinstance(pol, Colluder) and pol.share == 0.5 and pol.own is not None
    assert make_policy("court-piece", "colluder~0.25:easy", 1).name == "colluder~0.25-easy"
    assert make_policy("court-piece", "colluder~1", 1).name == "colluder"
    for bad in ("colluder~2", "colluder~x", "colluder:sneaky", "colluder~-0.1"):
        with pytest.raises(BotError):
            make_policy("court-piece", bad, 1)
    with pytest.raises(BotError, match="court-piece"):
        make_policy("goat", "colluder:easy", 1)
    with pytest.raises(BotError, match="partners"):
        make_policy("court-piece-2p", "colluder~0.5", 1)


@pytest.mark.slow
@pytest.mark.parametrize(("never", "honest"), [("colluder~0", "hard"),
                                               ("colluder~0:easy", "easy")])
def test_a_colluder_that_never_looks_plays_as_its_honest_bot(never: str, honest: str) -> None:
    def play(spec: str) -> list[dict[str, Any]]:
        seats = [Seat(spec, "A"), Seat("easy", "B"), Seat(spec, "C"), Seat("hard", "D")]
        return moves(play_records("court-piece", None, seats, 2, 9, budget_ms=5))
    assert play(never) == play(honest)
