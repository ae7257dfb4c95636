"""Two tabs moving on one board at the same moment: exactly one move is taken, on SQLite and
on PostgreSQL, and the board holds it once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from taash.server.store.events import BoardRow
from tests.server.events.helpers import event_body, site

pytestmark = pytest.mark.slow  # a server in process per test, each over a second


async def race(tmp_path: Path, db_url: str | None = None) -> None:
    async with site(tmp_path, db_url) as s:
        host, ann = await s.player(), await s.player()
        ev = await host.ok("POST", "/api/events", event_body(game="goat"), status=201)
        eid = ev["id"]
        await ann.ok("POST", f"/api/events/{eid}/entry", status=201)
        view = await ann.ok("GET", f"/api/events/{eid}/board")
        legal, v = view["view"]["legal_actions"], view["version"]
        tabs = [ann, await s.player()]
        tabs[1].http.cookies.update(ann.http.cookies)  # the same player's second tab
        answers = await asyncio.gather(*(
            tab.act(eid, 1, legal[i % len(legal)], version=v, cid=f"tab{i}")
            for i, tab in enumerate(tabs)))
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409], [r.text for r in answers]
        lost = next(r for r in answers if r.status_code == 409)
        assert lost.json()["error"]["code"] == "stale"
        won = next(r for r in answers if r.status_code == 200).json()
        now = await ann.ok("GET", f"/api/events/{eid}/board")
        assert now == won and now["version"] == v + 1


async def test_two_tabs_at_once_take_one_move(tmp_path: Path) -> None:
    await race(tmp_path)


@pytest.mark.postgres
async def test_two_tabs_at_once_take_one_move_on_postgres(tmp_path: Path, pg_url: str) -> None:
    await race(tmp_path, pg_url)


async def test_the_store_writes_a_boards_version_once(tmp_path: Path) -> None:
    """Past the service's own check: two writes that both read version 0 (two instances, or
    two requests interleaved), and only the first is kept."""
    async with site(tmp_path) as s:
        host, ann = await s.player(), await s.player()
        ev = await host.ok("POST", "/api/events", event_body(), status=201)
        await ann.ok("POST", f"/api/events/{ev['id']}/entry", status=201)
        store = s.services.events.store
        (row,) = await store.boards_of(ev["id"], ann.id)
        first = BoardRow(row.event_id, row.player_id, 1, [*row.actions, {"seat": 0,
                         "action": "a"}], 1, "one")
        second = BoardRow(row.event_id, row.player_id, 1, [*row.actions, {"seat": 0,
                          "action": "b"}], 1, "two")
        assert await store.save_board(first, 0, None) is True
        assert await store.save_board(second, 0, None) is False
        (kept,) = await store.boards_of(ev["id"], ann.id)
        assert kept.last_id == "one" and kept.actions[-1] == {"seat": 0, "action": "a"}
