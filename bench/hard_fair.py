"""How long one table waits for its hard bot while other tables full of hard bots play (issue
25, 5; not a test).

Starts ``taash serve`` on 127.0.0.1 (SQLite in a temporary folder), opens one victim table
(court-piece-2p: a human seat played by this script, a hard bot) and measures the bot's reply
time (the human's move answered to the human's turn again) alone, then with ``--hard-tables``
tables of four hard bots each playing flat out (made by one signed-in player).  Prints the
reply times (p50, p99, max) and how many hard moves fell back to the easy bot.

    python bench/hard_fair.py --hard-tables 8 --duration 20

Loopback only; bounded by --duration.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import ROOT, free_port, pct


def replies(http: httpx.Client, tid: str, token: str, seconds: float,
            rng: random.Random) -> list[float]:
    """Play the human seat for ``seconds``; the bot's reply times."""
    auth = {"Authorization": f"Bearer {token}"}
    out: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = http.get(f"/api/tables/{tid}/view", headers=auth).json()
        if v["over"]:
            break
        if v.get("to_move") != v["seat"] or not v.get("legal_actions"):
            time.sleep(0.01)
            continue
        r = http.post(f"/api/tables/{tid}/actions", headers=auth,
                      json={"action": rng.choice(v["legal_actions"]), "version": v["version"]})
        if r.status_code != 200:
            continue
        t0 = time.monotonic()
        while time.monotonic() < end + 30:
            w = http.get(f"/api/tables/{tid}/view", headers=auth).json()
            if w["over"] or (w.get("to_move") == w["seat"] and w.get("legal_actions")):
                out.append(time.monotonic() - t0)
                break
            time.sleep(0.01)
    return out


def summary(xs: list[float]) -> dict[str, Any]:
    return {"replies": len(xs), "p50_ms": round(pct(xs, 50)), "p99_ms": round(pct(xs, 99)),
            "max_ms": round(max(xs) * 1000) if xs else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--hard-tables", type=int, default=8)
    ap.add_argument("--duration", type=float, default=20.0, help="seconds per stretch")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="taash-hard-")
    port = free_port()
    log = Path(tmp.name) / "server.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "taash", "serve", "--port", str(port), "--db",
         f"sqlite+aiosqlite:///{tmp.name}/h.db", "--rate-limit", "0", "--log-level", "info"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=log.open("w"), text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/api/health").status_code == 200:
                    break
            time.sleep(0.1)
        rng = random.Random(5)
        with httpx.Client(base_url=base, timeout=60) as http, \
                httpx.Client(base_url=base, timeout=60) as player:
            r = http.post("/api/tables", json={
                "game": "court-piece-2p", "live": False, "options": {"target": 100},
                "seats": [{"type": "human"}, {"type": "bot", "level": "hard"}]})
            r.raise_for_status()
            tid, token = r.json()["id"], r.json()["seats"][0]["token"]
            alone = replies(http, tid, token, args.duration, rng)
            player.get("/api/me")
            made = 0
            for _ in range(args.hard_tables):
                r = player.post("/api/tables", headers={"Origin": base}, json={
                    "game": "court-piece", "live": False,
                    "seats": [{"type": "bot", "level": "hard"}] * 4})
                made += r.status_code == 201
            crowded = replies(http, tid, token, args.duration, rng)
        text = log.read_text(errors="replace")
        print(json.dumps({
            "hard_tables": made, "alone": summary(alone), "with_hard_tables": summary(crowded),
            "fallbacks_to_easy": text.count("missed its deadline"),
        }, indent=1))
    finally:
        server.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
        if server.poll() is None:
            server.kill()
        tmp.cleanup()


if __name__ == "__main__":
    main()
