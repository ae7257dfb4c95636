"""The fair-play detector (issue 48) on small arenas of known players: a peeker that always
plays the card it sees is flagged within 20 deals, honest hard bots are not, and the command's
exit codes and JSON."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from taash.bots.base import BotError
from taash.fairplay.cheats import Seat, make_policy, play_records
from taash.fairplay.detect import load_reference, scan_record, upper_tail, verdicts
from taash.games import new_match
from taash.games.tricks import PACK
from taash.review.replay import load_record
from tests.conftest import run_taash

GAME = "court-piece-2p"  # the quickest game to play and solve
BUDGET = 50.0  # as the shipped reference (its meta says)


def scans(recs: list[dict[str, Any]], tag: str) -> list[Any]:
    out = []
    for i, rec in enumerate(recs):
        r, summary = load_record(json.loads(json.dumps(rec)))
        out.append(scan_record(r, summary, f"{tag}{i}", budget_ms=BUDGET))
    return out


def test_the_upper_tail_is_the_poisson_binomial_law() -> None:
    assert upper_tail([0.5, 0.5], 0) == 1.0
    assert math.isclose(upper_tail([0.5, 0.5], 1), 0.75)
    assert math.isclose(upper_tail([0.5, 0.5], 2), 0.25)
    assert math.isclose(upper_tail([0.1, 0.2, 0.3], 3), 0.006)
    assert upper_tail([0.2] * 5, 6) == 0.0


@pytest.mark.slow
def test_policies_are_seeded_and_bad_specs_say_so() -> None:
    a = play_records(GAME, None, [Seat("peeker:0.5", "a"), Seat("hard~0.2", "b")], 1, 4,
                     budget_ms=20)
    b = play_records(GAME, None, [Seat("peeker:0.5", "a"), Seat("hard~0.2", "b")], 1, 4,
                     budget_ms=20)
    assert a == b and a[0]["seats"][0]["name"] == "a"
    for bad in ("peeker:2", "peeker:x", "sneaky", "hard:1"):
        with pytest.raises(BotError):
            make_policy(GAME, bad, 1)
    with pytest.raises(BotError, match="partners"):
        make_policy(GAME, "colluder", 1)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["peeker:1", "helped"])
def test_a_seeing_player_plays_the_open_best_card_where_hard_would_not(spec: str) -> None:
    # Every card of a peeker with p = 1 (of a helped player) is a best one: at each of its
    # opportunities it hits.
    recs = play_records(GAME, None, [Seat(spec, "p"), Seat("hard", "h")], 6, 11,
                        budget_ms=BUDGET)
    ops = [o for sc in scans(recs, "r") for o in sc.opportunities if o.seat == 0]
    assert ops and all(o.hit for o in ops)


def test_colluders_are_given_their_partners_real_hand() -> None:
    m = new_match("court-piece", seed=5, first_seat=0)
    pol = make_policy("court-piece", "colluder", 3, budget_ms=20)
    while m.view(m.actors()[0]).get("phase") == "trump":
        s = m.actors()[0]
        m.apply(s, m.legal_actions(s)[0])
    seat = m.actors()[0]
    pol.act(m, seat)
    bot = pol.bot  # type: ignore[attr-defined]
    sampler = bot.sampler_for(m.view(seat))
    hands = sampler.hands(random.Random(1))
    assert hands[(seat + 2) % 4] == PACK.mask(m.view((seat + 2) % 4)["hand"])


@pytest.mark.slow
def test_a_peeker_with_p_1_is_flagged_within_20_deals() -> None:
    recs = play_records(GAME, None, [Seat("peeker:1", "peeker"), Seat("hard", "honest")], 20,
                        7, budget_ms=BUDGET)
    players, _ = verdicts(scans(recs, "r"), load_reference())
    by = {v.name: v for v in players}
    assert by["peeker"].flagged, by["peeker"]
    assert not by["honest"].flagged, by["honest"]
    assert by["peeker"].deals  # the deals to review


@pytest.mark.slow
@pytest.mark.parametrize("seed", [21, 22, 23])
def test_honest_hard_bots_are_not_flagged(seed: int) -> None:
    recs = play_records("court-piece", None, [Seat("hard", f"h{i}") for i in range(4)], 6,
                        seed, budget_ms=BUDGET)
    players, pairs = verdicts(scans(recs, "r"), load_reference())
    assert len(players) == 4 and len(pairs) == 2
    flagged = [v.name for v in (*players, *pairs) if v.flagged]
    assert not flagged, [(v.name, v.hits, v.opportunities, v.p_value) for v in players]


def one_line_error(out: Any, code: int) -> str:
    assert out.returncode == code, (out.returncode, out.stdout, out.stderr)
    assert out.stdout == "" and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


@pytest.mark.slow
def test_the_command_prints_json_and_exits_0_whatever_it_found(tmp_path: Path) -> None:
    recs = play_records(GAME, None, [Seat("peeker:1", "peeker"), Seat("hard", "Hana")], 3,
                        8, budget_ms=BUDGET)
    f = tmp_path / "m.json"
    f.write_text(json.dumps(recs[0]))
    out = run_taash("fairplay", str(f), "--json", "--alpha", "0.5")
    assert out.returncode == 0, out.stderr
    assert "fairplay: " in out.stderr  # progress, on stderr
    data = json.loads(out.stdout)
    assert set(data) == {"alpha", "reference", "players", "partnerships"}
    assert data["partnerships"] == []  # two players: no partnership
    names = {p["name"] for p in data["players"]}
    assert names == {"peeker", "Hana"}
    for p in data["players"]:
        assert set(p) >= {"name", "judged", "opportunities", "hits", "expected", "p_value",
                          "score", "flagged", "kinds", "deals"}
        assert 0 <= p["p_value"] <= 1 and p["hits"] <= p["opportunities"] <= p["judged"]
    only = run_taash("fairplay", str(f), "--player", "peeker", "--quiet")
    assert only.returncode == 0 and only.stderr == ""
    assert "peeker" in only.stdout and "Hana" not in only.stdout
    missing = run_taash("fairplay", str(f), "--player", "nobody", "--quiet")
    assert "no player named 'nobody'" in one_line_error(missing, 2)


@pytest.mark.slow
def test_a_malformed_record_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "court-piece", "deals": [{"deck": ["AS"], "actions": []}]}')
    assert one_line_error(run_taash("fairplay", str(bad)), 2).startswith(
        "taash: malformed record")
    notjson = tmp_path / "x.json"
    notjson.write_text("{")
    assert "malformed record" in one_line_error(run_taash("fairplay", str(notjson)), 2)
    assert "cannot read" in one_line_error(run_taash("fairplay", str(tmp_path / "no")), 2)
    ok = tmp_path / "ok.json"
    ok.write_text(run_taash("record", "random", "--game", GAME, "--seed", "1",
                            "--deals", "1").stdout)
    assert "--alpha" in one_line_error(run_taash("fairplay", str(ok), "--alpha", "2"), 2)


@pytest.mark.slow
def test_one_player_is_scanned_with_their_partner_only() -> None:
    recs = play_records("court-piece", None, [Seat(s, n) for s, n in (
        ("peeker:1", "Pia"), ("hard", "Bo"), ("hard", "Cy"), ("easy", "Di"))], 2, 9,
        budget_ms=BUDGET)
    rec, summary = load_record(json.loads(json.dumps(recs[0])))
    sc = scan_record(rec, summary, "r", budget_ms=BUDGET, wanted=lambda n: n == "Pia")
    assert sc.judged[0] > 0 and sc.judged[2] > 0  # Pia and her partner Cy
    assert sc.judged[1] == sc.judged[3] == 0
    players, pairs = verdicts([sc], load_reference(), player="Pia")
    assert [v.name for v in players] == ["Pia"]
    assert [v.seats for v in pairs] == [("Cy", "Pia")]
