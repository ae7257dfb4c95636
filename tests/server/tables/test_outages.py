"""Outages under two ``taash serve`` processes with one owner per table (issue 44): the bus
(Redis) killed and started again, and PostgreSQL cut off and back.  Neither touches the
services other tests share: Redis is this test's own ``redis-server`` (tests/server/outages.py)
and PostgreSQL is reached through a proxy the test cuts.

With owners, a table's moves go from its seats to its owner directly, or forwarded by the other
instance over HTTP and WebSockets: the bus carries only what another instance says of its
tables (a player renamed there, a seat token withdrawn, a session revoked).  So a Redis outage
stops no table, and what was said on the bus while it was away is read again from the store
once it is back.  While the database is away, an action is refused with 503 ``unavailable``
(``Retry-After``; on a socket an ``error`` with that code), none acknowledged and lost; once
it is back, play goes on without a restart and the owner keeps its tables under their fence."""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from taash.server.config import Settings
from taash.server.store.db import ActionRow, Store
from taash.server.store.leases import Lease
from tests.conftest import unavailable
from tests.server.accounts.test_players import Browser
from tests.server.helpers import Api, Server, pick_actor, tokens_of, ws_closes
from tests.server.outages import REDIS_SERVER, CutProxy, PrivateRedis
from tests.server.tables.test_live import next_message, ws_open
from tests.server.tables.test_owner_instances import cookie_ws
from tests.waiting import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

GAME, OPTIONS = "court-piece-2p", {"target": 1}


def two(db: str, redis: str, logs: Path, *extra: str) -> tuple[Server, Server]:
    a, b = (Server(db, "--redis", redis, "--bot-delay", "0", *extra, log=logs / f"{n}.log")
            for n in "ab")
    threads = [threading.Thread(target=s.start) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert a.proc is not None and b.proc is not None and a.port and b.port
    return a, b


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if not os.access(REDIS_SERVER, os.X_OK):
        unavailable(f"no {REDIS_SERVER} to run a private Redis on")
    r = PrivateRedis(tmp_path)
    r.start()
    yield r
    r.kill()


class Socket:
    """One seat's live socket and what came on it: the view (with each event), the acks, the
    refusals, the chat and the latest table info."""

    def __init__(self, server: Server, table: str, seat: int, token: str) -> None:
        self.seat, self.ws = seat, ws_open(server, table, token)
        self.version, self.view, self.info = -1, {}, {}
        self.acks: dict[str, int] = {}
        self.errors: dict[str, dict[str, Any]] = {}
        self.chat: list[dict[str, Any]] = []

    def read(self) -> None:
        msg = next_message(self.ws)
        kind = msg["type"]
        if kind in ("view", "event"):
            assert kind == "view" or msg["version"] == self.version + 1, msg
            self.version, self.view = msg["version"], msg["view"]
            self.info = msg["view"]["table"]
        elif kind == "table":
            self.info = msg["table"]
        elif kind == "ack":
            self.acks[msg["id"]] = msg["version"]
        elif kind == "error":
            self.errors[msg.get("id") or ""] = msg["error"]
        elif kind == "chat":
            self.chat.append(msg)

    def until(self, done: Any) -> None:
        """Read on until ``done()`` (each read waits 15 s at most)."""
        for _ in range(10_000):
            if done():
                return
            self.read()
        raise AssertionError("no end to the messages")

    def close(self) -> None:
        self.ws.close()


class Table:
    """A two-seat table played through its seats' sockets (on ``via``) and over HTTP (``api``),
    each action with a client id, and the version each acknowledgement gave."""

    def __init__(self, api: Api, via: Server, tid: str, tokens: dict[int, str],
                 seed: int) -> None:
        self.api, self.tid, self.tokens = api, tid, tokens
        self.socks = {s: Socket(via, tid, s, tok) for s, tok in tokens.items()}
        self.rng = random.Random(seed)
        self.acked: dict[str, int] = {}
        self.n = 0
        self.settle()

    @property
    def version(self) -> int:
        return min(s.version for s in self.socks.values())

    def settle(self) -> None:
        """Every seat's socket has seen every acknowledged action."""
        want = max([0, *self.acked.values()])
        for s in self.socks.values():
            s.until(lambda s=s: s.version >= want)

    def move(self, over_http: bool) -> None:
        """One move (over HTTP or its seat's socket), acknowledged, seen by both seats."""
        views = {s: x.view for s, x in self.socks.items()}
        assert not views[0]["over"], "the match ended: play a longer one"
        seat, action = pick_actor(views, self.rng) or (-1, "")
        cid = f"{self.tid}-{self.n}"
        self.n += 1
        if over_http:
            r = self.api.act(self.tid, self.tokens[seat], action, cid=cid)
            assert r.status_code == 200, r.text
            self.acked[cid] = r.json()["version"]
        else:
            sock = self.socks[seat]
            sock.ws.send(json.dumps({"type": "action", "action": action, "id": cid}))
            sock.until(lambda: cid in sock.acks or cid in sock.errors)
            assert cid in sock.acks, sock.errors[cid]
            self.acked[cid] = sock.acks[cid]
        self.settle()

    def moves(self, n: int) -> None:
        for i in range(n):
            self.move(over_http=bool(i % 2))

    def close(self) -> None:
        for s in self.socks.values():
            s.close()


def stored(pg_url: str, table_id: str) -> tuple[Lease | None, list[ActionRow]]:
    async def read() -> tuple[Lease | None, list[ActionRow]]:
        store = Store(Settings(db_url=pg_url).resolved_db_url())
        try:
            return await store.lease_of(table_id), await store.load_actions(table_id)
        finally:
            await store.close()

    return asyncio.run(read())


def check_once(pg_url: str, table: Table) -> Lease:
    """Every acknowledged action of the table is stored once, at the version it was
    acknowledged at, and nothing else is; the table's lease."""
    lease, rows = stored(pg_url, table.tid)
    assert {r.client_id: r.version for r in rows} == table.acked
    assert [r.version for r in rows] == list(range(1, len(table.acked) + 1))
    assert lease is not None
    return lease


def test_a_redis_outage_stops_no_table_and_what_the_bus_missed_heals_once_it_is_back(
        pg_url: str, private_redis: PrivateRedis, tmp_path: Path) -> None:
    a, b = two(pg_url, private_redis.url, tmp_path)
    api_a, api_b = Api(a.base), Api(b.base)
    player = Browser(a)  # a player of the site (a cookie session), on a
    player.first_visit()
    on_b = Browser(b)  # the same player's session, on b
    on_b.http.cookies.set("taash_session", player.http.cookies["taash_session"])
    tables: list[Table] = []
    try:
        # T1, made through a and played there (its owner), with the player at seat 0
        t1 = player.create(GAME, options=OPTIONS, seats=[{"type": "human"}] * 2)
        tid1, tokens1 = t1["id"], tokens_of(t1)
        own = Table(api_a, a, tid1, tokens1, seed=1)
        tables.append(own)
        # T2, made through a (a owns it), its seats and actions through b (forwarded)
        t2 = api_a.create(GAME, OPTIONS, [{"type": "human"}] * 2)
        far = Table(api_b, b, t2["id"], tokens_of(t2), seed=2)
        tables.append(far)
        own.moves(2)
        far.moves(2)

        private_redis.kill()
        down = time.monotonic()
        # both tables play on, through their owner and through the other instance
        own.moves(4)
        far.moves(4)
        print(f"\n8 moves while Redis was away took {time.monotonic() - down:.2f} s")
        # presence: the owner holds every seat's connection, those through b too
        for t in tables:
            assert all(s["connected"] for s in t.socks[0].info["seats"]), t.socks[0].info
        # chat said through b reaches the seats at a (forwarded to the owner, no bus)
        r = api_b.http.post(f"/api/tables/{tid1}/chat", headers=Api.auth(tokens1[0]),
                            json={"emoji": "👍"})
        assert r.status_code == 200, r.text
        for s in own.socks.values():
            s.until(lambda s=s: any(m.get("emoji") == "👍" for m in s.chat))
        # the player renames themself on b: b tells the owner of T1 on the bus, which is away
        r = on_b.send("PATCH", "/api/me", {"name": "Renamed Away"})
        assert r.status_code == 200, r.text
        # Redis stays away until each instance has tried the bus again a few times (about
        # a second apart; the outage was 10 s): presence said, moves published meanwhile
        wait_until(lambda: all(_retries(s) >= 8 for s in (a, b)), timeout=30, every=0.2,
                   what="both instances retrying the bus")
        own.moves(1)
        far.moves(1)
        assert own.socks[1].info["seats"][0]["name"] != "Renamed Away"

        private_redis.start()
        back = time.monotonic()
        print(f"Redis was away {back - down:.1f} s")
        # the owner reads what it may have missed once the bus is back: the new name
        own.socks[1].until(lambda: own.socks[1].info["seats"][0]["name"] == "Renamed Away")
        print(f"\nthe rename said during the outage reached the owner's seats "
              f"{time.monotonic() - back:.2f} s after Redis was back")
        # and the bus carries what is said from now on: b's next rename reaches a
        tries = iter(range(1, 21))

        def renamed_again() -> bool:
            name = f"Renamed Back {next(tries)}"
            r = on_b.send("PATCH", "/api/me", {"name": name})
            assert r.status_code == 200, r.text
            return _named(own, name)

        wait_until(renamed_again, timeout=20, every=0, what="a rename on b told to a on the bus")
        print(f"a rename on b reached a through the bus {time.monotonic() - back:.2f} s "
              "after Redis was back")
        own.moves(3)
        far.moves(3)
        # a session revoked on b ends its socket at a (the owner) through the bus
        secret = player.http.cookies["taash_session"]
        with cookie_ws(a, tid1, secret, a.base) as ws:
            assert next_message(ws)["type"] == "view"
            mine = [x for x in on_b.http.get("/api/me/sessions").json() if x["current"]]
            r = on_b.send("DELETE", f"/api/me/sessions/{mine[0]['id']}")
            assert r.status_code == 200, r.text
            ws_closes(ws, ("view", "event", "table", "ping", "chat"), timeout=15)
        for t in tables:
            lease = check_once(pg_url, t)
            assert lease.owner and lease.fence == 1 and lease.address == a.base
    finally:
        for t in tables:
            t.close()
        player.close()
        on_b.close()
        api_a.close()
        api_b.close()
        a.stop()
        b.stop()


def test_a_redis_that_stops_answering_stops_no_table(
        pg_url: str, private_redis: PrivateRedis, tmp_path: Path) -> None:
    """Redis's host gone or the network to it cut: nothing is refused, nothing answers (a
    proxy that passes nothing on).  A publish must not hold a table's actions up until the
    kernel gives up on the connection (minutes): each instance gives the bus a short time,
    then says nothing on it for a moment, and the tables play on."""
    proxy = CutProxy("127.0.0.1", private_redis.port).start()
    a, b = two(pg_url, proxy.url(private_redis.url), tmp_path)
    api_a, api_b = Api(a.base), Api(b.base)
    player = Browser(a)
    player.first_visit()
    on_b = Browser(b)  # the same player's session, on b
    on_b.http.cookies.set("taash_session", player.http.cookies["taash_session"])
    tables: list[Table] = []
    try:
        t1 = player.create(GAME, options=OPTIONS, seats=[{"type": "human"}] * 2)
        tables.append(own := Table(api_a, a, t1["id"], tokens_of(t1), seed=4))
        t2 = api_a.create(GAME, OPTIONS, [{"type": "human"}] * 2)
        tables.append(far := Table(api_b, b, t2["id"], tokens_of(t2), seed=5))
        own.moves(2)
        far.moves(2)
        proxy.freeze()
        frozen = time.monotonic()
        own.moves(6)  # each acknowledged and seen by both seats (a read waits 15 s at most)
        far.moves(6)
        print(f"\n12 moves while Redis did not answer took {time.monotonic() - frozen:.2f} s")
        # a player at the owner's table renames themself on b, which cannot publish it
        r = on_b.send("PATCH", "/api/me", {"name": "Renamed Unheard"})
        assert r.status_code == 200, r.text
        proxy.restore()
        # b, publishing again, has the others read their seats again: the name reaches a
        own.socks[1].until(lambda: own.socks[1].info["seats"][0]["name"] == "Renamed Unheard")
        own.moves(2)
        far.moves(2)
        for t in tables:
            check_once(pg_url, t)
    finally:
        for t in tables:
            t.close()
        player.close()
        on_b.close()
        api_a.close()
        api_b.close()
        a.stop()
        b.stop()
        proxy.close()


def _retries(server: Server) -> int:
    """How many times the instance has found the bus away and tried it again (its log)."""
    assert server.log is not None
    return sum("event bus:" in line and "reconnecting" in line
               for line in server.log.read_text().splitlines())


def _named(table: Table, name: str) -> bool:
    """Whether seat 1's socket, read for up to a second, shows seat 0 named ``name``."""
    sock = table.socks[1]
    deadline = time.monotonic() + 1
    while time.monotonic() < deadline:
        if sock.info["seats"][0]["name"] == name:
            return True
        try:
            msg = json.loads(sock.ws.recv(timeout=0.2))
        except TimeoutError:
            continue
        if msg["type"] == "table":
            sock.info = msg["table"]
        elif msg["type"] in ("view", "event"):
            sock.version, sock.view, sock.info = msg["version"], msg["view"], msg["view"]["table"]
    return bool(sock.info["seats"][0]["name"] == name)


def _count(server: Server, text: str) -> int:
    assert server.log is not None
    return sum(text in line for line in server.log.read_text().splitlines())


def test_a_postgresql_outage_refuses_actions_with_try_again_and_play_resumes_once_it_is_back(
        pg_url: str, redis_url: str, tmp_path: Path) -> None:
    proxy = CutProxy().start()  # the instances reach PostgreSQL through it
    a, b = two(proxy.url(pg_url), redis_url, tmp_path)
    api_a = Api(a.base)
    t = api_a.create(GAME, OPTIONS, [{"type": "human"}] * 2)
    own = Table(api_a, a, t["id"], tokens_of(t), seed=3)
    # a human and a bot that moves 1.5 s after each change (a live table)
    t = api_a.create(GAME, OPTIONS, [{"type": "human"}, {"type": "bot", "level": "random"}],
                     live=True, bot_delay_ms=1500)
    human = Socket(a, t["id"], 0, tokens_of(t)[0])
    try:
        own.moves(3)
        before, _ = stored(pg_url, own.tid)
        assert before is not None
        human.until(lambda: human.version >= 0)
        for i in range(40):  # the human moves until it is the bot's turn
            if human.view["to_move"] == 1:
                break
            r = api_a.act(human.view["table"]["id"], tokens_of(t)[0],
                          human.view["legal_actions"][0], cid=f"h{i}")
            assert r.status_code == 200, r.text
            got = r.json()["version"]
            human.until(lambda v=got: human.version >= v)
        bot_due = human.version
        proxy.cut()  # the bot's move comes while the database is away
        views = {s: x.view for s, x in own.socks.items()}
        seat, action = pick_actor(views, own.rng) or (-1, "")
        # over HTTP: 503 unavailable, try again (Retry-After), nothing kept
        r = api_a.act(own.tid, own.tokens[seat], action, cid="down-http")
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "unavailable" and int(r.headers["retry-after"]) >= 1
        # over the socket: an error message with the same code; the socket stays open
        sock = own.socks[seat]
        sock.ws.send(json.dumps({"type": "action", "action": action, "id": "down-ws"}))
        sock.until(lambda: "down-ws" in sock.errors or "down-ws" in sock.acks)
        assert sock.errors["down-ws"]["code"] == "unavailable", sock.errors
        # b, asked for the table, cannot read who owns it: 503 too, over HTTP and the socket
        api_b = Api(b.base)
        r = api_b.http.get(f"/api/tables/{own.tid}")
        api_b.close()
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", r.text
        with ws_open(b, own.tid, own.tokens[0]) as ws:
            msg = next_message(ws)
            assert msg["type"] == "error" and msg["error"]["code"] == "unavailable", msg
            with pytest.raises(ConnectionClosed):
                next_message(ws)
            assert ws.close_code == 4503
        # the database stays away past the lease (5 s): the owner's renewals fail meanwhile
        wait_until(lambda: _count(a, "leases not renewed") >= 4, timeout=30, every=0.2,
                   what="the owner's lease renewals failing")
        r = api_a.act(own.tid, own.tokens[seat], action, cid="down-http")
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", r.text
        proxy.restore()
        back = time.monotonic()

        def accepted() -> bool:  # the client's retry, the same id, until acknowledged
            sock.errors.pop("down-ws", None)
            sock.ws.send(json.dumps({"type": "action", "action": action, "id": "down-ws"}))
            sock.until(lambda: "down-ws" in sock.errors or "down-ws" in sock.acks)
            if "down-ws" in sock.errors:
                assert sock.errors["down-ws"]["code"] == "unavailable", sock.errors
                return False
            return True

        wait_until(accepted, timeout=30, every=0.2, what="the action accepted again")
        own.acked["down-ws"] = sock.acks["down-ws"]
        print(f"\nthe first action after PostgreSQL was back was accepted "
              f"{time.monotonic() - back:.2f} s after it")
        own.settle()
        own.moves(4)
        human.until(lambda: human.version > bot_due)  # the bot's move, once it is back
        assert _count(a, "could not be stored") == 0  # a refusal to retry, not a fault
        # the owner renewed its lease when the database came back: same owner, same fence
        after = check_once(pg_url, own)
        assert (after.owner, after.fence, after.address) == (before.owner, before.fence, a.base)
        wait_until(lambda: (stored(pg_url, own.tid)[0] or before).expires > time.time() + 2,
                   timeout=20, every=0.5, what="the lease renewed")
        assert a.proc is not None and a.proc.poll() is None  # never restarted
    finally:
        own.close()
        human.close()
        api_a.close()
        a.stop()
        b.stop()
        proxy.close()
