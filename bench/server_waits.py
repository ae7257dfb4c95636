"""How long the server takes for the things tests/server checks happen but no longer times (a
test asserts behaviour; a duration is a measurement, and a loaded machine makes it flaky).

Starts ``taash serve`` on 127.0.0.1 with SQLite in a temporary folder (as the tests do, through
tests/server/helpers.Server) and measures, ``--runs`` times each, and prints the median and
the worst:

- start: from the process's start to its first 200 from ``/api/health``;
- health under catch-ups: ``/api/health`` while four far-behind catch-ups of a finished
  8-deal Court Piece table run (was ``took < 0.5`` in test_abuse);
- first stream line: a seat's ``/stream`` open to its first line, and a move to the event
  that line's stream then gets (was ``< 2`` s in test_live);
- SIGTERM under play: the signal to the process's exit while bots write (was ``took < 15``
  in test_abuse).

    .venv/bin/python bench/server_waits.py --runs 5
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.helpers import Api, Server, tokens_of
from tests.waiting import wait_until


def catch_up(base: str, table: str, since: int) -> None:
    with httpx.Client(base_url=base, timeout=30) as c, c.stream(
            "GET", f"/api/tables/{table}/stream", params={"since": since}) as r:
        for line in r.iter_lines():
            if json.loads(line)["type"] == "ping":
                return


def measure(folder: Path, run: int) -> dict[str, float]:
    out: dict[str, float] = {}
    t0 = time.monotonic()
    srv = Server(f"sqlite+aiosqlite:///{folder / f'w{run}.db'}", "--bot-delay", "0",
                 "--sweep", "60").start()
    out["start"] = time.monotonic() - t0
    api = Api(srv.base)
    try:
        t = api.create("court-piece", {"session_end": {"deals": 8}},
                       seats=[{"type": "bot", "level": "random"}] * 4, live=True, bot_delay_ms=0)
        v = wait_until(lambda: (p := api.public(t["id"]))["over"] and p["version"], timeout=120,
                       what="the bots to finish")
        workers = [threading.Thread(target=catch_up, args=(srv.base, t["id"], s))
                   for s in (v - 199, v - 190, v - 180, v - 170)]
        for w in workers:
            w.start()
        t0 = time.monotonic()
        assert api.http.get("/api/health").status_code == 200
        out["health under catch-ups"] = time.monotonic() - t0
        for w in workers:
            w.join(60)
        two = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2,
                         first_seat=0)
        toks = tokens_of(two)
        t0 = time.monotonic()
        with httpx.stream("GET", f"{srv.base}/api/tables/{two['id']}/stream",
                          params={"token": toks[1]}, timeout=30) as r:
            lines = (json.loads(line) for line in r.iter_lines())
            next(lines)
            out["first stream line"] = time.monotonic() - t0
            t0 = time.monotonic()
            assert api.act(two["id"], toks[0], "trump:S").status_code == 200
            next(m for m in lines if m["type"] == "event")
            out["move to its event"] = time.monotonic() - t0
        busy = [api.create("court-piece", {"session_end": {"deals": 500}},
                           seats=[{"type": "bot", "level": "random"}] * 4, live=True,
                           bot_delay_ms=0)["id"] for _ in range(3)]
        wait_until(lambda: sum(api.public(b)["version"] for b in busy) > 300,
                   what="the bots writing")
    finally:
        api.close()
    assert srv.proc is not None
    t0 = time.monotonic()
    srv.proc.send_signal(signal.SIGTERM)
    srv.proc.wait(60)
    out["SIGTERM under play"] = time.monotonic() - t0
    srv.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    got: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            for k, v in measure(Path(tmp), run).items():
                got.setdefault(k, []).append(v)
    print(f"{'':26} {'median s':>9} {'worst s':>9}   ({args.runs} runs)")
    for k, vs in got.items():
        print(f"{k:26} {statistics.median(vs):9.3f} {max(vs):9.3f}")


if __name__ == "__main__":
    main()
