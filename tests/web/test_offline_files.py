""""Make available offline" (issue 46): the control on the home screen and in the settings
states the download's size before it starts, shows its progress on an accessible bar, ends
ready, and then the service worker answers offline play's files from its cache with no server
at all; a download can be cancelled, survives a reload without ever being marked ready half
done, and its files can be removed; a visitor who never asks downloads none of them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import unavailable
from tests.waiting import wait_until
from tests.web.helpers import ROOT, Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOME = "[data-offline='home']"
SETTINGS = "[data-offline='settings']"
# The caches of offline play's files: their names, and which of them are marked ready.
CACHES = """async () => {
  const out = {};
  for (const k of await caches.keys()) {
    if (!k.startsWith('taash-offline-')) continue;
    const c = await caches.open(k);
    out[k] = { ready: !!(await c.match('/assets/offline/ready')),
               urls: (await c.keys()).map((r) => new URL(r.url).pathname) };
  }
  return out;
}"""
# Every value the progress bar's aria-valuenow and aria-valuetext take, from now on.
WATCH_BAR = """() => {
  window.barSeen = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target;
      if (el.getAttribute && el.getAttribute('role') === 'progressbar')
        window.barSeen.push([Number(el.getAttribute('aria-valuenow')),
                             el.getAttribute('aria-valuetext')]);
    }
  }).observe(document.body, { subtree: true, attributes: true, childList: true,
                              attributeFilter: ['aria-valuenow'] });
}"""
ENGINE = """async () => {
  const { OfflineEngine } = await import('/assets/offline_engine.js');
  const e = new OfflineEngine();
  const late = new Promise((resolve) => setTimeout(() => resolve({ late: true }), 120000));
  const about = await Promise.race([e.ask({ op: 'hello' }), late]);
  if (about.late || about.error) return about;
  const made = await e.ask({ op: 'new', game: 'goat', seed: 3 });
  e.close();
  return { about, made };
}"""


@pytest.fixture(scope="module")
def offline_files() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "offline")],
                         capture_output=True, text=True, timeout=600)
    if out.returncode:
        unavailable(f"offline play's files are missing: {out.stderr.strip()}")


@pytest.fixture
def own_server(tmp_path: Path, offline_files: None) -> Iterator[Server]:
    srv = Server(tmp_path / "o.db", log=tmp_path / "server.log").start()
    yield srv
    srv.stop()


def listing(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/assets/offline.json", timeout=20) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


def state(page: Any, where: str = HOME) -> str | None:
    return page.locator(where).get_attribute("data-offline-state")  # type: ignore[no-any-return]


def ask_and_start(page: Any, size: int) -> None:
    """Make available offline: the size is said before anything is downloaded, then start."""
    page.locator(f"{HOME} [data-action='offline-make']").click()
    said = page.locator(f"{HOME} [data-offline-size]")
    said.wait_for()
    assert said.get_attribute("data-offline-size") == str(size)
    assert re.search(r"\d+\.\d MB \(\d+\.\d MB", said.inner_text()), said.inner_text()
    page.locator(f"{HOME} [data-action='offline-start']").click()


def all_but_the_last(page: Any, files: dict[str, Any]) -> None:
    """Waits until every file but the interpreter (the last, held back) is in the cache."""
    name, n = f"taash-offline-{files['version']}", len(files["files"]) - 1
    count = ("async (name) => await caches.has(name)"  # (opening it would make it)
             " && (await (await caches.open(name)).keys()).length")
    wait_until(lambda: page.evaluate(count, name) == n, timeout=60,
               what=f"{n} files in the cache")


def test_made_available_offline_then_played_with_no_server(new_page: Any,
                                                           own_server: Server) -> None:
    srv = own_server
    files = listing(srv.base)
    page = new_page("phone", srv.base, sw=True)
    page.goto("/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_selector(f"{HOME}[data-offline-state='none']")
    assert state(page, SETTINGS) == "none"  # the same control in the settings
    page.evaluate(WATCH_BAR)
    ask_and_start(page, files["download_bytes"])
    page.wait_for_selector(f"{HOME}[data-offline-state='ready']", timeout=120_000)
    assert state(page, SETTINGS) == "ready"
    # ready: a way to offline play's screen beside the way to remove the files
    assert page.locator(f"{HOME} [data-action='offline-play']").get_attribute("href") \
        == "/offline"
    seen = page.evaluate("() => window.barSeen")
    values = [v for v, _ in seen]
    assert values == sorted(values) and values[-1] == 100 and len(set(values)) >= 3, values
    assert all(re.fullmatch(r"\d+\.\d MB of \d+\.\d MB \(\d+%\)", s) for _, s in seen), seen
    total = f"{files['download_bytes'] / 1e6:.1f} MB"
    assert seen[-1][1] == f"{total} of {total} (100%)"
    kept = page.evaluate(CACHES)
    assert list(kept) == [f"taash-offline-{files['version']}"]
    cache = kept[f"taash-offline-{files['version']}"]
    assert cache["ready"] and {f["url"] for f in files["files"]} <= set(cache["urls"])

    # no server at all: the engine's worker, Pyodide and taash come from the cache
    srv.stop()
    page.context.set_offline(True)
    out = page.evaluate(ENGINE)
    assert "error" not in out and not out.get("late"), out
    assert out["made"]["match"] and out["made"]["actors"], out
    # the page itself opens too, and its control says the files are kept
    page.reload()
    page.wait_for_selector("[data-page='offline']")
    assert page.js_errors == []

    # back online: "Remove offline files" takes them all away
    page.context.set_offline(False)
    srv.start()
    page.goto("/")
    page.wait_for_selector(f"{SETTINGS}[data-offline-state='ready']")
    page.locator(f"{SETTINGS} [data-action='offline-remove']").click()
    page.wait_for_selector(f"{HOME}[data-offline-state='none']")
    assert page.evaluate(CACHES) == {}
    assert page.js_errors == []


def test_cut_short_it_goes_on_and_cancelled_it_leaves_nothing(new_page: Any,
                                                              own_server: Server) -> None:
    """A download held at the interpreter (the last, largest file): a reload goes on from the
    files in hand, never marked ready before the last; a new build is downloaded beside the
    old files, which go once it is ready; a cancel removes what came."""
    files = listing(own_server.base)
    page = new_page("phone", own_server.base)  # no service worker: the routes see each file
    held: list[Any] = []
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "offline=" in r.url else None)
    wasm = "/assets/offline/pyodide/pyodide.asm.wasm"
    assert files["files"][-1]["url"] == wasm
    page.route(lambda url: wasm + "?offline=" in url, lambda route: held.append(route))
    page.goto("/")
    ask_and_start(page, files["download_bytes"])
    all_but_the_last(page, files)
    # (each look at the page lets Playwright hand the held request to its route)
    wait_until(lambda: page.evaluate("() => true") and held, what="the interpreter asked for")
    assert state(page) == "downloading"
    bar = page.locator(f"{HOME} [role='progressbar']")
    assert 0 < int(bar.get_attribute("aria-valuenow")) < 100
    assert bar.get_attribute("aria-valuemin") == "0" and bar.get_attribute("aria-valuemax") == "100"
    assert not any(c["ready"] for c in page.evaluate(CACHES).values())

    # a reload: the download goes on by itself, asking only for the file it lacks
    page.unroute_all(behavior="ignoreErrors")
    asked.clear()
    page.reload()
    page.wait_for_selector(f"{HOME}[data-offline-state='ready']", timeout=60_000)
    assert [u.split("?")[0].removeprefix(own_server.base) for u in asked] == [wasm], asked
    assert all(c["ready"] for c in page.evaluate(CACHES).values())

    # a new build (a new version of the list): downloaded beside the old files, which serve
    # until the new ones are all in, then go
    new = {**files, "version": "feedfacefeedface"}
    page.route("**/assets/offline.json",
               lambda route: route.fulfill(body=json.dumps(new), content_type="application/json"))
    held.clear()
    page.route(lambda url: wasm + "?offline=" in url, lambda route: held.append(route))
    page.reload()
    all_but_the_last(page, new)
    wait_until(lambda: page.evaluate("() => true") and held, what="the new interpreter asked for")
    assert state(page) == "downloading"
    kept = page.evaluate(CACHES)
    assert {k: c["ready"] for k, c in kept.items()} == {
        f"taash-offline-{files['version']}": True, "taash-offline-feedfacefeedface": False}
    held[0].continue_()
    page.wait_for_selector(f"{HOME}[data-offline-state='ready']", timeout=60_000)
    assert page.locator(f"{HOME} [data-offline-ready]").get_attribute(
        "data-offline-ready") == "feedfacefeedface"
    kept = page.evaluate(CACHES)
    assert list(kept) == ["taash-offline-feedfacefeedface"] and kept[
        "taash-offline-feedfacefeedface"]["ready"]
    page.unroute_all(behavior="ignoreErrors")

    # a newer build whose interpreter does not come: the files in hand still serve
    newer = {**files, "version": "0badbadbadbad000"}
    page.route("**/assets/offline.json",
               lambda route: route.fulfill(body=json.dumps(newer), content_type="application/json"))
    page.route(lambda url: wasm + "?offline=" in url, lambda route: route.fulfill(status=503))
    asked.clear()
    page.reload()
    wait_until(lambda: page.evaluate("() => true") and any(wasm in u for u in asked),
               what="the newer interpreter asked for")
    page.wait_for_selector(f"{HOME}[data-offline-state='ready']")  # not 'error'
    assert page.locator(f"{HOME} [data-offline-ready]").get_attribute(
        "data-offline-ready") == "feedfacefeedface"
    assert {k: c["ready"] for k, c in page.evaluate(CACHES).items()} == {
        "taash-offline-feedfacefeedface": True, "taash-offline-0badbadbadbad000": False}
    page.unroute_all(behavior="ignoreErrors")

    # removed, then asked again and cancelled half way: nothing is left, and a reload does
    # not start it again (the list's own version again: the page asks the server)
    page.locator(f"{HOME} [data-action='offline-remove']").click()
    page.wait_for_selector(f"{HOME}[data-offline-state='none']")
    page.route(lambda url: wasm + "?offline=" in url, lambda route: held.append(route))
    ask_and_start(page, files["download_bytes"])
    all_but_the_last(page, files)
    page.locator(f"{HOME} [data-action='offline-cancel']").click()
    page.wait_for_selector(f"{HOME}[data-offline-state='none']")
    assert page.evaluate(CACHES) == {}
    assert page.evaluate("() => localStorage.getItem('taash.offline')") is None
    page.unroute_all(behavior="ignoreErrors")
    asked.clear()
    page.reload()
    page.wait_for_selector(f"{HOME}[data-offline-state='none']")
    assert asked == [] and page.evaluate(CACHES) == {}
    assert page.js_errors == []


def test_the_first_load_downloads_none_of_the_offline_files(
        new_page: Any, own_server: Server) -> None:
    files = listing(own_server.base)
    page = new_page("phone", own_server.base, sw=True)
    finished: list[Any] = []  # the page's own requests
    everything: list[str] = []  # and the service worker's
    page.on("requestfinished", lambda r: finished.append(r))
    page.context.on("request", lambda r: everything.append(r.url))
    page.goto("/")
    page.wait_for_selector(f"{HOME}[data-offline-state='none']")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_load_state("networkidle")
    loaded = {r.url: len(r.response().body()) for r in finished if r.response() is not None}
    offline = [u for u in everything if "/assets/offline/" in u or "offline=" in u
               or u.endswith("/assets/offline.json")
               or u.endswith("/offline_files.js") or u.endswith("/offline_worker.js")]
    assert offline == [], offline
    first = sum(loaded.values())
    # the figure for the notes: the page's first load against the offline download
    print(f"first load: {first} bytes (decoded) in {len(loaded)} requests; "
          f"offline download: {files['download_bytes']} bytes")
    assert 0 < first < files["download_bytes"] / 10
    assert page.js_errors == []
