"""A push when an event you entered closes (issue 45), through ``taash serve``'s sweep and the
push service of tests/server/notify/test_push.py: each entrant subscribed for every table is
told once, in their language, their place; nobody else is told."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taash.server.config import Settings
from taash.server.store import push as push_store
from taash.server.store.db import Store
from taash.server.store.push import PushStore, PushSub
from tests.server.helpers import Server
from tests.server.notify.test_push import Browser, service
from tests.waiting import wait_until

__all__ = ["service"]  # the push service on 127.0.0.1, a fixture of this module too

pytestmark = pytest.mark.slow  # a server in a subprocess


@pytest.fixture
def pushing(tmp_path: Path, service: str) -> Iterator[Server]:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", "--sweep", "0.2",
                 "--push-allow-origins", service, log=tmp_path / "server.log").start()
    yield srv
    srv.stop()


def player(srv: Server) -> httpx.Client:
    me = httpx.Client(base_url=srv.base, timeout=20, headers={"Origin": srv.base})
    assert me.get("/api/me").status_code == 200
    return me


def subscribe(me: httpx.Client, browser: Browser, language: str) -> None:
    r = me.post("/api/me/push", json={"subscription": browser.json(), "language": language})
    assert r.status_code == 201, r.text


def play_board(me: httpx.Client, eid: str, pick: int) -> dict[str, Any]:
    view: dict[str, Any] = me.get(f"/api/events/{eid}/board").json()
    for _ in range(60):
        if view["done"]:
            return view
        legal = view["view"]["legal_actions"]
        r = me.post(f"/api/events/{eid}/boards/{view['board']}/actions",
                    json={"action": legal[pick if pick >= 0 else len(legal) + pick],
                          "version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    raise AssertionError("the board did not end")


def told(browser: Browser) -> list[dict[str, Any]]:
    return [m for m in map(browser.decrypt, browser.messages()) if m["type"] == "event_closed"]


def test_each_entrant_is_told_once_of_the_close_in_their_language(pushing: Server,
                                                                   service: str) -> None:
    host, ann, bob, cat = (player(pushing) for _ in range(4))
    browsers = {name: Browser(f"{service}/event-close/{name}/{time.time_ns()}")
                for name in ("ann", "bob", "cat")}
    subscribe(ann, browsers["ann"], "ru")
    subscribe(bob, browsers["bob"], "en")
    subscribe(cat, browsers["cat"], "en")  # cat enters nothing: told nothing
    now = time.time()

    def event() -> str:
        r = host.post("/api/events", json={"game": "court-piece-2p", "boards": 1,
                                           "opens": now - 60, "closes": now + 3600})
        assert r.status_code == 201, r.text
        eid: str = r.json()["id"]
        return eid

    eid = event()
    for p in (ann, bob):
        assert p.post(f"/api/events/{eid}/entry").status_code == 201
    a = play_board(ann, eid, 0)
    b = play_board(bob, eid, -1)
    assert host.post(f"/api/events/{eid}/close").status_code == 200
    wait_until(lambda: bool(told(browsers["ann"])) and bool(told(browsers["bob"])),
               timeout=20, what="the close's pushes")
    (to_ann,), (to_bob,) = told(browsers["ann"]), told(browsers["bob"])
    ranks = {"ann": to_ann["rank"], "bob": to_bob["rank"]}
    if a["result"]["tricks"] == b["result"]["tricks"]:
        assert ranks == {"ann": 1, "bob": 1}
    else:
        best = "ann" if a["result"]["tricks"] > b["result"]["tricks"] else "bob"
        assert ranks[best] == 1 and ranks["bob" if best == "ann" else "ann"] == 2
    assert to_ann["event"] == eid and to_ann["field"] == 2 and to_ann["lang"] == "ru"
    assert to_ann["title"] == "Корт-пис на двоих, дубликат: итоги"
    assert to_ann["body"].startswith(f"Ваше место: {to_ann['rank']} из 2 (")
    assert to_bob["title"] == "Court Piece for two duplicate: the results"
    assert to_bob["body"].startswith(f"You placed {to_bob['rank']} of 2 (")
    assert to_bob["url"] == f"/assets/events.html#{eid}"
    message = next(m for m in browsers["bob"].messages()
                   if browsers["bob"].decrypt(m)["type"] == "event_closed")
    assert message.headers["urgency"] == "low" and message.headers["topic"] == f"e{eid}"
    # told once: a second event closed later is told, and the first not again
    second = event()
    assert ann.post(f"/api/events/{second}/entry").status_code == 201
    assert host.post(f"/api/events/{second}/close").status_code == 200
    wait_until(lambda: len(told(browsers["ann"])) == 2, timeout=20, what="the second push")
    first, then = told(browsers["ann"])
    assert (first["event"], then["event"]) == (eid, second)
    assert then["rank"] is None and then["body"] == "Турнир закрыт: посмотрите таблицу."
    assert len(told(browsers["bob"])) == 1 and told(browsers["cat"]) == []
    for c in (host, ann, bob, cat):
        c.close()


async def test_a_fields_subscriptions_are_asked_in_chunks(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The subscriptions of a whole field at once, a few players per query: every player's
    own (for every table) that is on, none of a seat's, none of anyone else's."""
    monkeypatch.setattr(push_store, "TARGETS_CHUNK", 2)
    store = Store(Settings(db_url=f"sqlite:///{tmp_path / 'p.db'}").resolved_db_url())
    await store.migrate()
    subs = PushStore(store)

    def sub(i: int, scope: str, off: bool = False) -> PushSub:
        player = scope[2:] if scope.startswith("p:") else None
        return PushSub(f"s{i}", scope, f"https://push.example/{i}", "k", "a", None, None,
                       player, "en", off, None, None, 0, float(i))

    kept = [sub(i, f"p:pl{i}") for i in range(5)]
    for s in [*kept, sub(5, "p:pl0"), sub(6, "p:pl1", off=True), sub(7, "t:tab:0"),
              sub(8, "p:other")]:
        await subs.subscribe(s)
    got = await subs.players_targets([f"pl{i}" for i in range(5)])
    assert sorted(s.id for s in got) == ["s0", "s1", "s2", "s3", "s4", "s5"]
    assert await subs.players_targets([]) == []
    await store.close()
