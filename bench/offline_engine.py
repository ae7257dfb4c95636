"""Offline play's engine in Chromium (issue 46; not a test): how long Pyodide and taash take to
load, and how long the hard bot takes a move, in the module worker the page uses and on a
page's main thread with and without Chromium's CPU throttling.

    .venv/bin/python bench/offline_engine.py --moves 10

Why the main thread too: Chromium's CPU throttling (CDP ``Emulation.setCPUThrottlingRate``)
slows a page's main thread only; sent to a dedicated worker's target it answers "Operation is
only supported for pages, not workers" (Chromium 156).  So the throttled figure runs the same
files and the same ``taash.offline.Engine`` on a throttled main thread (its CSP bypassed: the
page's own policy lets only the worker compile WebAssembly), beside the same unthrottled, to
show the two threads run alike.  Each mode starts in a fresh context (no cache), plays the
first ``--moves`` moves of one match of each game (the defaults; a fixed seed) with the hard
bot at the server's budget (or ``--budget``) for every move, and prints the load times and
each game's median and largest move (``ms``: the engine's own clock around the bot;
``trip_ms``: the page's, around the message, for the worker).  Wall clocks: on a shared
machine they count waits for a core too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import ARGS  # noqa: E402
from tests.web.helpers import CHROMIUM, Server  # noqa: E402

GAMES = ["court-piece", "court-piece-2p", "goat"]
IN_WORKER = """async () => {
  const { OfflineEngine } = await import('/assets/offline_engine.js');
  const e = new OfflineEngine();
  const t0 = performance.now();
  const about = await e.ask({ op: 'hello' });
  window.ask = (msg) => e.ask(msg);
  return { ...about, total_ms: Math.round(performance.now() - t0) };
}"""
# The worker's start (offline_worker.js), on the page's own thread.
ON_PAGE = """async () => {
  const t0 = performance.now();
  const { loadPyodide } = await import('/assets/offline/pyodide/pyodide.mjs');
  const py = await loadPyodide({ indexURL: '/assets/offline/pyodide/' });
  const t1 = performance.now();
  const zip = await (await fetch('/assets/offline/taash.zip')).arrayBuffer();
  py.unpackArchive(zip, 'zip', { extractDir: '/home/pyodide/taash' });
  py.pyimport('sys').path.insert(0, '/home/pyodide/taash');
  const engine = py.pyimport('taash.offline').Engine();
  const t2 = performance.now();
  window.ask = async (msg) => JSON.parse(engine.handle_json(JSON.stringify(msg)));
  return { load_ms: { pyodide: Math.round(t1 - t0), taash: Math.round(t2 - t1) },
           total_ms: Math.round(t2 - t0) };
}"""
MOVES = """async ({ game, moves, budget }) => {
  const m = (await window.ask({ op: 'new', game, seed: 46, first_seat: 0 })).match;
  const out = [];
  for (let i = 0; i < moves; i++) {
    const a = await window.ask({ op: 'actors', match: m });
    if (a.over) break;
    const seat = a.actors[0];
    const t = performance.now();
    const b = await window.ask({ op: 'bot', match: m, seat, level: 'hard', budget_ms: budget });
    out.push({ ms: b.ms, trip_ms: performance.now() - t });
    if (b.action === null) break;
    await window.ask({ op: 'apply', match: m, seat, action: b.action });
  }
  return out;
}"""


def mode(browser: Any, base: str, where: str, rate: float, moves: int,
         budget: float | None) -> dict[str, Any]:
    ctx = browser.new_context(base_url=base, service_workers="block",
                              bypass_csp=where == "page")
    ctx.set_default_timeout(600_000)
    try:
        page = ctx.new_page()
        page.goto("/assets/fair.html")
        if rate != 1:
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        load = page.evaluate(IN_WORKER if where == "worker" else ON_PAGE)
        games = {}
        for game in GAMES:
            got = page.evaluate(MOVES, {"game": game, "moves": moves, "budget": budget})
            ms = [g["ms"] for g in got]
            trip = [g["trip_ms"] for g in got]
            games[game] = {"moves": len(ms), "median_ms": round(statistics.median(ms)),
                           "max_ms": round(max(ms)),
                           "median_trip_ms": round(statistics.median(trip))}
        return {"where": where, "throttle": rate, "budget_ms": budget, "load": load,
                "hard_bot": games}
    finally:
        ctx.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=10, help="hard-bot moves per game and mode")
    ap.add_argument("--budget", type=float, default=None,
                    help="the hard bot's budget in ms (default: the server's, per game)")
    args = ap.parse_args()
    made = subprocess.run([sys.executable, str(ROOT / "scripts" / "offline")], timeout=600)
    if made.returncode:
        sys.exit("offline play's files could not be put in place (scripts/offline)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(Path(tmp) / "bench.db").start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for where, rate in (("worker", 1), ("page", 1), ("page", 4)):
                    print(json.dumps(mode(browser, srv.base, where, rate, args.moves,
                                          args.budget)), flush=True)
                browser.close()
        finally:
            srv.stop()


if __name__ == "__main__":
    main()
