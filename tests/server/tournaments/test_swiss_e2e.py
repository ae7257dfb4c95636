"""Issue 47's end-to-end check: a Swiss tournament of eight entrants over the HTTP API (five
players who play through the API with their session cookies, a sixth who registers and never
comes, two bots the organiser adds): pairings never repeat, the standings and Buchholz are
those computed here by hand from the games' results, the no-show's moves are made by the turn
timer's bot so every round ends, the results are in the players' histories, and every table's
record verifies (`taash.record.verify`, and `taash record verify` for the final table)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from taash.record import verify
from tests.conftest import run_taash
from tests.server.events.helpers import Player
from tests.server.tournaments.helpers import T0, site, swiss_body

ROUNDS = 3


async def play_turns(p: Player, tid: str) -> str:
    """One look by a player who plays: their table's move if it is theirs; the state."""
    page = await p.ok("GET", f"/api/tournaments/{tid}")
    mine = page["my_table"]
    if mine is not None:
        r = await p.get(f"/api/tables/{mine['table']}/view", params={"seat": mine["seat"]})
        assert r.status_code == 200, r.text
        view = r.json()
        legal = view.get("legal_actions") or []
        if legal:
            r = await p.post(f"/api/tables/{mine['table']}/actions?seat={mine['seat']}",
                             {"action": legal[-1], "version": view["version"]})
            assert r.status_code in (200, 409), r.text  # 409: the table moved on (stale)
    return str(page["state"])


def by_hand(seeds: list[int], games: list[dict[str, Any]]) -> list[tuple[int, float, float]]:
    """(seed, score, Buchholz) in standings order: a win 1, a draw 0.5, a bye 1; Buchholz the
    sum of the opponents' scores (a bye adds nothing); ties by seed."""
    score = dict.fromkeys(seeds, 0.0)
    opponents: dict[int, list[int]] = {s: [] for s in seeds}
    for g in games:
        if g["b"] is None:
            score[g["a"]] += 1
            continue
        opponents[g["a"]].append(g["b"])
        opponents[g["b"]].append(g["a"])
        score[g["a"]] += {"a": 1, "draw": 0.5, "b": 0}[g["result"]]
        score[g["b"]] += {"a": 0, "draw": 0.5, "b": 1}[g["result"]]
    rows = [(s, score[s], sum(score[o] for o in opponents[s])) for s in seeds]
    return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str | None:
    """None: SQLite in the test's folder; else the module's PostgreSQL database."""
    return str(request.getfixturevalue("pg_url")) if request.param == "postgres" else None


@pytest.mark.slow
async def test_a_swiss_of_eight_runs_to_its_end_over_the_api(tmp_path: Path,
                                                            db_url: str | None) -> None:
    async with site(tmp_path, db_url) as s:
        organiser = await s.player("Organiser")
        t = await organiser.ok("POST", "/api/tournaments", swiss_body(), status=201)
        tid = t["id"]
        assert t["state"] == "scheduled" and t["seconds_to_start"] == 600
        s.now = T0 + 450
        assert (await organiser.ok("GET", f"/api/tournaments/{tid}"))["seconds_to_start"] == 150
        players = [await s.player(f"Player {n}") for n in range(1, 7)]
        for p in players:
            joined = await p.ok("POST", f"/api/tournaments/{tid}/register")
            assert joined["registered"]
        no_show = players[5]
        for level in ("easy", "random"):
            await organiser.ok("POST", f"/api/tournaments/{tid}/bots", {"level": level})
        # refusals, each with the server's error shape
        again = await players[0].post(f"/api/tournaments/{tid}/register")
        assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"
        early = await players[0].post(f"/api/tournaments/{tid}/start")
        assert early.status_code == 403, early.text
        assert (await players[0].get("/api/tournaments/nosuch")).status_code == 404
        page = await organiser.ok("POST", f"/api/tournaments/{tid}/start")
        assert page["state"] == "running" and page["round"] == 1
        assert page["seconds_to_start"] is None
        late = await (await s.player()).post(f"/api/tournaments/{tid}/register")
        assert late.status_code == 409, late.text
        seeds = [e["seed"] for e in page["entrant_list"]]
        assert len(seeds) == 8 and seeds == sorted(seeds)
        first = [(g["a"], g["b"]) for g in page["games"]]
        assert first == [(1, 2), (3, 4), (5, 6), (7, 8)]  # round 1: by seed
        state = "running"
        for _ in range(20_000):
            states = [await play_turns(p, tid) for p in players[:5]]
            state = states[-1]
            if state == "over":
                break
            await asyncio.sleep(0.01)
        assert state == "over"
        page = await organiser.ok("GET", f"/api/tournaments/{tid}")
        games = page["games"]
        assert [g["round"] for g in games] == [r for r in range(1, ROUNDS + 1) for _ in range(4)]
        assert all(g["b"] is not None and g["result"] in ("a", "b", "draw") for g in games)
        met = [frozenset((g["a"], g["b"])) for g in games]
        assert len(set(met)) == len(met)  # no pairing repeats
        # each round pairs everyone once
        for r in range(1, ROUNDS + 1):
            seated = [x for g in games if g["round"] == r for x in (g["a"], g["b"])]
            assert sorted(seated) == seeds
        # the standings, as computed by hand
        want = by_hand(seeds, games)
        got = [(row["seed"], row["score"], row["buchholz"]) for row in page["standings"]]
        assert got == want
        ranks = [row["rank"] for row in page["standings"]]
        assert ranks[0] == 1 and ranks == sorted(ranks)
        # the final table: the last round's top board
        final = [g for g in games if g["final"]]
        assert len(final) == 1 and final[0]["round"] == ROUNDS and final[0]["board"] == 1
        assert page["final_table"] == final[0]["table"]
        # the no-show never sent a move: the turn timer's bot made theirs, and their games ended
        absent = next(e["seed"] for e in page["entrant_list"] if no_show.id in e["players"])
        theirs = [g for g in games if absent in (g["a"], g["b"])]
        assert len(theirs) == ROUNDS
        for g in theirs:
            rec = (await organiser.ok("GET", f"/api/tables/{g['table']}/record"))
            side = 0 if g["a"] == absent else 1
            moves = [a for d in rec["deals"] for a in d["actions"] if a["seat"] == side]
            assert moves, "the no-show's seat was played by the timer"
        # every table's record verifies
        for g in games:
            rec = await organiser.ok("GET", f"/api/tables/{g['table']}/record")
            verify(rec)
        path = tmp_path / "final.json"
        path.write_text(json.dumps(await organiser.ok(
            "GET", f"/api/tables/{page['final_table']}/record")))
        done = run_taash("record", "verify", str(path))
        assert done.returncode == 0, done.stderr
        # the players' histories hold their tournament tables
        for p in players:
            history = await p.ok("GET", f"/api/players/{p.id}/history")
            tables = {m["table"] for m in history["matches"]}
            mine = next(e["seed"] for e in page["entrant_list"] if p.id in e["players"])
            assert {g["table"] for g in games if mine in (g["a"], g["b"])} <= tables
        listed = await players[0].ok("GET", "/api/tournaments")
        assert [x["id"] for x in listed["mine"]] == [tid]
        assert tid not in [x["id"] for x in listed["tournaments"]]  # over: not listed


@pytest.mark.slow
async def test_a_tournament_starts_at_its_time_or_is_cancelled(tmp_path: Path) -> None:
    async with site(tmp_path, sweep_s=60) as s:
        organiser = await s.player()
        t = await organiser.ok("POST", "/api/tournaments", swiss_body(), status=201)
        lone = await organiser.ok("POST", "/api/tournaments", swiss_body(), status=201)
        for _ in range(3):
            await organiser.ok("POST", f"/api/tournaments/{t['id']}/bots", {"level": "random"})
        await organiser.ok("POST", f"/api/tournaments/{lone['id']}/bots", {"level": "easy"})
        await s.services.tournament_play.tick(False)  # not yet
        assert (await organiser.ok("GET", f"/api/tournaments/{t['id']}"))["state"] == "scheduled"
        s.now = T0 + 601
        await s.services.tournament_play.tick(False)
        page = await organiser.ok("GET", f"/api/tournaments/{t['id']}")
        assert page["state"] == "running" and page["round"] == 1
        assert [(g["a"], g["b"]) for g in page["games"]] == [(1, 2), (3, None)]
        assert page["games"][1]["result"] == "a"  # the bye: a win
        assert (await organiser.ok("GET", f"/api/tournaments/{lone['id']}"))["state"] \
            == "cancelled"
