"""Issue 28's tables and queries on PostgreSQL: a challenge between friends played to the end,
its ratings, history and stats, and results written once across a restart."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tests.server.helpers import Server
from tests.server.social.test_social import Browser, play_out
from tests.waiting import wait_until


@pytest.mark.slow
@pytest.mark.postgres
def test_friends_challenge_and_results_on_postgres(pg_url: str, tmp_path: Path) -> None:
    srv = Server(pg_url, "--sweep", "0.3", "--bot-delay", "0", log=tmp_path / "pg.log").start()
    try:
        a, b = Browser(srv, "Sana"), Browser(srv, "Tariq")
        code = a.http.get("/api/me/friends").json()["code"]
        assert b.send("POST", "/api/me/friends", {"code": code}).json()["state"] == "asked"
        assert a.send("POST", f"/api/me/friends/{b.id}/accept").json()["state"] == "friends"
        ch = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "court-piece-2p",
                                                   "options": {"target": 1}}).json()
        r = b.send("POST", f"/api/me/challenges/{ch['id']}/accept")
        assert r.status_code == 200, r.text
        tid = r.json()["table"]
        play_out(tid, {0: a, 1: b}, random.Random(4))
        wait_until(lambda: a.http.get(f"/api/players/{b.id}").json()["recent"], timeout=30,
                   what="the result written")
        pa = a.http.get(f"/api/players/{a.id}").json()
        pb = a.http.get(f"/api/players/{b.id}").json()
        ra = pa["ratings"]["court-piece-2p"]["rating"]
        rb = pb["ratings"]["court-piece-2p"]["rating"]
        assert (ra - 1500) * (rb - 1500) < 0
        assert pa["stats"]["court-piece-2p"]["matches"]["played"] == 1
        a.http.close()
        b.http.close()
    finally:
        srv.stop()
    srv = Server(pg_url, "--sweep", "0.3", log=tmp_path / "pg2.log").start()
    try:
        import httpx

        # the first sweep catches up results a stop kept from being written, and says nothing
        # when it is done: each look over three sweeps (0.3 s each) finds nothing written twice
        began = time.monotonic()
        with httpx.Client(base_url=srv.base, timeout=10) as c:
            def three_sweeps() -> bool:
                again = c.get(f"/api/players/{pa['id']}").json()
                assert again["ratings"] == pa["ratings"] and len(again["recent"]) == 1
                return time.monotonic() - began >= 0.9

            wait_until(three_sweeps, timeout=20, what="three sweeps", every=0.1)
    finally:
        srv.stop()
