"""An entry survives its instance killed mid-board (issue 45): ``taash serve`` is SIGKILLed
halfway through a board and started again on the same database; the entry and the board's
moves are all there, the player carries on where they were, and two tabs of theirs still
cannot play one move twice, nor a finished board again."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import Server

pytestmark = pytest.mark.slow  # two server starts


def move(tab: httpx.Client, eid: str, view: dict[str, Any], action: str,
         cid: str) -> httpx.Response:
    return tab.post(f"/api/events/{eid}/boards/{view['board']}/actions",
                    json={"action": action, "version": view["version"], "id": cid})


def test_an_entry_survives_a_kill_mid_board(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'events.db'}"
    srv = Server(db, log=tmp_path / "server.log").start()
    tab = httpx.Client(base_url=srv.base, timeout=20, headers={"Origin": srv.base})
    other = httpx.Client(base_url=srv.base, timeout=20, headers={"Origin": srv.base})
    try:
        assert tab.get("/api/me").status_code == 200  # the player's session cookie
        now = time.time()
        made = tab.post("/api/events", json={"game": "court-piece-2p", "boards": 2,
                                             "opens": now - 60, "closes": now + 3600})
        assert made.status_code == 201, made.text
        eid = made.json()["id"]
        assert tab.post(f"/api/events/{eid}/entry").status_code == 201
        view = tab.get(f"/api/events/{eid}/board").json()
        for i in range(5):  # the trump call and a few tricks: board 1 well under way
            r = move(tab, eid, view, view["view"]["legal_actions"][0], f"before-{i}")
            assert r.status_code == 200, r.text
            view = r.json()
        assert not view["done"] and view["version"] == 5
        srv.kill()  # SIGKILL: nothing flushed, nothing closed
        with pytest.raises(httpx.HTTPError):
            tab.get(f"/api/events/{eid}/board")
        srv.start()  # the same port, the same database
        # the entry and every move answered before the kill are kept: the same board, the
        # same position, on the same session
        after = tab.get(f"/api/events/{eid}/board")
        assert after.status_code == 200, after.text
        assert after.json() == view
        assert tab.get(f"/api/events/{eid}").json()["entered"] is True
        # a move answered before the kill, sent again (a retry across the restart): the
        # board as it is, not a second move
        again = move(tab, eid, {**view, "version": 4}, "play:AS", "before-4")
        assert again.status_code == 200 and again.json() == view
        # two tabs of the player, after the restart, send a move on the same version at
        # once: one is taken, the other is told to look again
        other.cookies.update(tab.cookies)
        legal = view["view"]["legal_actions"]
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(
                lambda i: move((tab, other)[i], eid, view, legal[i % len(legal)], f"tab-{i}"),
                range(2)))
        assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
        assert next(r for r in answers if r.status_code == 409).json()["error"]["code"] \
            == "stale"
        view = next(r for r in answers if r.status_code == 200).json()
        assert view["version"] == 6
        # the player carries on to the board's end, and the next board is theirs
        for i in range(60):
            if view["done"]:
                break
            r = move(other, eid, view, view["view"]["legal_actions"][0], f"after-{i}")
            assert r.status_code == 200, r.text
            view = r.json()
        assert view["done"] and view["next"] == 2
        # a finished board is not played twice, from either tab
        for t in (tab, other):
            r = move(t, eid, {**view, "version": view["version"]}, "play:AS", "late")
            assert r.status_code == 409 and "over" in r.json()["error"]["message"]
        # killed again at the start of board 2: the finished board 1 and its result stay
        srv.kill()
        srv.start()
        now_at = tab.get(f"/api/events/{eid}/board").json()
        assert now_at["board"] == 2 and now_at["version"] == 0
        done = tab.get(f"/api/events/{eid}/boards/1").json()
        assert done["done"] and done["result"] == view["result"]
        results = tab.get(f"/api/events/{eid}/boards/1/results").json()
        assert results["field"] == 1 and results["entries"][0]["result"] == view["result"]
    finally:
        tab.close()
        other.close()
        srv.stop()
