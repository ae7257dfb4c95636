"""Find the server's knee: a load generator in several processes, ramping live tables up in
steps, with the server's own figures beside each step (not a test).

    python bench/loadgen.py --ramp 500,1000,2000 --step-seconds 45 --warmup 15 --procs 2
    python bench/loadgen.py --ramp 1000,5000 --db postgres --think-dist exp
    python bench/loadgen.py --ramp 1000,2000 --db postgres --instances 2   # + Redis's bus

Each process runs its share of the tables (bench/load.py's ``Table``: each human seat on its
own WebSocket, acting through the HTTP API when its view says it may, bots in the other seats),
creating them at ``--create-rate`` tables/s in all through the API as a real client would
(waiting out a 429/503's Retry-After).  Think times are drawn from ``--think-dist`` (``exp``:
exponential with the given mean; ``uniform``: 0.5x..1.5x).  Every step adds tables up to its
count, waits ``--warmup`` seconds, then measures ``--step-seconds``; tables stay for the next
step.  For each step it prints: live tables, accepted actions/s, action->every-seat latency
(p50, p99), errors by kind, and from the server's ``/metrics``: accepted actions, server CPU ms
per accepted action (from ``process_cpu_seconds_total``, so it holds with the generator on the
same machine), its own action latency p99 and event-loop lag p99, the group commit's mean
size.  The knee is the largest step with p99 < 100 ms and no error.

Loopback only; bounded: steps x (warmup + step-seconds) plus the creation time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import queue
import random
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import GAMES, Stats, Table, fsync_probe, pct

try:  # the generator's JSON: orjson where installed (the server's own choice), else json
    import orjson

    loads: Any = orjson.loads

    def dumps(obj: Any) -> str:
        return orjson.dumps(obj).decode()
except ImportError:
    loads, dumps = json.loads, json.dumps

TOKEN = "loadgen-metrics-token-0123456789"


def draw_of(dist: str, mean: float, rng: random.Random) -> Any:
    if dist == "exp":
        return lambda: min(rng.expovariate(1 / mean), 6 * mean) if mean > 0 else 0.0
    return lambda: mean * (0.5 + rng.random())


class Lean:
    """One table driven as load.py's ``Table`` drives it (each human seat on its own
    WebSocket, acting through the HTTP API when its view says it may, the same latency), on
    aiohttp: its HTTP parser and WebSocket frames are in C, so a generator process drives
    several times the tables httpx and websockets could (bench/RESULTS.md, 2026-12-04).  The
    sockets offer permessage-deflate as browsers do, so the server compresses as it would for
    them."""

    def __init__(self, bases: list[str], http: aiohttp.ClientSession, stats: Stats,
                 rng: random.Random, draw: Any, act_over: str = "http",
                 route: str = "any") -> None:
        # with several server instances each request and socket goes to any of them, as
        # behind a load balancer without sticky sessions (deploy/Caddyfile.cluster); with
        # ``route`` "table" all of a table's traffic goes to the instance that made (and so
        # owns) it, as behind a proxy that routes by table
        self.bases, self.http, self.stats, self.rng, self.draw = bases, http, stats, rng, draw
        self.base = rng.choice(bases)
        if route == "table":
            self.bases = [self.base]
        self.act_over = act_over
        self.sockets: dict[int, Any] = {}  # seat -> its open WebSocket (actions over it)
        self.id = ""
        self.tokens: dict[int, str] = {}
        self.sent: dict[int, float] = {}  # version expected -> when its action was posted
        self.arrived: dict[int, int] = {}  # version -> seats that saw it
        self.acting: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.last = time.perf_counter()  # when this table last moved
        self.latest: dict[int, dict[str, Any]] = {}
        self.latest_v: dict[int, int] = {}  # the version of each seat's latest view

    async def create(self, game: str, bot_delay_ms: int) -> None:
        options, kinds = GAMES[game]
        seats = [{"type": k} if k == "human" else {"type": "bot", "level": "random"}
                 for k in kinds]
        body = {"game": game, "options": options, "seats": seats, "live": True,
                "bot_delay_ms": bot_delay_ms}
        for attempt in range(10):
            try:
                async with self.http.post(self.base + "/api/tables", json=body,
                                          headers={"Origin": self.base}) as r:
                    if r.status in (429, 503) and attempt < 9:  # as a real client: wait
                        self.stats.kinds[f"create {r.status} (retried)"] += 1
                        await asyncio.sleep(float(r.headers.get("Retry-After") or 1))
                        continue
                    if r.status != 201 and r.status != 200:
                        raise RuntimeError(f"create answered {r.status}")
                    got = await r.json(loads=loads)
                    break
            except aiohttp.ClientConnectionError:
                if attempt == 9:
                    raise
                await asyncio.sleep(0.5)
        self.id = got["id"]
        self.tokens = {s["seat"]: s["token"] for s in got["seats"] if "token" in s}

    # each seat's task until ``stop``, then cancelled: load.py's own (it uses only ``tokens``
    # and ``seat``)
    run = Table.run

    async def seat(self, seat: int, token: str, stop: asyncio.Event) -> None:
        base = self.rng.choice(self.bases)
        url = f"{base}/api/tables/{self.id}/ws?token={token}"
        try:
            async with self.http.ws_connect(url, compress=15, autoping=True,
                                            max_msg_size=2**22) as ws:
                self.sockets[seat] = ws
                async for m in ws:
                    if m.type != aiohttp.WSMsgType.TEXT:
                        if m.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
                            break
                        continue
                    self.heard(seat, token, loads(m.data), stop)
            if not stop.is_set():
                self.stats.fail("socket closed by the server")
        except asyncio.CancelledError:
            raise
        except Exception as e:  # counted, as a player would notice it
            if not stop.is_set():
                self.stats.fail(f"socket {type(e).__name__}")

    def heard(self, seat: int, token: str, msg: dict[str, Any], stop: asyncio.Event) -> None:
        kind = msg.get("type")
        if kind == "error" and self.act_over == "ws":  # an action refused over the socket
            code = (msg.get("error") or {}).get("code")
            if code not in ("conflict", "stale", "illegal"):  # a bot moved first: no error
                self.stats.fail(f"action {code}")
            view = self.latest.get(seat, {})  # still its turn: it chooses again, as over HTTP
            if view.get("to_move") == seat and view.get("legal_actions") and \
                    seat not in self.acting and not stop.is_set():
                self.spawn(seat, token, self.latest_v.get(seat, 0), view["legal_actions"])
            return
        if kind != "view" and kind != "event":
            return
        now = time.perf_counter()
        v = msg["version"]
        self.last = now
        stats = self.stats
        if kind == "event" and stats.measuring and seat == min(self.tokens):
            stats.events += 1
        t0 = self.sent.get(v)
        if t0 is not None:
            got = self.arrived.get(v, 0) + 1
            if got == len(self.tokens):
                del self.sent[v]
                self.arrived.pop(v, None)
                if stats.measuring:
                    stats.latencies.append(now - t0)
            else:
                self.arrived[v] = got
        view = msg["view"]
        self.latest[seat] = view
        self.latest_v[seat] = v
        if view.get("to_move") == seat and view.get("legal_actions") and \
                seat not in self.acting and not stop.is_set():
            self.spawn(seat, token, v, view["legal_actions"])

    # one task acting for a seat at a time (load.py's: it uses ``acting``, ``act``, ``tasks``)
    spawn = Table.spawn

    async def act(self, seat: int, token: str, version: int, legal: list[str]) -> None:
        again: dict[str, Any] | None = None
        base = self.rng.choice(self.bases)
        url = f"{base}/api/tables/{self.id}/actions"
        auth = {"Authorization": f"Bearer {token}"}
        try:
            await asyncio.sleep(self.draw())
            self.sent[version + 1] = time.perf_counter()
            body = {"action": self.rng.choice(legal), "id": uuid.uuid4().hex}
            ws = self.sockets.get(seat)
            if self.act_over == "ws" and ws is not None and not ws.closed:
                # over the socket the seat already holds: the answer (ack or error) and the
                # new view come back on it, read by ``seat``'s loop
                await ws.send_str(dumps({"type": "action", "version": version, **body}))
                return
            for attempt in range(2):
                try:
                    async with self.http.post(url, json=body, headers=auth) as r:
                        status = r.status
                        await r.read()
                    break
                except (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError):
                    # a kept-alive connection closed as this went out: send it again, as a
                    # browser does; the same client id makes it count once
                    if attempt:
                        raise
                    self.stats.kinds["action resent (keep-alive closed)"] += 1
            if status != 200:
                self.sent.pop(version + 1, None)
                if status != 409:  # 409: a bot moved first (a molodka); not an error
                    self.stats.fail(f"action {status}")
                else:  # look again: if it is still this seat's turn, act on the new view
                    async with self.http.get(f"{base}/api/tables/{self.id}/view",
                                             headers=auth) as r:
                        v = await r.json(loads=loads)
                    if v.get("to_move") == seat and v.get("legal_actions"):
                        again = v
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self.stats.fail(f"action {type(e).__name__}")
        finally:
            self.acting.discard(seat)
        newest = self.latest.get(seat, {})
        if again is None and newest.get("version", -1) > version and \
                newest.get("to_move") == seat and newest.get("legal_actions"):
            again = newest  # its turn again (a caller who leads): the news came while posting
        if again is not None and again.get("version", -1) >= version:
            self.spawn(seat, token, again["version"], again["legal_actions"])


async def worker_main(bases: list[str], plan: list[tuple[float, float, float, int]], rate: float,
                      think: float, dist: str, bot_delay_ms: int, games: list[str],
                      seed: int, act_over: str = "http",
                      route: str = "any") -> list[dict[str, Any]]:
    """Run this process's tables through the plan: (step start, window start, window end,
    tables this process should have).  Per step: latencies, events, errors in the window, and
    this process's CPU seconds in it."""
    rng = random.Random(seed)
    idle = Stats()
    out: list[dict[str, Any]] = []
    # keep-alive shorter than the server's 5 s: the client closes an idle connection first
    conn = aiohttp.TCPConnector(limit=0, keepalive_timeout=3, force_close=False)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=conn, timeout=timeout,
                                     json_serialize=dumps) as http:
        tables: list[Lean] = []
        runners: list[asyncio.Task[None]] = []
        stop = asyncio.Event()
        for start, w0, w1, want in plan:
            await asyncio.sleep(max(0.0, start - time.time()))
            created_errors: Counter[str] = Counter()
            while len(tables) < want and time.time() < w0:
                t = Lean(bases, http, idle, rng, draw_of(dist, think, rng), act_over, route)
                try:
                    await t.create(games[(len(tables) * 7 + seed) % len(games)], bot_delay_ms)
                except Exception as e:
                    created_errors[f"create {type(e).__name__}"] += 1
                    await asyncio.sleep(1)
                    continue
                tables.append(t)
                runners.append(asyncio.create_task(t.run(stop)))
                await asyncio.sleep(1 / rate if rate > 0 else 0)
            if len(tables) < want:
                created_errors["tables not created by the window's start"] += want - len(tables)
            await asyncio.sleep(max(0.0, w0 - time.time()))
            stats = Stats(measuring=True)
            for t in tables:
                t.stats = stats
            cpu0 = time.process_time()
            await asyncio.sleep(max(0.0, w1 - time.time()))
            cpu = time.process_time() - cpu0
            for t in tables:
                t.stats = idle
            stats.kinds.update(created_errors)
            out.append({"latencies": stats.latencies, "events": stats.events,
                        "errors": stats.errors + sum(created_errors.values()),
                        "kinds": dict(stats.kinds), "tables": len(tables), "cpu_s": cpu,
                        "stalled": sum(time.perf_counter() - t.last > 15 for t in tables)})
        stop.set()
        await asyncio.gather(*runners, return_exceptions=True)
        pending = [task for t in tables for task in t.tasks]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    return out


def worker(args: tuple[Any, ...], results: Any) -> None:
    try:
        try:
            import uvloop
            factory: Any = uvloop.new_event_loop
        except ImportError:
            factory = None
        with asyncio.Runner(loop_factory=factory) as runner:
            results.put(runner.run(worker_main(*args)))
    except BaseException as e:  # the parent reports it
        results.put({"crashed": f"{type(e).__name__}: {e}"})


def scrape(bases: list[str], proxy: int | None = None) -> dict[str, float]:
    """The servers' /metrics, summed over labels and instances: name{le=...} kept for
    histograms; with ``proxy`` (its pid), the proxy's CPU seconds as ``proxy_cpu_seconds``."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, float] = {}
    if proxy is not None:
        fields = Path(f"/proc/{proxy}/stat").read_text().rsplit(")", 1)[1].split()
        out["proxy_cpu_seconds"] = (int(fields[11]) + int(fields[12])) / os.sysconf(
            "SC_CLK_TCK")
    for base in bases:
        r = httpx.get(base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"},
                      timeout=30)
        r.raise_for_status()
        _add_samples(out, text_string_to_metric_families(r.text))
    return out


def _add_samples(out: dict[str, float], families: Any) -> None:
    for fam in families:
        for s in fam.samples:
            labels = s.labels
            key = s.name
            if "le" in labels:
                key += f"|le={labels['le']}"
            if s.name == "taash_actions_total":
                key += "|" + ("accepted" if labels.get("result") == "accepted" else "refused")
            out[key] = out.get(key, 0.0) + s.value


def hist_p99(a: dict[str, float], b: dict[str, float], name: str) -> float | None:
    """The 99th percentile bucket bound (ms) of a histogram between two scrapes."""
    total = b.get(f"{name}_count", 0) - a.get(f"{name}_count", 0)
    if total <= 0:
        return None
    bounds = sorted((float(k.split("le=")[1]), k) for k in b
                    if k.startswith(f"{name}_bucket|le=") and "+Inf" not in k)
    for bound, k in bounds:
        if b[k] - a.get(k, 0) >= 0.99 * total:
            return round(bound * 1000, 1)
    return float("inf")


def step_report(n: int, parts: list[dict[str, Any]], secs: float, a: dict[str, float],
                b: dict[str, float]) -> dict[str, Any]:
    lat = [x for p in parts for x in p["latencies"]]
    kinds: Counter[str] = Counter()
    for p in parts:
        kinds.update(p["kinds"])
    accepted = b.get("taash_actions_total|accepted", 0) - a.get("taash_actions_total|accepted", 0)
    cpu = b.get("process_cpu_seconds_total", 0) - a.get("process_cpu_seconds_total", 0)
    batches = b.get("taash_db_batch_actions_count", 0) - a.get("taash_db_batch_actions_count", 0)
    batched = b.get("taash_db_batch_actions_sum", 0) - a.get("taash_db_batch_actions_sum", 0)
    errors = sum(p["errors"] for p in parts)
    gen_cpu = sum(p.get("cpu_s", 0.0) for p in parts)
    proxy_cpu = b.get("proxy_cpu_seconds", 0) - a.get("proxy_cpu_seconds", 0)
    events = sum(p["events"] for p in parts)
    return {
        "tables": sum(p["tables"] for p in parts), "seconds": secs,
        "actions_per_s": round(sum(p["events"] for p in parts) / secs, 1),
        "latency_ms": {"p50": round(pct(lat, 50), 1), "p99": round(pct(lat, 99), 1),
                       "n": len(lat)},
        "errors": errors, "errors_by_kind": dict(kinds),
        "stalled_tables": sum(p["stalled"] for p in parts),
        "generator": {"cpu_cores": round(gen_cpu / secs, 2),
                      "cpu_ms_per_action": round(1000 * gen_cpu / events, 3) if events else None},
        "server": {
            "accepted_per_s": round(accepted / secs, 1),
            "cpu_cores": round(cpu / secs, 2),
            "cpu_ms_per_action": round(1000 * cpu / accepted, 3) if accepted else None,
            "action_p99_ms": hist_p99(a, b, "taash_action_seconds"),
            "loop_lag_p99_ms": hist_p99(a, b, "taash_event_loop_lag_seconds"),
            "gc_pause_p99_ms": hist_p99(a, b, "taash_gc_pause_seconds"),
            "gc_seconds": round(b.get("taash_gc_pause_seconds_sum", 0)
                                - a.get("taash_gc_pause_seconds_sum", 0), 3),
            "db_batch_mean": round(batched / batches, 2) if batches else None,
            "gc_frozen": [a.get("taash_gc_frozen_objects"), b.get("taash_gc_frozen_objects")],
            "live_tables": b.get("taash_live_tables"),
            "rss_mb": round(b.get("process_resident_memory_bytes", 0) / 2**20, 1),
        },
        **({"proxy": {"cpu_cores": round(proxy_cpu / secs, 2),
                      "cpu_ms_per_action": round(1000 * proxy_cpu / accepted, 3)
                      if accepted else None}} if "proxy_cpu_seconds" in b else {}),
        "ok": errors == 0 and bool(lat) and pct(lat, 99) < 100,
        "step": n,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ramp", default="250,500,1000", help="live tables at each step")
    ap.add_argument("--step-seconds", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--procs", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    ap.add_argument("--create-rate", type=float, default=100.0, help="tables/s, all processes")
    ap.add_argument("--think-ms", type=int, default=2000, help="mean time a player takes")
    ap.add_argument("--think-dist", choices=("exp", "uniform"), default="exp")
    ap.add_argument("--bot-delay-ms", type=int, default=2000)
    ap.add_argument("--games", default="court-piece,goat,court-piece-2p")
    ap.add_argument("--db", default="sqlite", help="sqlite, postgres, or a database URL")
    ap.add_argument("--pg-admin", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--server-args", default="", help="more `taash serve` flags")
    ap.add_argument("--instances", type=int, default=1,
                    help="server processes, each on its own port (more than one: on "
                    "PostgreSQL and Redis, each request and socket to any of them)")
    ap.add_argument("--act", choices=("http", "ws"), default="http",
                    help="how a seat acts: a POST each (as the page did) or a message over "
                    "the WebSocket it already holds")
    ap.add_argument("--route", choices=("any", "table"), default="any",
                    help="any: each request and socket to any instance; table: all of a "
                    "table's traffic to the instance that made it (a proxy routing by table)")
    ap.add_argument("--caddy", action="store_true",
                    help="the instances behind Caddy with deploy/Caddyfile.cluster (each "
                    "table routed to one instance, --proxy-routes-tables): the generator "
                    "talks to Caddy only, and Caddy's CPU is reported beside the servers'")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0",
                    help="the bus of several instances")
    ap.add_argument("--profile", metavar="FILE",
                    help="run the server under cProfile, write its stats to FILE and print "
                    "the functions that took the most of its time (the profiler slows it)")
    args = ap.parse_args()
    ramp = [int(x) for x in args.ramp.split(",")]
    games = args.games.split(",")

    import contextlib
    import subprocess
    import tempfile

    from load import _pg, free_port, stop_server

    tmp = tempfile.TemporaryDirectory(prefix="taash-loadgen-")
    dbname = None
    if args.db == "sqlite":
        db = f"sqlite+aiosqlite:///{tmp.name}/bench.db"
    elif args.db == "postgres":
        dbname = f"taash_loadgen_{os.getpid()}"
        asyncio.run(_pg(f'CREATE DATABASE "{dbname}"', args.pg_admin))
        db = args.pg_admin.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
        db += f"/{dbname}"
    else:
        db = args.db
    if args.instances > 1 and args.db == "sqlite":
        raise SystemExit("several instances share PostgreSQL: add --db postgres")
    profiled = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    # each live seat is a connection: past the default cap of 4,096 they would be refused
    env = {**os.environ, "TAASH_MAX_CONNECTIONS": os.environ.get("TAASH_MAX_CONNECTIONS",
                                                                 "19000")}
    bus = ["--redis", args.redis] if args.instances > 1 else []
    if args.caddy:
        if args.instances < 2:
            raise SystemExit("--caddy is for several instances: add --instances 2 or more")
        bus.append("--proxy-routes-tables")
    servers = []
    bases = []
    for _ in range(args.instances):
        port = free_port()
        servers.append(subprocess.Popen(
            [sys.executable, *profiled, "-m", "taash", "serve", "--port", str(port), "--db",
             db, "--rate-limit", "0", "--metrics-token", TOKEN, *bus,
             *args.server_args.split()], stdout=subprocess.PIPE, text=True, env=env))
        bases.append(f"http://127.0.0.1:{port}")
    procs: list[Any] = []
    try:
        for server, base in zip(servers, bases, strict=True):
            assert server.stdout is not None
            print(server.stdout.readline().strip(), file=sys.stderr)
            for _ in range(100):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/health").status_code == 200:
                        break
                time.sleep(0.1)
        proxy = None
        targets = bases
        if args.caddy:
            proxy, front = start_caddy(bases, Path(tmp.name))
            servers.append(proxy)  # stopped with the rest
            targets = [front]
        # the schedule, in wall-clock time, shared by every process
        t = time.time() + 2
        plan_all = []
        have = 0
        for n in ramp:
            create_s = (n - have) / args.create_rate
            w0 = t + create_s + args.warmup
            plan_all.append((t, w0, w0 + args.step_seconds, n))
            t = w0 + args.step_seconds
            have = n
        ctx = mp.get_context("spawn")
        results = ctx.Queue()
        for i in range(args.procs):
            share = [(s, w0, w1, n // args.procs + (1 if i < n % args.procs else 0))
                     for s, w0, w1, n in plan_all]
            wargs = (targets, share, args.create_rate / args.procs, args.think_ms / 1000,
                     args.think_dist, args.bot_delay_ms, games, i + 1, args.act, args.route)
            p = ctx.Process(target=worker, args=(wargs, results), daemon=True)
            p.start()
            procs.append(p)
        scrapes = []
        for _s, w0, w1, _n in plan_all:
            time.sleep(max(0.0, w0 - time.time()))
            pid = proxy.pid if proxy is not None else None
            a = scrape(bases, pid)
            time.sleep(max(0.0, w1 - time.time()))
            scrapes.append((a, scrape(bases, pid)))
        parts = []
        with contextlib.suppress(queue.Empty):
            for _ in procs:  # a process still creating its tables when the plan ended is late
                parts.append(results.get(timeout=120))
        crashed = [p["crashed"] for p in parts if isinstance(p, dict)]
        if crashed:
            raise SystemExit(f"a generator process failed: {crashed[0]}")
        if len(parts) < len(procs):
            # the generator fell behind its plan (it could not create or drive the tables in
            # time): the server's own figures of each step are still worth printing, marked
            steps = [dict(step_report(k + 1, [], args.step_seconds, a, b),
                          generator_late=f"{len(procs) - len(parts)} of {len(procs)} processes "
                          "fell behind the plan and never reported", ok=False)
                     for k, (a, b) in enumerate(scrapes)]
        else:
            steps = [step_report(k + 1, [p[k] for p in parts], args.step_seconds, a, b)
                     for k, (a, b) in enumerate(scrapes)]
        good = [s["tables"] for s in steps if s["ok"]]
        print(json.dumps({
            "db": args.db, "instances": args.instances, "procs": args.procs,
            "act": args.act, "route": "caddy" if args.caddy else args.route,
            "think_ms": args.think_ms,
            "think_dist": args.think_dist, "bot_delay_ms": args.bot_delay_ms, "games": games,
            "cpus": os.cpu_count(), "steps": steps,
            "knee_tables": max(good) if good else None,
            "fsync_ms_here": fsync_probe(Path(tmp.name)),
            "load_average": os.getloadavg(),
        }, indent=1))
    finally:
        for p in procs:
            p.join(5)
            if p.is_alive():
                p.kill()
        if args.caddy and len(servers) > args.instances:
            servers.pop().terminate()  # the proxy
        for server in servers[1:]:
            stop_server(server, None, args.pg_admin, None)
        stop_server(servers[0], dbname, args.pg_admin, tmp)
    if args.profile:
        print_profile(args.profile)


def start_caddy(bases: list[str], folder: Path) -> tuple[Any, str]:
    """Caddy on a free loopback port with deploy/Caddyfile.cluster's routing (plain HTTP, no
    log file, the instances as upstreams); its process and address."""
    import re
    import subprocess

    from load import free_port

    text = (Path(__file__).resolve().parent.parent / "deploy" / "Caddyfile.cluster").read_text()
    text = re.sub(r"\n\tlog \{.*?\n\t\}\n", "\n", text, flags=re.S)
    port = free_port()
    text = text.replace("{$TAASH_DOMAIN} {", f"http://127.0.0.1:{port} {{", 1)
    ups = " ".join(b.removeprefix("http://") for b in bases)
    text, n = re.subn(r"reverse_proxy (127\.0\.0\.1:800\d ?)+", f"reverse_proxy {ups} ", text)
    assert n == 1, "deploy/Caddyfile.cluster: its reverse_proxy line was not found"
    conf = folder / "Caddyfile"
    conf.write_text("{\n\tadmin off\n\tauto_https off\n\tstorage file_system "
                    f"{folder / 'caddy'}\n}}\n\n" + text)
    proc = subprocess.Popen(["caddy", "run", "--adapter", "caddyfile", "--config", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    front = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx.get(front + "/api/health").status_code == 200:
                return proc, front
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("caddy did not start (is it installed? scripts/services installs it)")


def print_profile(path: str, top: int = 25) -> None:
    """The server's functions by their own time, and the share of the whole each took."""
    import pstats

    if not Path(path).exists():
        print(f"no profile at {path}: the server did not stop cleanly", file=sys.stderr)
        return
    st = pstats.Stats(path)
    # the event loop's wait for sockets is idle time, not work: left out of the whole
    rows = {k: v for k, v in st.stats.items()  # type: ignore[attr-defined]
            if "select.epoll" not in k[2]}
    total = sum(v[2] for v in rows.values()) or 1.0
    print(f"\nthe server's own time by function ({total:.1f} s of work profiled in its main "
          "process, idle waits left out; hard bots' searches run in worker processes, not "
          "here):", file=sys.stderr)
    for (file, line, name), (_cc, calls, tt, ct, _callers) in sorted(
            rows.items(), key=lambda kv: -kv[1][2])[:top]:
        where = f"{Path(file).name}:{line}" if line else file
        print(f"{100 * tt / total:5.1f}%  own {tt:7.2f} s  with callees {ct:7.2f} s  "
              f"{calls:>9}  {name}  {where}", file=sys.stderr)
    by_part: Counter[str] = Counter()
    for (file, _line, _name), v in rows.items():
        by_part[part_of(file)] += v[2]
    print("\nby part: " + ", ".join(f"{k} {100 * t / total:.1f}%"
                                     for k, t in by_part.most_common(12)), file=sys.stderr)


def part_of(file: str) -> str:
    """Which library (or which part of taash) a profiled function's file belongs to."""
    parts = Path(file).parts
    if "taash" in parts:
        rest = parts[parts.index("taash") + 1:]
        return "taash/" + rest[0] if len(rest) > 1 else "taash"
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1]
    if file == "~":
        return "builtins"
    return "stdlib/" + Path(file).stem


if __name__ == "__main__":
    main()
