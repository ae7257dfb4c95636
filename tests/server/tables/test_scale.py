"""Scale out: PostgreSQL as the store, Redis as the bus, two server processes sharing them.

This module makes its own database (dropped at the end) on 127.0.0.1:5432 (the pg_url and
redis_url fixtures, in conftest.py); the Redis channel is named after the database, so
sessions never hear each other.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taash.record import verify
from tests.server.helpers import Api, Server, Truth, pick_actor, tokens_of, ws_closes
from tests.server.tables.test_http import SEATS, SHORT
from tests.server.tables.test_live import Seat, connected


@pytest.fixture(scope="module")
def pair(pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Server, Server]]:
    """Two instances on one database and one bus, started at once (migrations race)."""
    folder: Path = tmp_path_factory.mktemp("scale")
    a = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", log=folder / "a.log")
    b = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", log=folder / "b.log")
    threads = [threading.Thread(target=s.start) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    yield a, b
    a.stop()
    b.stop()


def finish(api: Api, table: str, tokens: dict[int, str], rng: random.Random) -> None:
    for _ in range(3000):
        views = {s: api.view(table, tok) for s, tok in tokens.items()}
        if views[0]["over"]:
            return
        seat, action = pick_actor(views, rng) or (-1, "")
        r = api.act(table, tokens[seat], action)
        assert r.status_code == 200, r.text
    raise AssertionError("match did not end")


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_store_survives_sigkill(pg_url: str, tmp_path: Path) -> None:
    srv = Server(pg_url, "--bot-delay", "0", log=tmp_path / "pg.log").start()
    api = Api(srv.base)
    t = api.create("court-piece", SHORT["court-piece"], [{"type": "human"}] * 4)
    tid, tokens = t["id"], tokens_of(t)
    rng = random.Random(9)
    for _ in range(12):
        views = {s: api.view(tid, tok) for s, tok in tokens.items()}
        seat, action = pick_actor(views, rng) or (-1, "")
        assert api.act(tid, tokens[seat], action).status_code == 200
    before = api.view(tid, tokens[0])
    api.close()
    srv.kill()
    srv = Server(pg_url, "--bot-delay", "0", log=tmp_path / "pg.log").start()
    api = Api(srv.base)
    after = api.view(tid, tokens[0])
    assert after["version"] == before["version"] == 12
    assert after["hand"] == before["hand"]
    finish(api, tid, tokens, rng)
    rec = api.record(tid)
    assert verify({k: v for k, v in rec.items() if k != "table"})["match"]["over"]
    api.close()
    assert srv.stop() == 0


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.parametrize("game", ["court-piece-2p", "goat"])
def test_events_reach_seats_on_the_other_instance(pair: tuple[Server, Server],
                                                  game: str) -> None:
    a, b = pair
    api_a, api_b = Api(a.base), Api(b.base)
    t = api_a.create(game, SHORT[game], [{"type": "human"}] * SEATS[game])
    tid, tokens = t["id"], tokens_of(t)
    # seats split over the two instances; actions go to either, at random
    seats = {s: Seat(a if s % 2 else b, tid, s, tok) for s, tok in tokens.items()}
    rng = random.Random(6)
    version = 0
    try:
        for s in seats.values():
            s.read_until(0)
        while not seats[0].view["over"]:
            seat, action = pick_actor({s: x.view for s, x in seats.items()}, rng) or (-1, "")
            api = api_a if rng.random() < 0.5 else api_b
            r = api.act(tid, tokens[seat], action, cid=f"x{version}")
            assert r.status_code == 200, r.text
            version += 1
            assert r.json()["version"] == version
            for s in seats.values():
                s.read_until(version)
    finally:
        for s in seats.values():
            s.close()
    truth = Truth(api_a.record(tid))
    for s in seats.values():
        assert [m["version"] for m in s.got] == list(range(version + 1))
        for m in s.got:
            truth.check_view(s.seat, m["version"], m["view"])
    api_a.close()
    api_b.close()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_table_messages_reach_seats_on_the_other_instance(pair: tuple[Server, Server]) -> None:
    """Who is connected, and a seat given to a bot, whichever instance it happens on."""
    a, b = pair
    api_a, api_b = Api(a.base), Api(b.base)
    t = api_a.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2)
    tid, tokens = t["id"], tokens_of(t)
    me = Seat(a, tid, 0, tokens[0])
    me.read_until(0)
    friend = Seat(b, tid, 1, tokens[1])
    friend.read_until(0)
    me.read_table(connected(1))
    friend.read_table(connected(0))  # b asked who is connected elsewhere when it loaded
    friend.close()
    me.read_table(connected(1, False))
    r = api_b.http.post(f"/api/tables/{tid}/leave", headers=api_b.auth(tokens[1]))
    assert r.status_code == 200
    assert me.read_table(lambda i: i["seats"][1]["type"] == "bot")["seats"][1]["level"] == "easy"
    me.close()
    api_a.close()
    api_b.close()


def race(urls: list[str], token: str, bodies: list[dict[str, Any]]) -> list[httpx.Response]:
    """POST the bodies at the same moment, one per instance."""
    gate = threading.Barrier(len(urls))
    out: list[Any] = [None] * len(urls)

    def go(i: int) -> None:
        with httpx.Client(timeout=20) as c:
            gate.wait()
            out[i] = c.post(urls[i], json=bodies[i], headers={"Authorization": f"Bearer {token}"})

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(urls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_racing_actions_on_two_instances_apply_exactly_one(pair: tuple[Server, Server]) -> None:
    a, b = pair
    api = Api(a.base)
    outcomes = set()
    for i in range(12):
        t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                       first_seat=0)
        tid, tok = t["id"], tokens_of(t)[0]
        # warm both instances' rooms, so both believe version 0 is current
        for srv in (a, b):
            assert httpx.get(f"{srv.base}/api/tables/{tid}").json()["version"] == 0
        urls = [f"{srv.base}/api/tables/{tid}/actions" for srv in (a, b)]
        suits = ["S", "H"] if i % 2 else ["H", "S"]
        rs = race(urls, tok, [{"action": f"trump:{s}", "id": f"r{i}{s}"} for s in suits])
        codes = sorted(r.status_code for r in rs)
        assert codes == [200, 409], [r.text for r in rs]
        loser = next(r for r in rs if r.status_code == 409).json()["error"]
        assert loser["code"] in ("illegal", "conflict")
        outcomes.add(loser["code"])
        winner = next(r for r in rs if r.status_code == 200).json()
        assert winner["version"] == 1
        for srv in (a, b):
            view = httpx.get(f"{srv.base}/api/tables/{tid}/view",
                             headers={"Authorization": f"Bearer {tok}"}).json()
            assert view["version"] == 1
            assert view["trump"] == winner["events"][0]["action"][-1]
        rec = api.record(tid)
        assert len(rec["deals"][0]["actions"]) == 1
        # the same client id through both instances at once: applied once, answered alike
        lead = httpx.get(f"{a.base}/api/tables/{tid}/view",
                         headers={"Authorization": f"Bearer {tok}"}).json()["legal_actions"][0]
        rs = race(urls, tok, [{"action": lead, "id": f"same{i}"}] * 2)
        assert [r.status_code for r in rs] == [200, 200]
        assert rs[0].json() == rs[1].json() and rs[0].json()["version"] == 2
    api.close()
    assert outcomes <= {"illegal", "conflict"}


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_a_session_revoked_on_one_instance_ends_on_the_other(pair: tuple[Server, Server]
                                                             ) -> None:
    """Players on two instances: the session made on one is known on the other, and revoked
    there its socket on the first closes at once (the bus), its requests refused."""
    import json

    from tests.server.accounts.test_players import _ws

    a, b = pair
    with httpx.Client(base_url=a.base) as on_a, httpx.Client(base_url=b.base) as on_b:
        on_a.get("/")
        secret = on_a.cookies["taash_session"]
        on_b.cookies.set("taash_session", secret)
        assert on_a.get("/api/me").json()["id"] == on_b.get("/api/me").json()["id"]
        r = on_a.post("/api/tables", json={"game": "court-piece-2p", "live": False,
                                           "seats": [{"type": "human"}, {"type": "bot"}]},
                      headers={"Origin": a.base})
        tid = r.json()["id"]
        assert [m["id"] for m in on_b.get("/api/me/tables").json()] == [tid]
        ws = _ws(a, tid, secret, a.base)
        assert json.loads(ws.recv(timeout=10))["type"] == "view"
        session = on_b.get("/api/me/sessions").json()[0]["id"]
        assert on_b.delete(f"/api/me/sessions/{session}",
                           headers={"Origin": b.base}).status_code == 200
        # the bot seat may move before the close comes: its event is read past too
        ws_closes(ws, ("ping", "table", "event"))
        ws.close()
        with httpx.Client(base_url=a.base, cookies={"taash_session": secret}) as again:
            assert again.get(f"/api/tables/{tid}/view?seat=0").status_code == 401
