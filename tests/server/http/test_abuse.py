"""The server under abuse (issue 25): text that cannot be stored is refused at the edge with
one 400, on SQLite and on PostgreSQL, while other tables keep playing; a row the database
refuses fails only its own action."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from taash.record import random_record
from taash.server.config import Settings
from taash.server.store.db import SeatRow, Store, TableRow
from tests.server.helpers import Api, Server, tokens_of
from tests.waiting import wait_until

BAD = ["\u0000", "a\u0000b", "\u0001", "x\ny", "\u007f", "\ud800"]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('abuse') / 'abuse.db'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture(scope="module")
def srv(db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("abuse-log") / "server.log"
    s = Server(db, "--bot-delay", "0", "--sweep", "60", log=log).start()
    yield s
    s.stop()


def two_seats(api: Api) -> tuple[str, dict[int, str]]:
    t = api.create("court-piece-2p", seats=[{"type": "human"}, {"type": "human"}],
                   live=True, open=True)
    return t["id"], tokens_of(t)


def bad_requests(api: Api, table: str, token: str) -> list[tuple[str, str, Any, dict[str, str]]]:
    """(method, url, json body or None, headers) of requests that each carry bad text."""
    out: list[tuple[str, str, Any, dict[str, str]]] = []
    auth = api.auth(token)
    for s in BAD:
        for body in (
            {"game": "court-piece", "seats": [{"type": "human", "name": s}] * 4},
            {"game": s},
            {"game": "court-piece", "seed": s},
            {"game": "court-piece", "options": {"sar": s}},
            {"game": "court-piece", "options": {s: 1}},
        ):
            out.append(("POST", "/api/tables", body, {}))
        out.append(("POST", f"/api/tables/{table}/join", {"name": s}, {}))
        out.append(("POST", f"/api/tables/{table}/actions", {"action": "call:S", "id": s}, auth))
        out.append(("POST", f"/api/tables/{table}/actions", {"action": s}, auth))
        out.append(("POST", f"/api/tables/{table}/seed", {"seed": s}, auth))
        out.append(("PUT", f"/api/tables/{table}/notify",
                    {"webhook": f"https://example.com/{s}"}, auth))
        out.append(("PUT", f"/api/tables/{table}/notify", {"email": f"a{s}@example.com"}, auth))
        out.append(("POST", "/api/my-tables", {"tokens": [s]}, {}))
        out.append(("PATCH", "/api/me", {"name": s}, {}))
        out.append(("POST", "/api/link", {"code": s}, {}))
    for enc in ("%00", "%01", "%0A", "%7F", "a%00b"):
        out.append(("GET", f"/api/tables/{enc}", None, {}))
        out.append(("GET", f"/api/tables/{table}{enc}/view", None, auth))
        out.append(("GET", f"/api/tables/{table}/view?token={enc}", None, {}))
        out.append(("GET", f"/api/tables/{table}/stream?token={enc}", None, {}))
        out.append(("POST", f"/api/tables/{table}/actions?token={token}{enc}",
                    {"action": "call:S"}, {}))
    for s in ("\u007f", "\u0085"):  # not escaped: JSON lets DEL and the C1 controls through
        out.append(("RAW", f"/api/tables/{table}/join", {"name": f"a{s}b"}, {}))
        out.append(("RAW", "/api/tables", {"game": "goat", "seats": [
            {"type": "human", "name": s}] * 4}, {}))
    out.append(("GET", "/api/tables/a b", None, {}))
    out.append(("GET", "/api/tables/" + "x" * 300, None, {}))
    out.append(("DELETE", "/api/me/sessions/%00", None, {}))
    return out


def test_control_characters_anywhere_are_400_and_other_tables_play_on(srv: Server) -> None:
    api = Api(srv.base)
    honest = [two_seats(api) for _ in range(3)]
    bad_table, bad_tokens = two_seats(api)
    stop = threading.Event()
    statuses: list[int] = []
    acks = {tid: 0 for tid, _ in honest}

    def play(tid: str, tokens: dict[int, str]) -> None:
        rng = random.Random(tid)
        with httpx.Client(base_url=srv.base, timeout=20) as c:
            while not stop.is_set():
                for seat, tok in tokens.items():
                    v = c.get(f"/api/tables/{tid}/view", headers=api.auth(tok)).json()
                    if v.get("over"):
                        return
                    legal = v.get("legal_actions") or []
                    if legal and v.get("to_move") == seat:
                        r = c.post(f"/api/tables/{tid}/actions", headers=api.auth(tok),
                                   json={"action": rng.choice(legal),
                                         "id": f"{tid}-{v['version']}",
                                         "version": v["version"]})
                        statuses.append(r.status_code)
                        if r.status_code == 200:
                            acks[tid] += 1

    players = [threading.Thread(target=play, args=h) for h in honest]
    for p in players:
        p.start()
    try:
        refused = []
        for method, url, body, headers in bad_requests(api, bad_table, bad_tokens[0]):
            content = None if body is None else json.dumps(
                body, ensure_ascii=method != "RAW").encode()
            method = "POST" if method == "RAW" else method
            hdrs = {**headers, **({"Content-Type": "application/json"} if content else {})}
            r = api.http.request(method, url, content=content, headers=hdrs)
            refused.append((method, url, body, r.status_code))
            assert r.status_code == 400, (method, url, body, r.text)
            assert r.json()["error"]["code"] == "bad_request", r.text
            assert r.headers.get("x-request-id")
        # the live channel: an action message with a NUL id, then a NUL action
        ws_url = f"{srv.ws_base}/api/tables/{bad_table}/ws?token={bad_tokens[0]}"
        with connect(ws_url) as ws:
            json.loads(ws.recv())
            for msg in ({"type": "action", "action": "call:S", "id": "a\u0000"},
                        {"type": "action", "action": "call:\u0000"},
                        {"type": "seed", "seed": "\u0000"}):
                ws.send(json.dumps(msg))
                while True:
                    got = json.loads(ws.recv())
                    if got["type"] == "error":
                        break
                assert got["error"]["code"] == "bad_request", got
        # the honest tables play beside the refusals: on a loaded machine the refusals could
        # all be answered before a table's first move was (a clean-clone run saw 0 acks)
        wait_until(lambda: all(acks[t] > 0 for t, _ in honest), timeout=30,
                   what="a move acknowledged at every honest table")
    finally:
        stop.set()
        for p in players:
            p.join(30)
    assert len(refused) > 100
    assert all(s in (200, 409) for s in statuses), statuses
    for tid, _ in honest:  # every acknowledged action is stored, and nothing else
        assert acks[tid] > 0
        assert api.public(tid)["version"] == acks[tid]
    # the bad table itself still plays
    v = api.view(bad_table, bad_tokens[0])
    assert v["version"] >= 0
    assert "Traceback" not in (srv.log.read_text() if srv.log else "")


@pytest.mark.parametrize("bad", ["\ud800", "\u0000"], ids=["surrogate", "nul"])
async def test_a_row_the_database_refuses_fails_only_its_own_action(db: str, bad: str) -> None:
    """Actions of several tables in one batch, one of them with text the database cannot
    store: that one fails, every other is committed and answered."""
    async def go() -> tuple[list[object], dict[str, list[str]]]:
        store = Store(Settings(db_url=db).resolved_db_url())
        await store.migrate()
        prefix = f"r{random.randrange(10**9)}"
        ids = [f"{prefix}{i}" for i in range(8)]
        for tid in ids:
            await store.create_table(TableRow(
                id=tid, game="goat", options={}, seed=1, first_seat=0, live=False, open=False,
                bot_delay_ms=0, turn_timer_s=None, created=0, updated=0,
                seats=[SeatRow(s, "human") for s in range(4)]))
        try:
            out = await asyncio.gather(*[
                store.append_action(tid, 0, 1, "lead:6S", bad if i == 3 else f"c{i}", [], 2,
                                    False) for i, tid in enumerate(ids)],
                return_exceptions=True)
            rows = {tid: [r.action for r in await store.load_actions(tid)] for tid in ids}
        finally:
            await store.close()
        return out, rows

    out, rows = await go()
    tids = sorted(rows)
    if db.startswith("sqlite") and bad == "\u0000":  # SQLite stores a NUL; nothing to refuse
        assert all(isinstance(o, float) for o in out)
        return
    assert isinstance(out[3], Exception), out
    assert [isinstance(o, float) for i, o in enumerate(out) if i != 3] == [True] * 7, out
    assert [tid for tid in tids if rows[tid]] == [t for i, t in enumerate(tids) if i != 3]


# -- rate limits -------------------------------------------------------------------------------
def test_token_buckets_stay_bounded_without_a_reset() -> None:
    from taash.server.http.guard import TokenBuckets

    # a refill so slow that no machine's pace through the loops below earns a token back
    b = TokenBuckets(rate=0.001, burst=3, max_keys=1000)
    assert [b.allow("victim") for _ in range(4)] == [True, True, True, False]
    for i in range(50_000):  # many other keys: memory stays bounded ...
        b.allow(f"k{i}")
        assert len(b.buckets) <= 1000
    b2 = TokenBuckets(rate=0.001, burst=3, max_keys=100_000)
    assert [b2.allow("victim") for _ in range(4)] == [True, True, True, False]
    for i in range(60_000):  # ... and no number of other keys resets a limited one
        b2.allow(f"k{i}")
    assert not b2.allow("victim")


def test_an_idle_key_is_forgotten_only_once_its_bucket_is_full() -> None:
    from taash.server.http.guard import TokenBuckets

    b = TokenBuckets(rate=100, burst=2)  # full again after 20 ms
    assert [b.allow("a") for _ in range(3)] == [True, True, False]
    assert "a" in b.buckets  # limited: kept, whatever the other keys do

    def a_forgotten() -> bool:  # a look by another key forgets "a" once its bucket is full
        b.allow("b")
        return "a" not in b.buckets

    wait_until(a_forgotten, timeout=5, what='"a" forgotten once its bucket refilled')
    assert b.allow("a")


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("limited")
    s = Server(f"sqlite+aiosqlite:///{folder / 'l.db'}", "--rate-limit", "2", "--sweep", "60",
               env={"TAASH_RATE_BURST": "5", "TAASH_LIVE_PER_CLIENT": "3"},
               log=folder / "server.log").start()
    yield s
    s.stop()


def from_address(base: str, address: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=10,
                        transport=httpx.HTTPTransport(local_address=address))


def test_a_random_bearer_per_request_is_rate_limited(limited: Server) -> None:
    import secrets

    with from_address(limited.base, "127.0.0.3") as c:
        t0 = time.monotonic()
        codes = [c.get("/api/tables/abc/view",
                       headers={"Authorization": f"Bearer {secrets.token_urlsafe(16)}"}
                       ).status_code for _ in range(60)]
        elapsed = time.monotonic() - t0
    # the address's burst is 4 x 5 requests, refilled at 4 x 2 a second; then 429, whatever
    # the Authorization says
    assert 429 not in codes[:15], codes
    assert codes.index(429) <= 20 + 8 * elapsed, (codes, elapsed)
    assert len(codes) - codes.count(429) <= 21 + 8 * elapsed, (codes, elapsed)
    with from_address(limited.base, "127.0.0.4") as other:  # another address is not limited
        assert other.get("/api/lobby").status_code == 200


def test_a_checked_seat_is_limited_from_every_address(limited: Server) -> None:
    with from_address(limited.base, "127.0.0.5") as c:
        t = c.post("/api/tables", json={"game": "goat", "live": False}).json()
    token = tokens_of(t)[0]
    clients = [from_address(limited.base, f"127.0.1.{i + 1}") for i in range(12)]

    def view(c: httpx.Client) -> int:
        return c.get(f"/api/tables/{t['id']}/view",
                     headers={"Authorization": f"Bearer {token}"}).status_code

    # all at once, each from a new address (one after another, on a loaded machine each
    # request could take the half second that refills the seat's bucket)
    with ThreadPoolExecutor(12) as pool:
        t0 = time.monotonic()
        codes = list(pool.map(view, clients))
        elapsed = time.monotonic() - t0
    for c in clients:
        c.close()
    # the seat's burst is 5, refilled at 2 a second, though each address is new: the count of
    # 200s is bounded by the refill over the time the requests took, not the time itself
    assert set(codes) == {200, 429} and codes.count(200) >= 5, codes
    assert codes.count(200) <= 6 + 2 * elapsed, (codes, elapsed)


def test_live_connections_per_address_are_capped(limited: Server) -> None:
    with from_address(limited.base, "127.0.0.6") as c:
        t = c.post("/api/tables", json={"game": "goat", "live": False}).json()
    url = f"{limited.ws_base}/api/tables/{t['id']}/ws"
    with contextlib.ExitStack() as stack:
        opened = []
        for _ in range(3):
            ws = stack.enter_context(connect(url))
            opened.append(ws)
            assert json.loads(ws.recv())["type"] == "view"
        with httpx.Client(base_url=limited.base, timeout=10) as c:
            r = c.get(f"/api/tables/{t['id']}/stream")
            assert r.status_code == 429, r.text
            assert "live connections" in r.json()["error"]["message"]
        with pytest.raises(Exception, match=r"403|rejected"), connect(url):
            pass
        opened[0].close()

        def reopened() -> Any:  # the closed one is counted out soon after
            try:
                return stack.enter_context(connect(url))
            except Exception:
                return None

        ws = wait_until(reopened, timeout=5, what="a fourth socket once one closed")
        assert json.loads(ws.recv())["type"] == "view"


# -- catch-up ----------------------------------------------------------------------------------
def catch_up_lines(base: str, table: str, since: int) -> list[dict[str, Any]]:
    """The catch-up a spectator gets from ``since``: the lines before the first ping (the
    table is over: nothing live follows)."""
    out: list[dict[str, Any]] = []
    with httpx.Client(base_url=base, timeout=20) as c, c.stream(
            "GET", f"/api/tables/{table}/stream", params={"since": since}) as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            msg = json.loads(line)
            if msg["type"] == "ping":
                break
            out.append(msg)
    return out


@pytest.mark.slow
def test_a_far_behind_catch_up_is_the_full_view_in_a_bounded_body(srv: Server) -> None:
    api = Api(srv.base)
    t = api.create("court-piece", {"session_end": {"deals": 8}},
                   seats=[{"type": "bot", "level": "random"}] * 4, live=True, bot_delay_ms=0)
    pub = wait_until(lambda: (p := api.public(t["id"]))["over"] and p, timeout=60,
                     what="the bots to finish")
    v = pub["version"]
    assert v > 250
    far = catch_up_lines(srv.base, t["id"], 1)
    assert [m["type"] for m in far] == ["view"] and far[0]["version"] == v
    assert len(json.dumps(far)) < 64 * 1024
    # within 200 versions but over the byte budget: the full view too
    within = catch_up_lines(srv.base, t["id"], v - 150)
    assert [m["type"] for m in within] == ["view"]
    # a few versions behind: exactly the events missed
    near = catch_up_lines(srv.base, t["id"], v - 5)
    assert [m["version"] for m in near] == list(range(v - 4, v + 1))
    assert {m["type"] for m in near} == {"event"}
    # and the health check answers while far-behind catch-ups run (how soon it answers is
    # measured in bench/server_waits.py, not asserted here)
    with httpx.Client(base_url=srv.base, timeout=20) as c:
        workers = [threading.Thread(target=catch_up_lines, args=(srv.base, t["id"], s))
                   for s in (v - 199, v - 190, v - 180, v - 170)]
        for w in workers:
            w.start()
        assert c.get("/api/health").status_code == 200
        for w in workers:
            w.join(30)


# -- option bounds -----------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "options", "bound"), [
    ("goat", {"target": 121}, "at most 120"),
    ("court-piece-2p", {"target": 10**15}, "at most 100"),
    ("court-piece", {"session_end": {"deals": 10**30}}, "at most 500"),
    ("court-piece", {"session_end": {"coats": 51}}, "at most 50"),
])
def test_a_table_refuses_options_over_their_bounds(srv: Server, game: str,
                                                   options: dict[str, Any], bound: str) -> None:
    with httpx.Client(base_url=srv.base, timeout=10) as c:
        r = c.post("/api/tables", json={"game": game, "options": options, "live": False})
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] == "bad_request" and bound in r.text
        name, value = next(iter(options.items()))
        at_bound: object = int(bound.split()[-1])
        if isinstance(value, dict):
            at_bound = {next(iter(value)): at_bound}
        r = c.post("/api/tables", json={"game": game, "options": {name: at_bound},
                                        "live": False})
        assert r.status_code == 201, r.text


# -- SQLite's write-ahead log ------------------------------------------------------------------
@pytest.mark.slow
def test_the_sqlite_log_stays_bounded_under_steady_writes(tmp_path: Path) -> None:
    db = tmp_path / "wal.db"
    wal = Path(f"{db}-wal")
    srv = Server(f"sqlite+aiosqlite:///{db}", "--bot-delay", "0", "--sweep", "60",
                 env={"TAASH_WAL_LIMIT": str(1024 * 1024)}, log=tmp_path / "wal.log").start()
    try:
        api = Api(srv.base)
        ids = [api.create("court-piece", {"session_end": {"deals": 500}},
                          seats=[{"type": "bot", "level": "random"}] * 4, live=True,
                          bot_delay_ms=0)["id"] for _ in range(3)]
        sizes = []

        def written() -> int:  # the log's size, looked at all along, until enough was written
            sizes.append(wal.stat().st_size if wal.exists() else 0)
            n = sum(api.public(t)["version"] for t in ids)
            return n if n > 1000 else 0

        # 1000 actions: each a commit, thousands of pages through a 1 MiB log, several times over
        played = wait_until(written, timeout=60, what="1000 actions written by the bots")
        api.close()
    finally:
        assert srv.stop() == 0
    assert max(sizes) < 4 * 1024 * 1024, (max(sizes), played)
    assert not wal.exists() or wal.stat().st_size == 0  # and empty once stopped


# -- SIGTERM -----------------------------------------------------------------------------------
def play_while(srv: Server, stop: threading.Event, acks: list[int]) -> None:
    """An honest two-seat table acting as fast as it can until ``stop`` (or the server goes)."""
    try:
        api = Api(srv.base)
        tid, tokens = two_seats(api)
        rng = random.Random(1)
        while not stop.is_set():
            for seat, tok in tokens.items():
                v = api.view(tid, tok)
                if v.get("to_move") == seat and v.get("legal_actions"):
                    r = api.act(tid, tok, rng.choice(v["legal_actions"]),
                                f"{tid}-{v['version']}", v["version"])
                    if r.status_code == 200:
                        acks.append(r.json()["version"])
    except (httpx.HTTPError, AssertionError):
        pass  # the server went away mid-request


def sigterm(srv: Server) -> int:
    """SIGTERM, and its exit status; a process still there 15 s later (uvicorn's 3 s grace,
    then the hub's and the store's bounded closes) fails the test: it did not stop."""
    import signal
    import subprocess

    assert srv.proc is not None
    srv.proc.send_signal(signal.SIGTERM)
    try:
        return srv.proc.wait(15)
    except subprocess.TimeoutExpired:
        srv.proc.kill()
        raise AssertionError("the server did not exit within 15 s of SIGTERM") from None


@pytest.mark.slow
def test_sigterm_after_a_deal_analysis_stops_within_five_seconds(tmp_path: Path) -> None:
    """Issue 43: after an analysis of a four-player deal (a long answer from its worker) the
    server stopped on SIGTERM only some of the time: the worker, ended as soon as its answer
    was read, could still hold the results queue's shared write lock, and the server's exit
    waited on it for ever (a race: it hung in two of seven tries on an idle machine; the
    deterministic check is tests/server/review/test_analysis_worker.py).  One round: a deal's
    analysis is the hard bot's think for each of its 52 plays (over 40 s of a loaded
    machine), and the race itself is checked deterministically there."""
    import signal
    import subprocess

    rec = json.dumps(random_record("court-piece", {"session_end": {"deals": 1}}, seed=3))
    for n in range(1):
        # a short think per card: the answer is as long (one line per action), and a busy
        # machine still finishes it well within the wait (at 2 s a card it took over 60 s)
        srv = Server(f"sqlite+aiosqlite:///{tmp_path / f'a{n}.db'}",
                     log=tmp_path / "analysis.log",
                     env={"TAASH_ANALYSIS_SOLVER_TIME": "0.05"}).start()
        r = httpx.post(srv.base + "/api/review/analysis?deal=0", content=rec, timeout=10)
        assert r.status_code == 200, r.text
        key = r.json()["key"]

        def done(key: str = key, base: str = srv.base) -> bool:
            return bool(httpx.get(f"{base}/api/analyses/{key}", timeout=5).json()["status"]
                        == "done")

        wait_until(done, timeout=60, what="the analysis")
        assert srv.proc is not None
        srv.proc.send_signal(signal.SIGTERM)
        try:
            assert srv.proc.wait(5) == 0
        except subprocess.TimeoutExpired:
            srv.proc.kill()
            raise AssertionError(f"round {n}: still running 5 s after SIGTERM") from None
    assert "Traceback" not in (tmp_path / "analysis.log").read_text()


@pytest.mark.slow
def test_sigterm_under_play_stops_cleanly(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "term.db"
    srv = Server(f"sqlite+aiosqlite:///{db}", "--bot-delay", "0", "--sweep", "60",
                 log=tmp_path / "term.log").start()
    api = Api(srv.base)
    for _ in range(3):  # bots writing steadily beside an honest table
        api.create("court-piece", {"session_end": {"deals": 500}},
                   seats=[{"type": "bot", "level": "random"}] * 4, live=True, bot_delay_ms=0)
    stop = threading.Event()
    acks: list[int] = []
    player = threading.Thread(target=play_while, args=(srv, stop, acks))
    player.start()
    # under play: the honest table has had actions acknowledged, the bots have written
    wait_until(lambda: len(acks) >= 20, timeout=30, what="20 acknowledged actions")
    rc = sigterm(srv)
    stop.set()
    player.join(20)
    assert rc == 0, rc
    wal = Path(f"{db}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        # every acknowledged action was committed
        tables = conn.execute("SELECT id FROM game_tables").fetchall()
        assert tables
        stored = conn.execute("SELECT max(a.version) FROM actions a JOIN game_tables t "
                              "ON a.table_id = t.id WHERE t.game = 'court-piece-2p'"
                              ).fetchone()[0]
        assert stored >= max(acks)
    assert "Traceback" not in (tmp_path / "term.log").read_text()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_sigterm_tells_the_other_instances_it_is_gone(pg_url: str, redis_url: str,
                                                      tmp_path: Path) -> None:
    import redis

    srv = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", "--sweep", "60",
                 log=tmp_path / "bus.log").start()
    channel = Settings(db_url=pg_url).bus_channel()
    r = redis.Redis.from_url(redis_url, socket_timeout=5)
    ps = r.pubsub()
    ps.subscribe(channel)
    try:
        stop = threading.Event()
        acks: list[int] = []
        player = threading.Thread(target=play_while, args=(srv, stop, acks))
        player.start()
        wait_until(lambda: len(acks) >= 10, timeout=30, what="10 acknowledged actions")
        rc = sigterm(srv)
        stop.set()
        player.join(20)
        assert rc == 0, rc
        heard: list[dict[str, Any]] = []

        def gone() -> bool:
            msg = ps.get_message(timeout=0.1)
            if msg and msg["type"] == "message":
                heard.append(json.loads(msg["data"]))
            return bool(heard) and heard[-1].get("k") == "gone"

        try:
            wait_until(gone, timeout=5, what='"gone" on the bus')
        except AssertionError as e:
            raise AssertionError(f"{e}: {heard[-5:]}") from None
    finally:
        ps.close()
        r.close()


# -- slow and idle connections -----------------------------------------------------------------
@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("strict")
    s = Server(f"sqlite+aiosqlite:///{folder / 's.db'}", "--sweep", "60",
               env={"TAASH_HEADER_TIMEOUT": "1", "TAASH_KEEP_ALIVE": "1",
                    "TAASH_BODY_TIMEOUT": "1"}, log=folder / "server.log").start()
    yield s
    s.stop()


def closed_within(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes the connection within ``seconds``, and what it sent."""
    sock.settimeout(0.2)
    got = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return True, got
        if not chunk:
            return True, got
        got += chunk
    return False, got


def raw_socket(srv: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", srv.port), timeout=5)


@pytest.mark.slow
def test_a_connection_that_says_nothing_is_closed(strict: Server) -> None:
    with raw_socket(strict) as s:
        assert closed_within(s, 4)[0]


@pytest.mark.slow
def test_a_half_sent_head_is_closed(strict: Server) -> None:
    with raw_socket(strict) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        assert closed_within(s, 4) == (True, b"")


@pytest.mark.slow
def test_a_head_sent_a_byte_at_a_time_is_closed(strict: Server) -> None:
    head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    with raw_socket(strict) as s:
        closed = False
        for b in head:  # a byte, then up to 0.1 s for the server to close: the whole head
            try:        # would take over 13 s, each byte well within the 1 s deadline
                s.sendall(bytes([b]))
            except OSError:
                closed = True
            if closed or closed_within(s, 0.1)[0]:
                closed = True
                break
        assert closed, "the whole head went out a byte at a time, and the server waited"


def test_a_head_over_the_bound_is_refused(strict: Server) -> None:
    """A request head past MAX_HEAD bytes is answered 431 and closed, before its deadline."""
    from taash.server.http.deadline import MAX_HEAD

    with raw_socket(strict) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (MAX_HEAD + 10))
        closed, got = closed_within(s, 4)
        # answered 431 (the 1 s deadline closes a connection without a word)
        assert closed and got.startswith(b"HTTP/1.1 431"), got[:100]


@pytest.mark.parametrize("size", [20 * 1024, 100 * 1024])
def test_a_whole_head_over_the_bound_in_one_send_is_refused(strict: Server, size: int) -> None:
    """Issue 43: the bound was counted only while a head was incomplete after a read, so a
    whole head over it arriving in one read (here 20 KB and 100 KB, sent at once) was served."""
    with raw_socket(strict) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * size
                  + b"\r\n\r\nGET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")  # and one more
        closed, got = closed_within(s, 4)
        assert closed and got.startswith(b"HTTP/1.1 431"), got[:100]
        assert b"200 OK" not in got


def read_answer(sock: socket.socket) -> bytes:
    """One whole HTTP answer (its head and its Content-Length of body) from a raw socket."""
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(65536)
        assert chunk, got
        got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    size = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:"))
    while len(body) < size:
        chunk = sock.recv(65536)
        assert chunk, got
        body += chunk
    return head + b"\r\n\r\n" + body


def test_a_body_refused_before_it_is_read_is_not_taken_for_the_next_head(strict: Server) -> None:
    """A body over the size limit is refused from its Content-Length (413) before it is read;
    its bytes, which come after that answer, are the rest of that request, not the next
    request's head: the connection goes on (it used to answer the next request 431, over a
    kept-alive connection that a client had every right to reuse)."""
    from taash.server.http.deadline import MAX_HEAD

    size = 8 * MAX_HEAD  # over the 64 KiB body limit, and the head limit too
    with raw_socket(strict) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % size)
        assert read_answer(s).startswith(b"HTTP/1.1 413")
        s.sendall(b"x" * size)
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        got = read_answer(s)
        assert got.startswith(b"HTTP/1.1 200"), got[:200]


def test_the_server_speaks_http_through_httptools() -> None:
    """The speed lever stays pulled: where httptools is installed (uvicorn[standard]) the
    protocol behind the deadline is uvicorn's C-parser one."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from taash.server.http.deadline import deadline_protocol

    assert deadline_protocol(1.0).inner is HttpToolsProtocol


@pytest.mark.slow
def test_an_idle_kept_alive_connection_is_closed(strict: Server) -> None:
    with raw_socket(strict) as s:
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        closed, got = closed_within(s, 4)
        assert got.startswith(b"HTTP/1.1 200") and closed


@pytest.mark.slow
def test_a_slow_body_is_408(strict: Server) -> None:
    with raw_socket(strict) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{\"game\":")
        closed, got = closed_within(s, 4)
        assert got.startswith(b"HTTP/1.1 408"), got
        assert closed


@pytest.mark.slow
def test_a_chunked_body_over_the_limit_is_413(strict: Server) -> None:
    with raw_socket(strict) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 8192
        try:
            for _ in range(10):
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass  # answered and closed before the rest
        _, got = closed_within(s, 4)
        assert got.startswith(b"HTTP/1.1 413"), got[:200]
        assert b"too_large" in got


@pytest.mark.slow
def test_live_connections_outlast_the_head_deadline(strict: Server) -> None:
    api = Api(strict.base)
    t = api.create("goat", live=True)
    # the server pings an idle live connection every 0.5 s (TAASH_PING_INTERVAL): three pings
    # take it past the 1 s head, body and keep-alive deadlines
    with connect(f"{strict.ws_base}/api/tables/{t['id']}/ws") as ws:
        assert json.loads(ws.recv())["type"] == "view"
        pings = 0
        while pings < 3:
            pings += json.loads(ws.recv(timeout=10))["type"] == "ping"
        ws.send(json.dumps({"type": "ping"}))
        while json.loads(ws.recv(timeout=10))["type"] != "pong":
            pass
    with httpx.Client(base_url=strict.base, timeout=10) as c, c.stream(
            "GET", f"/api/tables/{t['id']}/stream") as r:
        pings = 0
        for line in r.iter_lines():
            pings += json.loads(line)["type"] == "ping"
            if pings == 3:
                break
        assert pings == 3
    api.close()


# -- security headers --------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/t/abc", "/link", "/assets/app.js", "/assets/style.css",
                                  "/assets/fair.html", "/assets/icon.svg", "/api/health", "/sw.js",
                                  "/api/nothing", "/docs"])
def test_every_page_and_asset_has_the_security_headers(srv: Server, path: str) -> None:
    with httpx.Client(base_url=srv.base, timeout=10) as c:
        r = c.get(path)
    assert r.status_code in (200, 404), r.status_code
    csp = r.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    if path != "/docs":
        assert "script-src 'self';" in csp and "unsafe-inline" not in csp
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert r.headers["x-request-id"]


def test_the_server_runs_on_uvloop() -> None:
    """`taash serve` runs its event loop on uvloop where it is installed (uvicorn[standard])."""
    import uvloop

    from taash.server.serving import _loop_factory

    assert _loop_factory() is uvloop.new_event_loop


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["httptools", "h11"])
def test_each_protocol_keeps_the_head_deadline(kind: str) -> None:
    """The deadline in front of either of uvicorn's protocols (httptools, the server's; h11,
    where httptools is not installed) closes a connection that sends no whole head, answers
    one that does, and closes it when a later head on it is not whole in time."""
    import threading

    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from taash.server.http.deadline import head_guard

    async def app(scope: dict[str, object], receive: object, send: object) -> None:
        assert scope["type"] == "http"
        await send({"type": "http.response.start", "status": 200, "headers": []})  # type: ignore[operator]
        await send({"type": "http.response.body", "body": b"ok"})  # type: ignore[operator]

    inner = HttpToolsProtocol if kind == "httptools" else H11Protocol
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, http=head_guard(inner, 0.5), lifespan="off",  # type: ignore[arg-type]
                            log_level="error", timeout_keep_alive=30)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]})
    thread.start()
    try:
        wait_until(lambda: server.started, timeout=10, what="uvicorn to start")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # half a head
            # closed by the 0.5 s deadline, not the 30 s keep-alive
            assert closed_within(s, 2) == (True, b"")
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            closed, got = closed_within(s, 1)
            assert got.startswith(b"HTTP/1.1 200") and not closed  # kept alive
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # the next head, half sent
            assert closed_within(s, 2) == (True, b"")  # its deadline, not the keep-alive
    finally:
        server.should_exit = True
        thread.join(10)
