"""Single sar solved by DDS (``taash.review.dds``, endplay's public API): the mapping of cards,
seats and trump, agreement with the own solver on every position of random deals, its use in
the analysis (labelled "dds" in the JSON), and the own solver taking over without endplay."""

from __future__ import annotations

import json
import random
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from taash.games import game_class
from taash.record import random_record
from taash.review import analyse, dds
from taash.review.analyse import analyse_deal, load_solver, open_part
from taash.review.command import deal_json
from taash.review.replay import DealReplay, load_record, replay_deal
from taash.review.solver import action_values, clear_tables
from tests.conftest import run_taash

needs_dds = pytest.mark.skipif(not dds.available(), reason="endplay (DDS) did not load")


def deal_of(seed: int) -> DealReplay:
    rec, summary = load_record(random_record("court-piece", None, seed=seed, deals=1))
    return replay_deal(rec, 0, summary)


def positions(seed: int, tricks: int) -> list[Any]:
    """Every card-play position (mid-trick ones too) of a single-sar deal played by seeded
    random legal moves, from ``tricks`` tricks left on (the trump call made at once)."""
    rng = random.Random(seed)
    m: Any = game_class("court-piece").new_match({}, seed=seed).clone()  # stops at the end
    out = []
    while (seat := m.turn()) is not None:
        if m.phase == 0:
            m.apply_id(seat, rng.choice(m.legal_ids(seat)))
            continue
        if max(h.bit_count() for h in m.hands) <= tricks:
            out.append(m.clone())
        m.apply_id(seat, rng.choice(m.legal_ids(seat)))
    return out


@needs_dds
def test_cards_seats_and_trump_map_onto_dds() -> None:
    # Hearts trump; seat 3 led 2C; seat 0, void in clubs, ruffs with 2H (then cashes AD: two
    # tricks for seats 0 and 2) or throws AD (seat 1's KC wins, and seat 0 ruffs the last
    # trick: one).  Partners two apart, the trick in progress outside the hands.
    T = game_class("court-piece").new_match({}, seed=1).pack().index
    hands = [["2H", "AD"], ["KC", "KD"], ["QC", "QD"], ["3C"]]
    masks = [sum(1 << T(c) for c in h) for h in hands]
    assert dds.solve_cards(masks, 1, 3, [T("2C")]) == {T("2H"): 2, T("AD"): 1}
    # no trumps (4): 2H is only a discard, and AD thrown leaves seat 0 nothing
    assert dds.solve_cards(masks, 4, 3, [T("2C")]) == {T("2H"): 1, T("AD"): 0}
    # seat 0 on lead, spades trump: nobody else holds a heart or a spade, and AD is the top
    # diamond: both tricks whichever card leads
    lead = [sum(1 << T(c) for c in h) for h in
            (["2H", "AD"], ["KC", "KD"], ["QC", "QD"], ["3C", "4C"])]
    assert dds.solve_cards(lead, 0, 0, []) == {T("2H"): 2, T("AD"): 2}
    # seat 1 on lead, spades trump: KC takes a trick (seat 0 has no club and no trump); KD
    # first loses to AD, and then seat 0's 2H takes the last
    assert dds.solve_cards(lead, 0, 1, []) == {T("KC"): 1, T("KD"): 0}
    with pytest.raises(ValueError, match="sizes"):
        dds.solve_cards(masks, 1, 0, [])
    with pytest.raises(ValueError, match="two places"):
        dds.solve_cards([masks[0]] * 4, 1, 0, [])
    with pytest.raises(ValueError, match="trump"):
        dds.solve_cards(masks, 5, 3, [T("2C")])


@needs_dds
def test_dds_and_the_own_solver_agree_on_every_position_of_random_deals() -> None:
    """Eight seeded random single-sar deals, every position from seven cards a hand on (and
    on bench/review_dds.py's N deals, every position): the tricks the side to move takes
    after each legal card, every trick played, both ways."""
    compared = mid_trick = 0
    for seed in range(8):
        clear_tables()
        for st in reversed(positions(seed, 7)):
            want = dds.action_values(st)
            got = action_values(st, time_limit=30, play_out=True)
            assert got == want, (seed, st.trick, got, want)
            compared += 1
            mid_trick += bool(st.trick)
    assert compared >= 150 and mid_trick >= compared // 2


@pytest.mark.slow
@needs_dds
def test_the_analysis_uses_dds_for_single_sar_and_agrees_with_the_own_solver() -> None:
    """A deal analysed with DDS: labelled "dds", every play judged; from six cards a hand on,
    where the own solver is quick, both give the same standings, and on a won line the same
    totals (the deal stops at 7: DDS's counts are cut there)."""
    d = deal_of(5)
    a = analyse_deal(d, hard=False, time_limit=0.5)
    assert a.solver == "dds"
    plays = [r for r in a.actions if r.action.startswith("play:")]
    assert plays and all(r.open is not None and r.open.verdict is not None
                         and r.open.solver == "dds" for r in plays)
    own = load_solver()
    assert own is not None
    late = [r for r in plays if d.positions[r.step].state.hands[r.seat].bit_count() <= 6]
    assert len(late) >= 12
    for r in late:
        mine = open_part(d, r.step, own, 30.0)
        assert r.open is not None and mine.solver == "taash"
        assert (mine.standing_before, mine.standing_after) == (
            r.open.standing_before, r.open.standing_after), r.step
        if r.open.standing_before == "won":
            assert mine.before == r.open.before == 7
        if r.open.standing_after == "won":
            assert mine.after == r.open.after == 7
    doc = deal_json(d, a)
    assert doc["solver"] == "dds"
    assert all(e["open"]["solver"] == "dds" for e in doc["actions"]  # type: ignore[index]
               if e["action"].startswith("play:"))  # type: ignore[index,union-attr]


def without_endplay(monkeypatch: pytest.MonkeyPatch) -> None:
    """endplay made unimportable (a None in sys.modules), the module's memo cleared."""
    for name in ("endplay", "endplay.types", "endplay.dds"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setattr(dds, "_mods", None)
    monkeypatch.setattr(dds, "_missing", False)


def test_without_endplay_the_own_solver_judges_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    without_endplay(monkeypatch)
    assert not dds.available() and analyse.load_dds() is None
    with pytest.raises(RuntimeError, match="not available"):
        dds.solve_cards([0, 0, 0, 0], 0, 0, [])
    d = deal_of(5)
    seat = d.steps[-1].seat
    a = analyse_deal(d, [seat], hard=False, time_limit=0.05)
    assert a.solver == "taash"
    opened = [r.open for r in a.actions if r.open is not None and r.open.verdict is not None]
    assert opened and all(o.solver == "taash" for o in opened)
    assert deal_json(d, a)["solver"] == "taash"


def test_a_position_dds_refuses_goes_to_the_own_solver() -> None:
    d = deal_of(5)
    step = d.steps[-1].index
    refusing = types.ModuleType("refusing")
    refusing.applies = lambda state: True  # type: ignore[attr-defined]

    def fail(state: Any) -> dict[int, int]:
        raise RuntimeError("DDS answered something else")

    refusing.action_values = fail  # type: ignore[attr-defined]
    refusing.clamp = dds.clamp  # type: ignore[attr-defined]
    o = open_part(d, step, load_solver(), 5.0, refusing)
    assert o.verdict is not None and o.solver == "taash"


def test_a_coat_conceded_on_a_lost_line_is_a_mistake() -> None:
    """Whist's counts do not show a coat conceded (the stop at 7 decides it), so with DDS a
    lost side with no trick yet asks the own solver whether it can still get one."""
    d = deal_of(2)
    st0 = d.positions[1].state  # the first card after the call: nobody has a trick
    fake_dds = types.ModuleType("fake_dds")
    fake_dds.applies = lambda state: True  # type: ignore[attr-defined]
    fake_dds.action_values = (  # type: ignore[attr-defined]
        lambda state: dict.fromkeys(state.legal_ids(state.turn()), 3))
    fake_dds.clamp = dds.clamp  # type: ignore[attr-defined]
    calls: list[int] = []
    own = types.ModuleType("fake_own")

    def solve(state: Any, *, time_limit: float = 2.0, team: int | None = None) -> Any:
        calls.append(team if team is not None else -1)
        # before the play the side can still take a trick; after it, none
        return types.SimpleNamespace(value=1 if len(calls) == 1 else 0, best=(), exact=True,
                                     nodes=1)

    own.solve = solve  # type: ignore[attr-defined]
    o = open_part(d, 1, own, 2.0, fake_dds)
    side = d.side_of(d.steps[1].seat)
    assert st0.turn() == d.steps[1].seat and calls == [side, side]
    assert (o.standing_before, o.standing_after) == ("lost", "lost") and o.before == o.after
    assert (o.coated_before, o.coated_after) == (False, True) and o.verdict == "mistake"
    j = o.as_json()
    assert j["solver"] == "dds" and j["coated_after"] is True


@pytest.mark.slow
@needs_dds
def test_review_json_names_dds_for_a_single_sar_record(tmp_path: Path) -> None:
    out = run_taash("record", "random", "--game", "court-piece", "--seed", "4", "--deals", "1")
    assert out.returncode == 0, out.stderr
    f = tmp_path / "single.json"
    f.write_text(out.stdout)
    out = run_taash("review", str(f), "--json", "--seat", "2", "--solver-time", "0.2")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)["deals"][0]
    assert d["solver"] == "dds"
    plays = [e for e in d["actions"] if e["seat"] == 2 and e["action"].startswith("play:")]
    assert plays and all(e["open"]["verdict"] in ("best", "mistake", "blunder")
                         and e["open"]["solver"] == "dds" for e in plays)
    text = run_taash("review", str(f), "--seat", "2", "--analyse", "--solver-time", "0.2")
    assert text.returncode == 0, text.stderr
    assert "all cards open: DDS, the bridge solver, through endplay" in text.stdout
