"""Frame-budget benchmark for the table page (issue 27; not a test): whole four-player Court
Piece deals against bots, double sar (so that tricks also sweep onto the pile and the pile to
its collector), with motion on, in Debian's Chromium on a phone-sized page; a Chromium trace
gives each main-thread task's wall-clock and CPU time, and the page's long-task timeline
(a PerformanceObserver from its first script on) the tasks over 50 ms by the wall clock.

    .venv/bin/python bench/frame_budget.py --runs 3

Prints, per run and over all runs, the number of tasks over 50 ms by the wall clock and by
CPU time, and the median and largest CPU and wall-clock time of those tasks.  The budget of
issue 27: no task over 50 ms of CPU.  Wall clocks count waits for a core too (on a busy
2-core machine a task of 11 ms CPU showed as 53 ms): compare CPU figures, on the same
machine.  Each run is bounded by --timeout seconds (the script gives up, saying so).

It was tests/web/test_frame_budget.py's timing half, moved here because a test must not
fail on how fast a shared machine is; the test keeps what the page does (one draw a task,
the motion run).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.conftest import ARGS, PHONE  # noqa: E402
from tests.web.helpers import (  # noqa: E402
    CHROMIUM,
    SUMMARY_CONTINUE,
    Server,
    choose_double_sar_deals,
    play_turn,
    press,
)

LONG_MS = 50
MATCH_SUMMARY = "dialog[data-dialog='match-summary']"
WATCH = """(() => {
  try {
    localStorage.setItem('taash.pace', '400');
    localStorage.setItem('taash.bot_delay_ms', '0');
  } catch (e) {}
  window.__long = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__long.push({ start: Math.round(e.startTime), ms: Math.round(e.duration) });
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { window.__long = String(e); }
})();"""


def main_tasks(trace: bytes) -> list[tuple[float, float]]:
    """The page's main-thread tasks from a Chromium trace: (ms wall clock, ms CPU)."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    mains = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M"
             and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    return [(e["dur"] / 1000, e.get("tdur", 0) / 1000) for e in events
            if e.get("ph") == "X" and (e["pid"], e["tid"]) in mains
            and e["name"] == "ThreadControllerImpl::RunTask"]


def one_run(browser: Any, base: str, timeout: float) -> dict[str, Any]:
    ctx = browser.new_context(base_url=base, **PHONE, service_workers="block")
    ctx.set_default_timeout(15_000)
    try:
        page = ctx.new_page()
        page.add_init_script(WATCH)
        choose_double_sar_deals(page)
        browser.start_tracing(page=page, categories=["toplevel"])
        start = page.evaluate("() => performance.now()")
        press(page, "[data-action='play-bots']")
        page.wait_for_selector("main.table[data-game='court-piece'][data-version]")
        deadline = time.monotonic() + timeout
        while not page.locator(MATCH_SUMMARY).count():
            if time.monotonic() > deadline:
                raise SystemExit(f"gave up: the match did not end in {timeout:g} s")
            if page.locator(SUMMARY_CONTINUE).count():
                press(page, SUMMARY_CONTINUE)
            elif not play_turn(page):
                # the bots' turn: wait for the table to change, not for a time
                v = page.evaluate("() => document.querySelector('main.table').dataset.version")
                page.wait_for_function(
                    """([v, s, m]) => document.querySelector('main.table').dataset.version !== v
                    || document.querySelector('main.table').dataset.yourTurn === 'true'
                    || !!document.querySelector(s) || !!document.querySelector(m)""",
                    arg=[v, SUMMARY_CONTINUE, MATCH_SUMMARY])
        tasks = main_tasks(browser.stop_tracing())
        long = page.evaluate("() => window.__long")
        during = [t["ms"] for t in long if t["start"] >= start] if isinstance(long, list) else []
        return {"tasks": tasks, "long_wall": during}
    finally:
        ctx.close()


def show(name: str, tasks: list[tuple[float, float]], long_wall: list[int]) -> None:
    over_cpu = [c for _w, c in tasks if c > LONG_MS]
    over_wall = [w for w, _c in tasks if w > LONG_MS]
    cpu = sorted(c for _w, c in tasks)
    top = cpu[-20:] or [0.0]
    print(f"{name}: {len(tasks)} tasks; over {LONG_MS} ms: {len(over_cpu)} by CPU, "
          f"{len(over_wall)} by wall clock (trace), {len(long_wall)} long tasks (timeline); "
          f"CPU ms: median {statistics.median(cpu or [0]):.2f}, median of the 20 busiest "
          f"{statistics.median(top):.1f}, max {max(cpu or [0]):.1f}; "
          f"wall ms max {max((w for w, _c in tasks), default=0):.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run at most")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "bench.db", log=Path(tmp) / "server.log").start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                try:
                    every: list[tuple[float, float]] = []
                    walls: list[int] = []
                    for i in range(args.runs):
                        got = one_run(browser, server.base, args.timeout)
                        show(f"run {i + 1}", got["tasks"], got["long_wall"])
                        every += got["tasks"]
                        walls += got["long_wall"]
                    show(f"all {args.runs} runs", every, walls)
                finally:
                    browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
