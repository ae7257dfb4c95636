"""The frame budget (issue 27): with motion on, whole four-player Court Piece deals against
bots (double sar, so that tricks also sweep onto the pile and the pile to its collector) run
with no task over 50 ms: judged by each task's CPU time in a Chromium trace, beside the
long-task timeline a PerformanceObserver reads from the page's first script on (its wall clock
counts waits for a core, printed); and the table is drawn at most once in a task."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.helpers import Server, press
from tests.web.test_a11y import MATCH_SUMMARY, SUMMARY_CONTINUE, until_summary

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Bots move at once; the page holds each finished trick for 400 ms (its sweep: 140 ms), so the
# motion runs but the deal takes seconds.  Every long task, and every animation the page starts
# with what it moved (a hand's card, a play with the trick's sweep, the pile), caught as it is
# made or starts: looking for animations each frame would itself cost the page a style update
# a frame.
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
  // how many times the table was drawn (its data-version written) in one script's run: the
  // mutations of one run come to the observer together
  window.__draws = [];
  new MutationObserver((records) => {
    window.__draws.push(records.filter((r) => r.target.matches('main.table')).length);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-version'] });
  window.__moves = [];
  const record = (el, a, name) => {
    const trick = el.closest('.trick');
    const t = a.effect.getComputedTiming();
    window.__moves.push({
      what: el.closest('[data-hand]') ? 'hand' : el.classList.contains('pile') ? 'pile'
        : el.classList.contains('play') ? 'play' : String(el.className),
      name, sweep: trick ? trick.dataset.sweep || '' : '', end: t.endTime, delay: t.delay });
  };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const a = animate.apply(this, args);
    record(this, a, 'web');
    return a;
  };
  document.addEventListener('animationstart', (e) => {
    for (const a of e.target.getAnimations()) {
      if (a instanceof CSSAnimation && a.animationName === e.animationName) {
        record(e.target, a, a.animationName);
      }
    }
  }, true);
})();"""
LONG_MS = 50


def busiest_tasks(trace: bytes) -> list[tuple[float, float]]:
    """The page's main-thread tasks of over 50 ms, from a Chromium trace: (ms of wall-clock
    time, ms the thread spent on the CPU)."""
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    mains = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M"
             and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    return [(e["dur"] / 1000, e.get("tdur", 0) / 1000) for e in events
            if e.get("ph") == "X" and (e["pid"], e["tid"]) in mains
            and e["name"] == "ThreadControllerImpl::RunTask" and e["dur"] > LONG_MS * 1000]


def test_a_deal_against_bots_has_no_long_task(new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base, fast=False)
    page.add_init_script(WATCH)
    page.goto("/")
    press(page, "[data-game-choice='court-piece']")
    press(page, ".options-box summary")
    page.select_option("[data-option='session_end']", "deals")
    # two deals: the first deal's hand may be dealt before the page opens (when a bot calls
    # trump at once), so only the second is sure to be dealt in front of the player
    page.fill("[data-option='session_n']", "2")
    page.select_option("[data-option='sar']", "double")
    press(page, "[data-level='easy']")
    # the deal's own tasks: from the tap that opens the table (the home page's load is not
    # the deal's).  A trace beside the timeline tells the page's work from a wait for the CPU.
    browser = page.context.browser
    browser.start_tracing(page=page, categories=["toplevel"])
    start = page.evaluate("() => performance.now()")
    press(page, "[data-action='play-bots']")
    page.wait_for_selector("main.table[data-game='court-piece'][data-version]")
    until_summary(page)
    if not page.locator(MATCH_SUMMARY).count():
        press(page, SUMMARY_CONTINUE)
        until_summary(page)
    page.locator(MATCH_SUMMARY).wait_for()
    tasks = busiest_tasks(browser.stop_tracing())
    long = page.evaluate("() => window.__long")
    assert isinstance(long, list), f"no long-task timeline: {long}"
    during = [t for t in long if t["start"] >= start]
    # On a machine with more runnable work than cores (a shared test box), a task's wall
    # clock also counts the time the renderer waited for a core; there the trace judges: no
    # task may keep the main thread busy on the CPU for over 50 ms.
    # Judged by the trace: no task may keep the page's main thread busy on the CPU for over
    # 50 ms.  The timeline's wall clock also counts the time the renderer waited for a core,
    # and on the 2-core machine this runs on (Chromium's processes, the server and the test
    # sharing it) a task of 11 ms of CPU showed there as 53 ms even with nothing else running;
    # those are printed, not failed on.
    working = [t for t in tasks if t[1] > LONG_MS]
    assert working == [], f"tasks over {LONG_MS} ms of CPU (wall, cpu): {working}"
    print(f"{len(during)} long tasks by the wall clock ({during}), none over {LONG_MS} ms on "
          f"the CPU (the most: {max((t[1] for t in tasks), default=0):.1f} ms)")
    # a backlog (the bots' plays that came while a trick was held, the next deal's behind the
    # summary) is drawn a view a frame: several draws in one task each forced a layout
    draws = page.evaluate("() => window.__draws")
    assert sum(draws) > 13 and max(draws) == 1, draws
    moves = page.evaluate("() => window.__moves")
    kinds = {(m["what"], m["name"], m["sweep"]) for m in moves}
    # the motion did run: cards dealt into the hand, plays flown in, tricks swept onto the pile
    # and to a collector, and the pile taken by its collector
    for kind in [("hand", "web", ""), ("play", "web", ""), ("play", "collect", "pile"),
                 ("play", "collect", "winner"), ("pile", "collect", "winner")]:
        assert kind in kinds, (kind, kinds)
    assert all(m["end"] - m["delay"] <= 300 for m in moves if m["name"] == "collect"), moves
    assert all(m["end"] <= 300 for m in moves if m["name"] == "web"), moves
    assert page.js_errors == []
