"""A tournament's table watched (issues 47 and 48): it is rated-able and live, so spectators
see it one deal behind; at every point of a match its public view and record, asked without a
seat, are at the delayed version and show no hand."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.server.events.helpers import Player
from tests.server.tables.test_spectators import expected_version
from tests.server.tournaments.helpers import site, swiss_body
from tests.server.tournaments.test_swiss_e2e import play_turns


async def test_a_tournament_table_is_watched_one_deal_behind(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        organiser = await s.player("Organiser")
        t = await organiser.ok("POST", "/api/tournaments", swiss_body(
            rounds=1, options={"target": 3}, turn_timer_s=600), status=201)
        tid = t["id"]
        a, b = await s.player("Asha"), await s.player("Bilal")
        for p in (a, b):
            await p.ok("POST", f"/api/tournaments/{tid}/register")
        # started by the organiser before its time: at its time the sweep would start it too,
        # and the one of the two that came second would be refused
        await organiser.ok("POST", f"/api/tournaments/{tid}/start")
        await round_tables(a, tid)
        mine = (await a.ok("GET", f"/api/tournaments/{tid}"))["my_table"]
        table, seat = mine["table"], mine["seat"]
        behind = 0
        for _ in range(2000):
            # the table as its seat sees it (the whole record), and as anyone else does
            rec = (await a.get(f"/api/tables/{table}/record", params={"seat": seat})).json()
            ends, v = [], 0
            for d in rec["deals"]:
                v += len(d["actions"])
                if not d.get("hidden"):  # a deal over shows its deck
                    ends.append(v)
            view = (await a.get(f"/api/tables/{table}/view", params={"seat": seat})).json()
            assert view["version"] == v
            want = expected_version("deal", ends, v, view["over"])
            pub = (await organiser.get(f"/api/tables/{table}")).json()
            assert pub["table"]["spectator_delay"] == "deal"
            assert pub["version"] == want and "hand" not in pub, (v, ends)
            seen = (await organiser.get(f"/api/tables/{table}/record")).json()
            assert sum(len(d["actions"]) for d in seen["deals"]) == want
            assert all("deck" not in d for d in seen["deals"] if d.get("hidden"))
            behind = max(behind, v - want if not view["over"] else 0)
            if view["over"]:
                break
            await play_turns(a, tid)
            await play_turns(b, tid)
            await asyncio.sleep(0)
        assert view["over"] and behind > 10  # it was watched a deal behind, then all of it


async def test_the_organiser_chooses_how_far_behind_spectators_see_its_tables(
        tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        organiser = await s.player("Organiser")
        # "none" is not offered (a tournament table is rated), nor anything unknown
        for wrong in ("none", "later"):
            r = await organiser.post("/api/tournaments", swiss_body(
                rounds=1, spectator_delay=wrong))
            assert r.status_code == 400 and "spectator_delay" in r.text, r.text
        made = {}
        for delay in ("trick", "hidden"):
            t = await organiser.ok("POST", "/api/tournaments", swiss_body(
                rounds=1, options={"target": 3}, spectator_delay=delay), status=201)
            assert t["spectator_delay"] == delay
            made[delay] = t["id"]
        a, b = await s.player("Asha"), await s.player("Bilal")
        for tid in made.values():
            for p in (a, b):
                await p.ok("POST", f"/api/tournaments/{tid}/register")
        for delay, tid in made.items():  # started by the organiser now, before its time
            page = await organiser.ok("POST", f"/api/tournaments/{tid}/start")
            assert page["spectator_delay"] == delay
            table = (await round_tables(organiser, tid))[0]["table"]
            seen = await organiser.get(f"/api/tables/{table}")
            if delay == "hidden":  # no spectator while its game is played
                assert seen.status_code == 403, seen.text
            else:
                assert seen.json()["table"]["spectator_delay"] == "trick"


async def test_a_final_being_played_is_featured_first_on_home(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        organiser = await s.player("Organiser")
        t = await organiser.ok("POST", "/api/tournaments", swiss_body(
            rounds=1, options={"target": 3}, turn_timer_s=600), status=201)
        a, b = await s.player("Asha"), await s.player("Bilal")
        for p in (a, b):
            await p.ok("POST", f"/api/tournaments/{t['id']}/register")
        # another live table, its players at least as rated: the final still comes first
        other = await organiser.ok("POST", "/api/tables", {
            "game": "court-piece-2p", "options": {"target": 3}, "live": True,
            "seats": [{"type": "human"}, {"type": "bot", "level": "hard"}]}, status=201)
        assert not [f for f in await a.ok("GET", "/api/featured") if f["final"]]
        await organiser.ok("POST", f"/api/tournaments/{t['id']}/start")
        (final,) = [g["table"] for g in await round_tables(a, t["id"]) if g["final"]]
        featured = await a.ok("GET", "/api/featured")
        assert [(f["id"], f["final"]) for f in featured][:1] == [(final, True)], featured
        assert all(not f["final"] for f in featured[1:])
        assert other["id"] in {f["id"] for f in featured[1:]}  # featured, after the final


async def round_tables(p: Player, tid: str) -> list[dict[str, Any]]:
    """The tournament's games once each has its table (the round's tables are made as the
    round is paired)."""
    for _ in range(400):
        games = (await p.ok("GET", f"/api/tournaments/{tid}"))["games"]
        if games and all(g["table"] for g in games if g["b"] is not None):
            return [g for g in games if g["b"] is not None]
        await asyncio.sleep(0.05)
    raise AssertionError(f"tournament {tid}: its round's tables were not made in 20 s")
