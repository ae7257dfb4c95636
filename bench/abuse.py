"""Abuse benchmark for the game server (not a test): honest tables play while an attacker
repeats the attacks of issue 25, and we see what the honest tables keep.

Starts ``taash serve`` on 127.0.0.1 (SQLite in a temporary folder, or ``--db URL`` such as a
PostgreSQL database), with its default rate limits, opens ``--tables`` honest live tables
(players on WebSockets acting through the API, as bench/load.py does, bots in the other seats)
and measures them for ``--duration`` seconds twice: alone, then with every attack running.
For the honest tables it prints accepted player moves per second, the p99 of a move's round
trip (POST to every seat's socket) and of the POST, and the 5xx count; for the attacker, the
statuses each attack got (``closed``: the server closed a slow or idle connection).

    python bench/abuse.py --duration 15
    python bench/abuse.py --duration 15 --db postgres

The attacks: NUL characters in a client id, a name, a notify address and a path; a random
Bearer token per request; anonymous catch-ups far behind (``since=v-1990``); tables of bots
only with unbounded options; all-hard tables; half-sent headers, slow bodies and idle
connections; chunked bodies over 64 KiB.  The attacker sends from 127.0.0.2, the honest
players from 127.0.0.1 (each address has its own limits).  Loopback only; bounded by
--duration.  The client shares the machine's CPUs with the server: the figures are for
both together.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import ROOT, Stats, Table, _pg, cpu_seconds, free_port, pct

ATTACKER_ADDRESS = "127.0.0.2"
Attack = Callable[[httpx.AsyncClient, "Attacker"], Awaitable[None]]


class Attacker:
    """What each attack got, and the tables it aims at."""

    def __init__(self, base: str, stop: asyncio.Event) -> None:
        self.base = base
        self.host, self.port = base.removeprefix("http://").split(":")
        self.stop = stop
        self.got: dict[str, Counter[str]] = {}
        self.table = ""  # the attacker's own table (one human seat: its token)
        self.token = ""
        self.bots = ""  # the attacker's table of bots only, far ahead
        self.catch_up_bytes: list[int] = []
        self.catch_up_s: list[float] = []

    def count(self, attack: str, what: int | str) -> None:
        self.got.setdefault(attack, Counter())[str(what)] += 1


async def _req(http: httpx.AsyncClient, a: Attacker, attack: str, method: str, url: str,
               **kw: Any) -> httpx.Response | None:
    try:
        r = await http.request(method, url, **kw)
    except httpx.HTTPError as e:
        a.count(attack, type(e).__name__)
        return None
    a.count(attack, r.status_code)
    return r


async def nul_inputs(http: httpx.AsyncClient, a: Attacker) -> None:
    auth = {"Authorization": f"Bearer {a.token}"}
    while not a.stop.is_set():
        await _req(http, a, "nul", "POST", f"/api/tables/{a.table}/actions", headers=auth,
                   json={"action": "pass", "id": "x\u0000" + secrets.token_hex(4)})
        await _req(http, a, "nul", "POST", "/api/tables", json={
            "game": "court-piece-2p", "seats": [{"type": "human", "name": "a\u0000b"},
                                                {"type": "bot"}]})
        await _req(http, a, "nul", "PUT", f"/api/tables/{a.table}/notify", headers=auth,
                   json={"email": "a\u0000@example.com"})
        await _req(http, a, "nul", "GET", f"/api/tables/{a.table}%00x")


async def random_bearer(http: httpx.AsyncClient, a: Attacker) -> None:
    while not a.stop.is_set():
        await _req(http, a, "random_bearer", "GET", f"/api/tables/{a.table}/view",
                   headers={"Authorization": f"Bearer {secrets.token_urlsafe(24)}"})


async def far_catch_up(http: httpx.AsyncClient, a: Attacker) -> None:
    """An anonymous stream asking for 1990 versions it missed; the catch-up is read (until
    the stream goes quiet for a second) and the stream dropped, again and again."""
    while not a.stop.is_set():
        v = (await http.get(f"/api/tables/{a.bots}")).json().get("version", 0)
        got = 0
        t0 = time.perf_counter()
        try:
            async with http.stream("GET", f"/api/tables/{a.bots}/stream",
                                   params={"since": max(0, v - 1990)}) as r:
                a.count("catch_up", r.status_code)
                chunks = r.aiter_bytes()
                while got < 50_000_000:
                    try:
                        chunk = await asyncio.wait_for(anext(chunks), 1.0)
                    except (TimeoutError, StopAsyncIteration):
                        break
                    got += len(chunk)
        except httpx.HTTPError as e:
            a.count("catch_up", type(e).__name__)
        a.catch_up_bytes.append(got)
        a.catch_up_s.append(time.perf_counter() - t0 - 1.0)


async def bot_tables(http: httpx.AsyncClient, a: Attacker) -> None:
    while not a.stop.is_set():
        await _req(http, a, "bot_only", "POST", "/api/tables", json={
            "game": "court-piece-2p", "live": False, "options": {"target": 10**15},
            "seats": [{"type": "bot", "level": "random"}] * 2})
        await _req(http, a, "bot_only", "POST", "/api/tables", json={
            "game": "goat", "live": False, "options": {"target": 10**30},
            "seats": [{"type": "bot", "level": "random"}] * 4})
        await _req(http, a, "bot_only_hard", "POST", "/api/tables", json={
            "game": "court-piece", "live": False,
            "seats": [{"type": "bot", "level": "hard"}] * 4})
        await asyncio.sleep(0.05)


async def big_chunked(http: httpx.AsyncClient, a: Attacker) -> None:
    async def body() -> Any:
        for _ in range(20):
            yield b" " * 4096

    while not a.stop.is_set():
        await _req(http, a, "chunked_70k", "POST", "/api/tables",
                   headers={"Content-Type": "application/json"}, content=body())
        await asyncio.sleep(0.05)


async def slow_connections(http: httpx.AsyncClient, a: Attacker, n: int = 100) -> None:
    """Half-sent headers, a slow body, or nothing at all: how many the server closes."""
    async def one(kind: str) -> None:
        try:
            reader, writer = await asyncio.open_connection(a.host, int(a.port),
                                                           local_addr=(ATTACKER_ADDRESS, 0))
        except OSError as e:
            a.count(f"slow_{kind}", type(e).__name__)
            return
        try:
            if kind == "headers":
                writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            elif kind == "body":
                writer.write(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             b"application/json\r\nContent-Length: 100000\r\n\r\n{")
            await writer.drain()
            while not a.stop.is_set():
                if kind != "idle":
                    writer.write(b" ")  # a byte now and then: never finished
                    await writer.drain()
                try:
                    data = await asyncio.wait_for(reader.read(1000), 1.0)
                except TimeoutError:
                    continue
                if not data:
                    a.count(f"slow_{kind}", "closed")
                    return
                if data.startswith(b"HTTP/"):  # answered (a 413, a 408) before any close
                    a.count(f"slow_{kind}", "answered " + data.split(b" ")[1].decode())
                    return
            a.count(f"slow_{kind}", "open_at_end")
        except OSError:
            a.count(f"slow_{kind}", "closed")
        finally:
            writer.close()

    await asyncio.gather(*(one(k) for k in ("headers", "body", "idle") for _ in range(n)))


ATTACKS: dict[str, Attack] = {
    "nul": nul_inputs, "random_bearer": random_bearer, "catch_up": far_catch_up,
    "bot_only": bot_tables, "chunked_70k": big_chunked, "slow": slow_connections,
}


async def prepare(http: httpx.AsyncClient, a: Attacker, ahead_s: float) -> None:
    """The attacker's tables: one with a seat of its own, one of bots only that plays flat out
    for ``ahead_s`` (then rests: nobody watches it) so a catch-up has far to go."""
    r = await http.post("/api/tables", json={"game": "court-piece-2p", "live": False,
                                             "seats": [{"type": "human"}, {"type": "bot"}]})
    r.raise_for_status()
    a.table = r.json()["id"]
    a.token = r.json()["seats"][0]["token"]
    r = await http.post("/api/tables", json={"game": "court-piece", "live": False,
                                             "options": {"session_end": None},
                                             "seats": [{"type": "bot", "level": "random"}] * 4})
    r.raise_for_status()
    a.bots = r.json()["id"]
    await asyncio.sleep(ahead_s)


async def measure(base: str, tables: list[Table], stats: Stats, duration: float,
                  attacks: list[str], a: Attacker | None, pid: int | None) -> dict[str, Any]:
    """One measured stretch of the honest tables (already playing), with these attacks."""
    stats.latencies.clear()
    stats.when.clear()
    stats.posts.clear()
    stats.events = 0
    errors0 = stats.errors
    five0 = FIVE[0]
    tasks: list[asyncio.Task[None]] = []
    if a is not None:
        limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
        # the attacker comes from an address of its own (all of 127.0.0.0/8 is loopback): from
        # the honest players' own address, the per-address limits throttle them with it
        attacker_http = httpx.AsyncClient(
            base_url=base, timeout=30, limits=limits,
            transport=httpx.AsyncHTTPTransport(local_address=ATTACKER_ADDRESS))
        for name in attacks:
            for _ in range({"random_bearer": 2, "nul": 2, "catch_up": 4}.get(name, 1)):
                tasks.append(asyncio.create_task(ATTACKS[name](attacker_http, a)))
    cpu0 = cpu_seconds(pid) if pid else float("nan")
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(duration)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    cpu1 = cpu_seconds(pid) if pid else float("nan")
    if a is not None:
        a.stop.set()
        await asyncio.wait(tasks, timeout=15)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await attacker_http.aclose()
    health = await _health_ms(base)
    return {
        "seconds": round(elapsed, 1),
        "player_moves_per_s": round(len(stats.latencies) / elapsed, 1),
        "all_actions_per_s": round(stats.events / elapsed, 1),
        "move_ms": {"p50": round(pct(stats.latencies, 50), 1),
                    "p99": round(pct(stats.latencies, 99), 1)},
        "post_ms": {"p50": round(pct(stats.posts, 50), 1),
                    "p99": round(pct(stats.posts, 99), 1)},
        "honest_errors": stats.errors - errors0,
        "honest_5xx": FIVE[0] - five0,
        "health_ms_after": health,
        "server_cpu": round((cpu1 - cpu0) / elapsed, 2),
    }


FIVE = [0]  # 5xx answers the honest clients got


async def _health_ms(base: str) -> float:
    async with httpx.AsyncClient(base_url=base, timeout=30) as h:
        t = time.perf_counter()
        await h.get("/api/health")
        return round((time.perf_counter() - t) * 1000, 1)


async def bench(base: str, n_tables: int, duration: float, warmup: float, think: float,
                bot_delay_ms: int, attacks: list[str], pid: int | None) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(25)
    ws_base = base.replace("http://", "ws://")

    async def count_5xx(response: httpx.Response) -> None:
        if response.status_code >= 500:
            FIVE[0] += 1

    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits,
                                 event_hooks={"response": [count_5xx]}) as http:
        stop_setup = asyncio.Event()
        a = Attacker(base, stop_setup)
        await prepare(http, a, ahead_s=warmup)
        tables = [Table(base, ws_base, http, stats, think, rng) for _ in range(n_tables)]
        for i, t in enumerate(tables):
            for _ in range(20):  # creation is limited per address: wait and try again
                try:
                    await t.create(["court-piece", "goat", "court-piece-2p"][i % 3],
                                   bot_delay_ms)
                    break
                except httpx.HTTPStatusError as e:
                    if e.response.status_code != 429:
                        raise
                    await asyncio.sleep(1)
        stop = asyncio.Event()
        runners = [asyncio.create_task(t.run(stop)) for t in tables]
        await asyncio.sleep(warmup)
        quiet = await measure(base, tables, stats, duration, [], None, pid)
        a.stop = asyncio.Event()
        attacked = await measure(base, tables, stats, duration, attacks, a, pid)
        stop.set()
        await asyncio.gather(*runners, return_exceptions=True)
        pending = [task for t in tables for task in t.tasks]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        bots_version = (await http.get(f"/api/tables/{a.bots}")).json().get("version")
    kept = (attacked["player_moves_per_s"] / quiet["player_moves_per_s"]
            if quiet["player_moves_per_s"] else float("nan"))
    return {"tables": n_tables, "think_s": think, "bot_delay_ms": bot_delay_ms,
            "without_attack": quiet, "with_attack": attacked,
            "throughput_kept": round(kept, 3),
            "attacker": {k: dict(sorted(v.items())) for k, v in sorted(a.got.items())},
            "attacker_bot_table_version": bots_version,
            "catch_up": {"count": len(a.catch_up_bytes),
                         "max_bytes": max(a.catch_up_bytes, default=0),
                         "max_s": round(max(a.catch_up_s, default=0.0), 2)},
            "load_average": os.getloadavg()}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--duration", type=float, default=15.0,
                    help="seconds measured, without and then with the attacks")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think-ms", type=int, default=300)
    ap.add_argument("--bot-delay-ms", type=int, default=200)
    ap.add_argument("--attacks", default=",".join(ATTACKS), help="comma-separated: "
                    + ", ".join(ATTACKS))
    ap.add_argument("--db", default="sqlite",
                    help="sqlite, postgres (a database made for the run), or a database URL")
    ap.add_argument("--pg-admin", default="postgresql://postgres@127.0.0.1:5432/test")
    args = ap.parse_args()
    attacks = [x for x in args.attacks.split(",") if x]
    unknown = set(attacks) - set(ATTACKS)
    if unknown:
        ap.error(f"unknown attacks: {', '.join(sorted(unknown))}")
    tmp = tempfile.TemporaryDirectory(prefix="taash-abuse-")
    db = f"sqlite+aiosqlite:///{tmp.name}/abuse.db" if args.db == "sqlite" else args.db
    dbname = None
    if args.db == "postgres":
        dbname = f"taash_abuse_{os.getpid()}"
        asyncio.run(_pg(f'CREATE DATABASE "{dbname}"', args.pg_admin))
        db = args.pg_admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        db += f"/{dbname}"
    port = free_port()
    # the server as deployed (its default rate limits), but tables nobody watches rest after
    # the warm-up, so the attacker's table of bots does not play through the first stretch
    log = Path(tmp.name) / "server.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "taash", "serve", "--port", str(port), "--db", db,
         "--idle-after", str(args.warmup)], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=log.open("w"), text=True)
    try:
        assert server.stdout is not None
        print(server.stdout.readline().strip(), file=sys.stderr)
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/health").status_code == 200:
                    break
            time.sleep(0.1)
        result = asyncio.run(bench(base, args.tables, args.duration, args.warmup,
                                   args.think_ms / 1000, args.bot_delay_ms, attacks,
                                   server.pid))
        result["db"] = args.db if args.db in ("sqlite", "postgres") else args.db.split("@")[-1]
        if args.db == "sqlite":
            wal = Path(tmp.name) / "abuse.db-wal"
            result["sqlite_wal_bytes"] = wal.stat().st_size if wal.exists() else 0
        text = log.read_text(errors="replace")
        result["server_log"] = {"bytes": len(text), "tracebacks": text.count("Traceback"),
                                "errors": text.count(" ERROR ")}
        print(json.dumps(result, indent=1))
    finally:
        # SIGINT: the server's clean stop (SIGTERM left the bot workers behind here)
        server.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
        if server.poll() is None:
            server.kill()
        if dbname:
            asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)', args.pg_admin))
        tmp.cleanup()


if __name__ == "__main__":
    main()
