"""Server CPU per request through a real `taash serve` (uvicorn, its HTTP protocol, the head
guard, the app): paired runs of two source trees, alternated, on loopback.

    .venv/bin/python bench/head_guard.py --a src --b /tmp/old/src --rounds 5 --requests 2000

Each round starts each tree's server in turn, sends ``--requests`` GET /api/health and as many
GET /api/tables/{id} over one kept-alive connection, and reads the server process's CPU time
(user + system, /proc) spent on them.  Prints µs of server CPU per request for each round and
the medians; Linux only."""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one(src: str, requests: int, folder: Path) -> float:
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    proc = subprocess.Popen([sys.executable, "-m", "taash", "serve", "--host", "127.0.0.1",
                             "--port", str(port), "--db", f"sqlite:///{folder / f'{port}.db'}"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=10) as c:
            for _ in range(200):
                try:
                    if c.get("/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            else:
                raise SystemExit(f"the server of {src} did not start")
            t = c.post("/api/tables", json={"game": "goat", "seats": [{"type": "human"}] * 4,
                                            "live": False}).json()["id"]
            for _ in range(100):  # warm
                c.get("/api/health")
            before = cpu_s(proc.pid)
            for _ in range(requests):
                c.get("/api/health")
                c.get(f"/api/tables/{t}")
            spent = cpu_s(proc.pid) - before
        return spent / (2 * requests) * 1e6
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="a source tree (its src folder)")
    ap.add_argument("--b", required=True, help="the other source tree")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--requests", type=int, default=2000)
    args = ap.parse_args()
    got: dict[str, list[float]] = {"a": [], "b": []}
    with tempfile.TemporaryDirectory() as d:
        for r in range(args.rounds):
            order = ("a", "b") if r % 2 == 0 else ("b", "a")
            for k in order:
                got[k].append(one(getattr(args, k), args.requests, Path(d)))
            print(f"round {r + 1}: a {got['a'][-1]:.0f} µs, b {got['b'][-1]:.0f} µs", flush=True)
    ma, mb = statistics.median(got["a"]), statistics.median(got["b"])
    print(f"median server CPU per request: a {ma:.0f} µs, b {mb:.0f} µs, a/b {ma / mb:.2f}")


if __name__ == "__main__":
    main()
