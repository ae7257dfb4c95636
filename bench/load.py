"""Load benchmark for the game server (not a test).

Starts ``taash serve`` on 127.0.0.1 (SQLite in a temporary folder, or a temporary PostgreSQL
database), opens N live tables, each with simulated players on WebSockets and bots in the other
seats, and measures for a while:

- actions per second (every accepted action, the players' and the bots'),
- latency from a player's POST of an action to its event reaching every player seat's socket
  (p50, p99, max), and the POST's own round trip.

    python bench/load.py --tables 500 --duration 30 --db sqlite
    python bench/load.py --tables 500 --duration 30 --db postgres

Loopback only; bounded by --duration.  The client runs in this process and shares the machine's
CPUs with the server: the figures are for both together.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
GAMES = {  # the longest matches the option bounds allow: few tables end while we measure
    "court-piece": ({"session_end": None}, ["human", "bot", "human", "bot"]),
    "court-piece-2p": ({"target": 100}, ["human", "bot"]),
    "goat": ({"target": 120}, ["human", "bot", "human", "bot"]),
}


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    when: list[float] = field(default_factory=list)
    posts: list[float] = field(default_factory=list)
    events: int = 0
    errors: int = 0
    measuring: bool = False
    kinds: Counter[str] = field(default_factory=Counter)  # errors by kind

    def fail(self, kind: str) -> None:
        self.errors += 1
        self.kinds[kind] += 1


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


class Table:
    """One table: its player seats' sockets, acting when it is their turn."""

    def __init__(self, base: str, ws_base: str, http: httpx.AsyncClient, stats: Stats,
                 think: float, rng: random.Random,
                 draw: Callable[[], float] | None = None) -> None:
        self.base, self.ws_base, self.http, self.stats = base, ws_base, http, stats
        self.think, self.rng = think, rng
        # a player's time to act: uniform over 0.5x..1.5x the mean unless given
        self.draw = draw or (lambda: self.think * (0.5 + self.rng.random()))
        self.id = ""
        self.game = ""
        self.tokens: dict[int, str] = {}
        self.sent: dict[int, float] = {}  # version expected -> when its action was posted
        self.arrived: dict[int, set[int]] = {}
        self.acting: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.last = time.perf_counter()  # when this table last moved
        self.latest: dict[int, dict[str, Any]] = {}  # each seat's newest view
        # --auth cookie: each human seat a guest player's browser (its own cookie jar), the
        # creator's seat bound at creation, the others claimed with their invite links
        self.cookies = False
        self.browsers: dict[int, httpx.AsyncClient] = {}

    def credentials(self, seat: int, token: str) -> tuple[httpx.AsyncClient, str,
                                                         dict[str, str]]:
        """How this seat's requests say who they are: the client, query and headers."""
        if self.cookies:
            return self.browsers[seat], f"?seat={seat}", {"Origin": self.base}
        return self.http, "", {"Authorization": f"Bearer {token}"}

    def browser(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.base, timeout=30,
                                 limits=httpx.Limits(max_connections=4))

    async def close(self) -> None:
        for b in self.browsers.values():
            await b.aclose()

    async def create(self, game: str, bot_delay_ms: int) -> None:
        options, kinds = GAMES[game]
        seats = [{"type": k} if k == "human" else {"type": "bot", "level": "random"}
                 for k in kinds]
        host = None
        if self.cookies:
            host = self.browser()
            (await host.get("/api/me")).raise_for_status()  # the guest's first visit
        http = host or self.http
        for attempt in range(10):
            try:
                r = await http.post("/api/tables", headers={"Origin": self.base}, json={
                    "game": game, "options": options, "seats": seats, "live": True,
                    "bot_delay_ms": bot_delay_ms})
                if r.status_code in (429, 503) and attempt < 9:  # as a real client: wait
                    self.stats.kinds[f"create {r.status_code} (retried)"] += 1
                    await asyncio.sleep(float(r.headers.get("retry-after") or 1))
                    continue
                r.raise_for_status()
                break
            except httpx.TransportError:
                if attempt == 9:
                    raise
                await asyncio.sleep(0.5)
        body = r.json()
        self.id = body["id"]
        self.game = game
        self.tokens = {s["seat"]: s["token"] for s in body["seats"] if "token" in s}
        if host is not None:
            first = min(self.tokens)
            self.browsers[first] = host
            for seat, tok in self.tokens.items():
                if seat == first:
                    continue
                guest = self.browser()
                (await guest.get("/api/me")).raise_for_status()
                c = await guest.post(f"/api/tables/{self.id}/claim?token={tok}",
                                     headers={"Origin": self.base})
                c.raise_for_status()
                self.browsers[seat] = guest

    async def run(self, stop: asyncio.Event) -> None:
        tasks = [asyncio.create_task(self.seat(s, tok, stop)) for s, tok in self.tokens.items()]
        await stop.wait()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def seat(self, seat: int, token: str, stop: asyncio.Event) -> None:
        if self.cookies:
            url = f"{self.ws_base}/api/tables/{self.id}/ws?seat={seat}"
        else:
            url = f"{self.ws_base}/api/tables/{self.id}/ws?token={token}"
        try:
            await self._listen(url, seat, token, stop)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # counted, as a player would notice it
            if not stop.is_set():
                self.stats.fail(f"socket {type(e).__name__}")

    async def _listen(self, url: str, seat: int, token: str, stop: asyncio.Event) -> None:
        headers = {}
        if self.cookies:
            jar = self.browsers[seat].cookies
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()),
                       "Origin": self.base}
        async with connect(url, max_size=2**22, ping_interval=None,
                           additional_headers=headers) as ws:
            async for raw in ws:
                now = time.perf_counter()
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind not in ("view", "event"):
                    continue
                v = msg["version"]
                self.last = now
                if kind == "event" and self.stats.measuring and seat == min(self.tokens):
                    self.stats.events += 1
                t0 = self.sent.get(v)
                if t0 is not None:
                    got = self.arrived.setdefault(v, set())
                    got.add(seat)
                    if len(got) == len(self.tokens):
                        del self.sent[v]
                        del self.arrived[v]
                        if self.stats.measuring:
                            self.stats.latencies.append(now - t0)
                            self.stats.when.append(now)
                view = msg["view"]
                self.latest[seat] = view
                if view.get("to_move") == seat and view.get("legal_actions") and \
                        seat not in self.acting and not stop.is_set():
                    self.spawn(seat, token, v, view["legal_actions"])

    def spawn(self, seat: int, token: str, version: int, legal: list[str]) -> None:
        if seat in self.acting:
            return
        self.acting.add(seat)
        task = asyncio.create_task(self.act(seat, token, version, legal))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def act(self, seat: int, token: str, version: int, legal: list[str]) -> None:
        again: dict[str, Any] | None = None
        try:
            await asyncio.sleep(self.draw())
            self.sent[version + 1] = t0 = time.perf_counter()
            client, query, creds = self.credentials(seat, token)
            body = {"action": self.rng.choice(legal), "id": uuid.uuid4().hex}
            try:
                r = await client.post(f"/api/tables/{self.id}/actions{query}", json=body,
                                      headers=creds)
            except (httpx.ReadError, httpx.RemoteProtocolError):
                # the server closed an idle keep-alive connection as this went out: send it
                # again, as a browser does; the same client id makes it count once
                self.stats.kinds["action resent (keep-alive closed)"] += 1
                r = await client.post(f"/api/tables/{self.id}/actions{query}", json=body,
                                      headers=creds)
            if self.stats.measuring:
                self.stats.posts.append(time.perf_counter() - t0)
            if r.status_code != 200:
                self.sent.pop(version + 1, None)
                if r.status_code != 409:  # 409: a bot moved first (a molodka); not an error
                    self.stats.fail(f"action {r.status_code}")
                else:  # look again: if it is still this seat's turn, act on the new view
                    v = (await client.get(f"/api/tables/{self.id}/view{query}",
                                          headers=creds)).json()
                    if v.get("to_move") == seat and v.get("legal_actions"):
                        again = v
        except httpx.HTTPError as e:
            self.stats.fail(f"action {type(e).__name__}")
        finally:
            self.acting.discard(seat)
        newest = self.latest.get(seat, {})
        if again is None and newest.get("version", -1) > version and \
                newest.get("to_move") == seat and newest.get("legal_actions"):
            again = newest  # its turn again (a caller who leads): the news came while posting
        if again is not None:
            self.spawn(seat, token, again["version"], again["legal_actions"])


def fsync_probe(folder: Path, n: int = 100) -> dict[str, float]:
    """How long a disk flush takes on this machine now (the store waits for one per commit)."""
    times = []
    with open(folder / "probe", "wb") as f:
        for _ in range(n):
            f.write(b"x" * 100)
            f.flush()
            t = time.perf_counter()
            os.fsync(f.fileno())
            times.append(time.perf_counter() - t)
            time.sleep(0.005)
    return {"p50": round(pct(times, 50), 2), "p99": round(pct(times, 99), 2),
            "max": round(max(times) * 1000, 2)}


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000


async def bench(base: str, tables: int, duration: float, warmup: float, think: float,
                bot_delay_ms: int, games: list[str], server_pid: int | None,
                auth: str = "token") -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(1)
    ws_base = base.replace("http://", "ws://")
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        ts = [Table(base, ws_base, http, stats, think, rng) for _ in range(tables)]
        for t in ts:
            t.cookies = auth == "cookie"
        sem = asyncio.Semaphore(50)

        async def make(i: int, t: Table) -> None:
            async with sem:
                await t.create(games[i % len(games)], bot_delay_ms)

        t_create = time.perf_counter()
        await asyncio.gather(*(make(i, t) for i, t in enumerate(ts)))
        created_s = time.perf_counter() - t_create
        stop = asyncio.Event()
        lags: list[float] = []

        async def watch_lag() -> None:  # this client's own event loop delay
            while not stop.is_set():
                t = time.perf_counter()
                await asyncio.sleep(0.05)
                if stats.measuring:
                    lags.append(time.perf_counter() - t - 0.05)

        lag_task = asyncio.create_task(watch_lag())
        runners = [asyncio.create_task(t.run(stop)) for t in ts]
        await asyncio.sleep(warmup)
        cpu0 = cpu_seconds(server_pid) if server_pid else float("nan")
        me0 = time.process_time()
        stats.measuring = True
        t0 = time.perf_counter()
        await asyncio.sleep(duration)
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        idle = [t for t in ts if time.perf_counter() - t.last > 15]
        stalled = len(idle)
        if os.environ.get("BENCH_DEBUG"):
            for t in idle[:5]:
                pub = (await http.get(f"/api/tables/{t.id}")).json()
                print(t.game, pub["table"]["seats"], pub.get("to_move"), pub.get("actors"),
                      pub["version"], t.acting, file=sys.stderr)
        cpu1 = cpu_seconds(server_pid) if server_pid else float("nan")
        me1 = time.process_time()
        stop.set()
        await asyncio.gather(*runners, lag_task, return_exceptions=True)
        pending = [task for t in ts for task in t.tasks]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for t in ts:
            await t.close()
    lat = stats.latencies
    half = t0 + elapsed / 2
    late = [x for x, w in zip(lat, stats.when, strict=True) if w >= half]
    return {
        "tables": tables, "auth": auth, "games": games, "think_s": think,
        "bot_delay_ms": bot_delay_ms,
        "create_s": round(created_s, 2), "seconds": round(elapsed, 1),
        "actions_per_s": round(stats.events / elapsed, 1),
        "player_actions_measured": len(lat),
        "latency_ms": {"p50": round(pct(lat, 50), 1), "p99": round(pct(lat, 99), 1),
                       "max": round(max(lat) * 1000, 1) if lat else None,
                       "mean": round(statistics.fmean(lat) * 1000, 1) if lat else None},
        "latency_ms_second_half": {"p50": round(pct(late, 50), 1),
                                   "p99": round(pct(late, 99), 1)},
        "post_ms": {"p50": round(pct(stats.posts, 50), 1),
                    "p99": round(pct(stats.posts, 99), 1)},
        "errors": stats.errors,
        "errors_by_kind": dict(stats.kinds),
        "tables_idle_15s": stalled,
        "client_loop_lag_ms": {"p50": round(pct(lags, 50), 1), "p99": round(pct(lags, 99), 1),
                               "max": round(max(lags) * 1000, 1) if lags else None},
        "server_cpu": round((cpu1 - cpu0) / elapsed, 2),
        "client_cpu": round((me1 - me0) / elapsed, 2),
        "load_average": os.getloadavg(),
    }


async def _pg(sql: str, admin: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def stop_server(server: subprocess.Popen[str], dbname: str | None, pg_admin: str,
                tmp: tempfile.TemporaryDirectory[str] | None) -> None:
    """Stop the bench's server (SIGTERM, then SIGKILL after 20 s), drop its PostgreSQL
    database if it made one, and remove its folder (if given)."""
    server.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(20)
    if server.poll() is None:
        server.kill()
    if dbname:
        asyncio.run(_pg(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)', pg_admin))
    if tmp is not None:
        tmp.cleanup()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think-ms", type=int, default=2000,
                    help="a simulated player's mean time to act (uniform 0.5x..1.5x)")
    ap.add_argument("--bot-delay-ms", type=int, default=2000, help="the tables' bot delay")
    ap.add_argument("--games", default="court-piece,goat,court-piece-2p")
    ap.add_argument("--db", default="sqlite",
                    help="sqlite, sqlite-tmpfs (the file in /dev/shm: no disk flush), postgres, "
                    "or a database URL")
    ap.add_argument("--pg-admin", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--url", help="measure a server already running here instead")
    ap.add_argument("--auth", choices=("token", "cookie", "both"), default="token",
                    help="how players' seats are held: seat tokens, guest players' session "
                    "cookies, or both side by side (--rounds pairs on one server)")
    ap.add_argument("--rounds", type=int, default=2, help="token/cookie pairs with --auth both")
    args = ap.parse_args()
    games = args.games.split(",")
    if args.url:
        result = asyncio.run(bench(args.url.rstrip("/"), args.tables, args.duration,
                                   args.warmup, args.think_ms / 1000, args.bot_delay_ms, games,
                                   None))
        print(json.dumps(result, indent=1))
        return
    tmp = tempfile.TemporaryDirectory(prefix="taash-bench-")
    dbname = None
    if args.db == "sqlite":
        db = f"sqlite+aiosqlite:///{tmp.name}/bench.db"
    elif args.db == "sqlite-tmpfs":
        shm = tempfile.TemporaryDirectory(prefix="taash-bench-", dir="/dev/shm")
        db = f"sqlite+aiosqlite:///{shm.name}/bench.db"
    elif args.db == "postgres":
        dbname = f"taash_bench_{os.getpid()}"
        asyncio.run(_pg(f'CREATE DATABASE "{dbname}"', args.pg_admin))
        db = args.pg_admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        db += f"/{dbname}"
    else:
        db = args.db
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "taash", "serve", "--port", str(port), "--db", db,
         "--rate-limit", "0", "--sweep", "30"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        print(server.stdout.readline().strip(), file=sys.stderr)
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/health").status_code == 200:
                    break
            time.sleep(0.1)
        kinds = ["token", "cookie"] * args.rounds if args.auth == "both" else [args.auth]
        runs = [asyncio.run(bench(base, args.tables, args.duration, args.warmup,
                                  args.think_ms / 1000, args.bot_delay_ms, games, server.pid,
                                  kind)) for kind in kinds]
        result = runs[0] if len(runs) == 1 else {
            "runs": runs, "p99_ms": {k: [r["latency_ms"]["p99"] for r in runs if r["auth"] == k]
                                     for k in ("token", "cookie")}}
        result["db"] = args.db
        result["fsync_ms_here"] = fsync_probe(Path(tmp.name))
        print(json.dumps(result, indent=1))
    finally:
        stop_server(server, dbname, args.pg_admin, tmp)


if __name__ == "__main__":
    main()
