"""`taash event` against a real server: list, the daily event, enter, and play every board
from the terminal (stopping midway and coming back), with one-line refusals."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.conftest import run_taash
from tests.server.helpers import Server

pytestmark = pytest.mark.slow


def test_enter_and_play_an_event_from_the_terminal(server: Server) -> None:
    base = server.base
    with httpx.Client(base_url=base, timeout=20, headers={"Origin": base}) as web:
        assert web.get("/api/me").status_code == 200
        now = time.time()
        r = web.post("/api/events", json={"game": "court-piece-2p", "boards": 2,
                                          "opens": now - 60, "closes": now + 3600})
        assert r.status_code == 201, r.text
        eid = r.json()["id"]
        r = web.post("/api/me/tokens", json={"name": "terminal", "scopes": ["play"]})
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        flags = ["--server", base, "--token", token]

        out = run_taash("event", "enter", eid, *flags)
        assert out.returncode == 0, out.stderr
        assert f"entered {eid}: 2 boards" in out.stdout
        again = run_taash("event", "enter", eid, *flags)
        assert again.returncode == 1
        assert again.stderr.strip().splitlines() == [
            "taash: you have entered this event already (one entry per player)"]

        listed = run_taash("event", "list", *flags)
        assert listed.returncode == 0, listed.stderr
        assert f"{eid}  court-piece-2p  2 boards  open  1 entrants" in listed.stdout
        assert "(entered)" in listed.stdout

        # one move, a refused one, then stop: the entry keeps the move
        out = run_taash("event", "play", eid, *flags, input="1\nplay:XX\nplay:2C,3C\nq\n")
        assert out.returncode == 0, out.stderr
        assert "board 1 of 2" in out.stdout and "refused:" in out.stdout
        assert "stopped: your entry is kept" in out.stdout
        board = web.get(f"/api/events/{eid}/board").json()
        assert board["board"] == 1 and board["version"] == 1

        # come back: always the first legal move, to the end of both boards
        out = run_taash("event", "play", eid, *flags, input="1\n" * 200)
        assert out.returncode == 0, out.stderr
        assert "board 1 over: your side took" in out.stdout
        assert "board 2 over: your side took" in out.stdout
        assert "every board played" in out.stdout
        standings = web.get(f"/api/events/{eid}/standings").json()
        assert standings["provisional"] is True and standings["standings"][0]["boards"] == 2

    daily = run_taash("event", "daily", "goat", "--server", base)
    assert daily.returncode == 0, daily.stderr
    assert "daily-goat-" in daily.stdout and "commit " in daily.stdout
    bad = run_taash("event", "play", "no-such-event", *flags)
    assert bad.returncode == 1 and bad.stderr.strip() == "taash: no event 'no-such-event'"
