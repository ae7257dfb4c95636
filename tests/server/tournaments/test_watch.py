"""A tournament's table watched (issues 47 and 48): it is rated-able and live, so spectators
see it one deal behind; at every point of a match its public view and record, asked without a
seat, are at the delayed version and show no hand."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.server.tables.test_spectators import expected_version
from tests.server.tournaments.helpers import T0, site, swiss_body
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
        s.now = T0 + 600
        await organiser.ok("POST", f"/api/tournaments/{tid}/start")
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
