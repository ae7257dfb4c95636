"""One owner per table across two server processes on PostgreSQL + Redis (issue 44): a table
made through one instance and played through the other is played by its owner alone (the
other passes its requests on and reads none of its moves); SIGKILL of the owner mid-deal, and
the other takes the table once its lease runs out, the deal finishes through it, and the
record verifies with every acknowledged action in it once."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from taash.server.config import Settings
from taash.server.store.db import ActionRow, Store
from taash.server.store.leases import Lease
from tests.server.accounts.test_players import Browser
from tests.server.helpers import Api, Server, pick_actor, tokens_of
from tests.server.tables.test_http import SHORT
from tests.server.tables.test_live import Seat, stream_lines
from tests.waiting import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

TOKEN = "owner-test-metrics-token"
LEASE_S = 5.0  # the default --lease


@pytest.fixture
def pair(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    a, b = (Server(pg_url, "--redis", redis_url, "--bot-delay", "0", "--metrics-token", TOKEN,
                   log=tmp_path / f"{n}.log") for n in "ab")
    threads = [threading.Thread(target=s.start) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    yield a, b
    a.stop()
    b.stop()


def scrape(server: Server) -> dict[str, float]:
    r = httpx.get(server.base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"},
                  timeout=5)
    assert r.status_code == 200, r.text
    out: dict[str, float] = {}
    for fam in text_string_to_metric_families(r.text):
        for s in fam.samples:
            key = s.name + "".join(f",{k}={v}" for k, v in sorted(s.labels.items()))
            out[key] = s.value
    return out


def accepted(m: dict[str, float]) -> float:
    return sum(v for k, v in m.items()
               if k.startswith("taash_actions_total,") and "result=accepted" in k)


def stored(pg_url: str, table_id: str) -> tuple[Lease | None, list[ActionRow]]:
    """The table's lease and its actions, as the database has them."""
    async def read() -> tuple[Lease | None, list[ActionRow]]:
        store = Store(Settings(db_url=pg_url).resolved_db_url())
        try:
            return await store.lease_of(table_id), await store.load_actions(table_id)
        finally:
            await store.close()

    return asyncio.run(read())


def verify_cli(rec: dict[str, Any], path: Path) -> dict[str, Any]:
    path.write_text(json.dumps(rec))
    p = subprocess.run([sys.executable, "-m", "taash", "record", "verify", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    out: dict[str, Any] = json.loads(p.stdout)
    return out


class BusWatch:
    """Every message on the Redis bus's channels (all of them) that names table ``tid``."""

    def __init__(self, redis_url: str, tid: str) -> None:
        import redis

        self.tid = tid
        self.heard: list[dict[str, Any]] = []
        self.client = redis.Redis.from_url(redis_url)
        self.ps = self.client.pubsub(ignore_subscribe_messages=True)
        self.ps.psubscribe("*")
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            m = self.ps.get_message(timeout=0.2)
            if m is None or not isinstance(m.get("data"), bytes):
                continue
            try:
                msg = json.loads(m["data"])
            except ValueError:
                continue
            if isinstance(msg, dict) and msg.get("t") == self.tid:
                self.heard.append(msg)

    def close(self) -> list[dict[str, Any]]:
        self.stop.set()
        self.thread.join(5)
        self.ps.close()
        self.client.close()
        return self.heard


def play_moves(seats: dict[int, Seat], api: Api, tid: str, tokens: dict[int, str],
               rng: random.Random, moves: int | None = None) -> int:
    """Play ``moves`` moves (None: to the match's end), over a seat's socket and over HTTP in
    turn, each seen by every seat; the table's version after them."""
    version = 0
    for s in seats.values():
        s.read_until(0)
    while (version < moves) if moves is not None else not seats[0].view["over"]:
        seat, action = pick_actor({s: x.view for s, x in seats.items()}, rng) or (-1, "")
        if version % 2:  # over the socket and over HTTP, in turn
            seats[seat].ws.send(json.dumps({"type": "action", "action": action,
                                            "id": f"w{version}"}))
            seats[seat].read_until(version + 1, ack=f"w{version}")
        else:
            r = api.act(tid, tokens[seat], action, cid=f"h{version}")
            assert r.status_code == 200, r.text
        version += 1
        for s in seats.values():
            s.read_until(version)
    return version


def test_a_table_made_through_one_instance_is_played_through_the_other(
        pair: tuple[Server, Server], tmp_path: Path, redis_url: str) -> None:
    a, b = pair
    api_a, api_b = Api(a.base), Api(b.base)
    t = api_a.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2)
    tid, tokens = t["id"], tokens_of(t)
    bus = BusWatch(redis_url, tid)
    before_a, before_b = scrape(a), scrape(b)
    seats = {s: Seat(b, tid, s, tok) for s, tok in tokens.items()}  # live channels: through b
    try:  # to the end, over the socket (forwarded) and over HTTP (forwarded), in turn
        version = play_moves(seats, api_b, tid, tokens, random.Random(44))
    finally:
        for s in seats.values():
            s.close()
    # the NDJSON stream through b too: the missed events, then pings while it stays open
    lines = stream_lines(b, tid, tokens[1], since=version - 3, count=3, pings=1)
    assert [m["version"] for m in lines] == [version - 2, version - 1, version]
    rec = api_b.record(tid)
    assert verify_cli({k: v for k, v in rec.items() if k != "table"},
                      tmp_path / "r.json")["match"]["over"]
    after_a, after_b = scrape(a), scrape(b)
    # no instance but the owner holds the table, so its moves are not told on the bus (each
    # was a message every instance heard and parsed)
    assert [m for m in bus.close() if m.get("k") == "act"] == []
    # the owner applied every action; the other applied none, read none of the table's moves
    # and held no room of it: it passed each request on
    assert accepted(after_a) - accepted(before_a) == version
    assert accepted(after_b) == accepted(before_b)
    assert after_b["taash_move_reads_total"] == before_b["taash_move_reads_total"]
    assert after_b["taash_live_tables"] == 0
    assert after_b["taash_forwarded_total,kind=websocket"] == 2
    assert after_b["taash_forwarded_total,kind=http"] >= version / 2
    assert after_a["taash_forwarded_total,kind=http"] == 0
    api_a.close()
    api_b.close()


def test_sigkill_of_the_owner_mid_deal_the_other_takes_the_table_and_finishes_it(
        pair: tuple[Server, Server], tmp_path: Path, pg_url: str) -> None:
    a, b = pair
    api_a, api_b = Api(a.base), Api(b.base)
    t = api_a.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2)
    tid, tokens = t["id"], tokens_of(t)
    rng = random.Random(5)
    acked: dict[str, int] = {}  # client id -> the version its action was acknowledged at
    moves = 0
    killed = 0.0
    after: list[float] = []  # when the first action after the kill was acknowledged

    def answered(method: str, path: str, **kw: Any) -> httpx.Response:
        """b's answer, asked again while the table has no owner that answers (503 moved,
        the owner killed and its lease not yet run out)."""
        got: list[httpx.Response] = []

        def asked() -> bool:
            try:
                r = api_b.http.request(method, path, **kw)
            except httpx.HTTPError:
                return False
            if r.status_code == 503:
                assert r.json()["error"]["code"] == "moved", r.text
                return False
            got.append(r)
            return True

        wait_until(asked, timeout=30, every=0.1, what=f"an answer to {method} {path}")
        assert got[0].status_code == 200, got[0].text
        return got[0]

    def act() -> bool:
        """One move through b (the same client id again until acknowledged); whether the
        match is over."""
        nonlocal moves
        views = {s: answered("GET", f"/api/tables/{tid}/view", headers=Api.auth(tok)).json()
                 for s, tok in tokens.items()}
        if views[0]["over"]:
            return True
        seat, action = pick_actor(views, rng) or (-1, "")
        cid = f"c{moves}"
        r = answered("POST", f"/api/tables/{tid}/actions", headers=Api.auth(tokens[seat]),
                     json={"action": action, "id": cid})
        acked[cid] = r.json()["version"]
        if killed and not after:
            after.append(time.time())
        moves += 1
        return False

    seat0 = Seat(b, tid, 0, tokens[0])  # a live channel through b, to a while it lives
    seat0.read_until(0)
    for _ in range(6):
        act()
    seat0.read_until(6)
    lease, _ = stored(pg_url, tid)
    assert lease is not None and lease.address == a.base  # a made it: a owns it
    a.kill()
    killed = time.time()
    assert lease.expires - killed <= LEASE_S  # runs out within the 5 s of the issue
    with pytest.raises(ConnectionClosed):  # b closes the socket it relayed: "restart"
        seat0.read_until(7)
    assert seat0.ws.close_code == 1012
    while not act():
        pass
    taken, rows = stored(pg_url, tid)
    assert taken is not None and taken.fence == lease.fence + 1 and taken.address == b.base
    print(f"\nthe first action after the kill was accepted {after[0] - killed:.2f} s after it")
    again = Seat(b, tid, 0, tokens[0], since=6)  # the client reconnects: b has the table
    again.read_until(moves)
    again.close()
    rec = api_b.record(tid)
    out = verify_cli({k: v for k, v in rec.items() if k != "table"}, tmp_path / "r.json")
    assert out["match"]["over"]
    # every acknowledged action is stored once, at the version it was acknowledged at, and
    # nothing else is
    assert {r.client_id: r.version for r in rows} == acked
    assert [r.version for r in rows] == list(range(1, moves + 1))
    api_a.close()
    api_b.close()


def test_a_players_cookie_seat_plays_through_the_instance_that_does_not_own_the_table(
        pair: tuple[Server, Server]) -> None:
    """A page's requests come with its session cookie and its own Origin (the address it was
    loaded from). Forwarded to the owner, they must still count as this site's: the owner
    is reached at another address, and without --public-url it knew only its own (the
    owner refused them as cross-site before)."""
    a, b = pair
    on_a = Browser(a)
    on_a.first_visit()
    t = on_a.create(seats=[{"type": "human"}, {"type": "bot", "level": "random"}])
    tid, secret = t["id"], on_a.http.cookies["taash_session"]
    on_a.close()
    assert scrape(a)["taash_live_tables"] == 1  # a owns it
    with httpx.Client(base_url=b.base, cookies={"taash_session": secret}, timeout=20) as page:
        view = page.get(f"/api/tables/{tid}/view?seat=0").json()
        r = page.post(f"/api/tables/{tid}/actions?seat=0", headers={"Origin": b.base},
                      json={"action": view["legal_actions"][0], "version": view["version"]})
        assert r.status_code == 200, r.text
        # from another site it is still refused, forwarded or not
        r = page.post(f"/api/tables/{tid}/actions?seat=0",
                      headers={"Origin": "https://evil.example"},
                      json={"action": view["legal_actions"][0]})
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
    with cookie_ws(b, tid, secret, b.base) as ws:
        while (msg := json.loads(ws.recv(timeout=10)))["type"] != "view" \
                or not msg["view"]["legal_actions"]:  # the bot's turn first, perhaps
            assert msg["type"] != "error", msg
        ws.send(json.dumps({"type": "action", "id": "c1",
                            "action": msg["view"]["legal_actions"][0]}))
        while (got := json.loads(ws.recv(timeout=10)))["type"] != "ack":
            assert got["type"] != "error", got
    with cookie_ws(b, tid, secret, "https://evil.example") as ws:
        while (msg := json.loads(ws.recv(timeout=10)))["type"] == "ping":
            pass
        assert msg["type"] == "error" and msg["error"]["code"] == "cross_site"
    m = scrape(b)
    assert m["taash_forwarded_total,kind=websocket"] == 2 and m["taash_live_tables"] == 0


def cookie_ws(server: Server, tid: str, secret: str, origin: str) -> ClientConnection:
    url = f"{server.ws_base}/api/tables/{tid}/ws?seat=0"
    headers = {"Cookie": f"taash_session={secret}", "Origin": origin}
    return connect(url, open_timeout=10, close_timeout=2, additional_headers=headers)
