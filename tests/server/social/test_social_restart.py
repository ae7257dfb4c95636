"""Results a stop kept from being written are written at the next start (issue 28): the match
committed its last action, the server went away before its history, stats and ratings."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from tests.server.helpers import Server
from tests.server.social.test_social import Browser, play_out
from tests.waiting import wait_until


@pytest.mark.slow
def test_results_lost_to_a_stop_are_written_at_the_next_start(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    url = f"sqlite+aiosqlite:///{db}"
    srv = Server(url, "--sweep", "0.3", "--bot-delay", "0", log=tmp_path / "1.log").start()
    try:
        a, b = Browser(srv, "Nadia"), Browser(srv, "Omar")
        r = a.send("POST", "/api/tables", {"game": "court-piece-2p", "options": {"target": 1},
                                           "live": False, "open": True, "first_seat": 0})
        tid = r.json()["id"]
        assert b.send("POST", f"/api/tables/{tid}/join", {}).status_code == 200
        play_out(tid, {0: a, 1: b}, random.Random(2))
        wait_until(lambda: a.http.get(f"/api/players/{a.id}").json()["recent"], timeout=30,
                   what="the result written")
        before = a.http.get(f"/api/players/{a.id}").json()
        ids = (a.id, b.id)
        a.http.close()
        b.http.close()
    finally:
        srv.stop()
    # what a stop right after the last commit leaves: the match over, no results
    with sqlite3.connect(db) as conn:
        for table in ("match_results", "player_stats", "ratings"):
            conn.execute(f"DELETE FROM {table}")
    srv = Server(url, "--sweep", "0.3", "--bot-delay", "0", log=tmp_path / "2.log").start()
    try:
        import httpx

        with httpx.Client(base_url=srv.base, timeout=10) as c:
            wait_until(lambda: c.get(f"/api/players/{ids[0]}").json()["recent"], timeout=30,
                       what="the result written at the next start")
            after = c.get(f"/api/players/{ids[0]}").json()
            assert after["ratings"] == before["ratings"]
            assert after["stats"] == before["stats"]
            assert [m["table"] for m in after["recent"]] == [tid]
            assert c.get(f"/api/players/{ids[1]}").json()["recent"][0]["table"] == tid
    finally:
        srv.stop()
    with sqlite3.connect(db) as conn:  # once only, however often it starts
        assert conn.execute("SELECT count(*) FROM match_results").fetchone() == (2,)
