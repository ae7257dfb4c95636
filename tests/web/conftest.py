"""Browser tests: a real ``taash serve`` on 127.0.0.1 with a temporary SQLite file, and Debian's
Chromium driven by Playwright (a Playwright browser download is not needed)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import unavailable
from tests.web.helpers import CHROMIUM, Server

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
# Bots at these tables move at once and the page does not pause on a finished trick, so a
# whole match takes seconds.
FAST = """try { localStorage.setItem('taash.pace', '0');
localStorage.setItem('taash.bot_delay_ms', '0'); }
catch (e) {}"""


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server (per worker) for the tests that do not restart theirs (no Chromium, no
    server)."""
    need_chromium()
    folder = tmp_path_factory.mktemp("taash-web")
    srv = Server(folder / "web.db", log=folder / "server.log").start()
    yield srv
    srv.stop()


def need_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        unavailable(f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module.  Playwright's sync API keeps its event loop marked as
    running in this thread while it is open, so `asyncio` (pytest-asyncio's tests among them)
    cannot run beside it: module scope closes it before the worker moves to another module."""
    need_chromium()
    try:
        from playwright import sync_api
    except ImportError:
        sync_api = None
    if sync_api is None:
        unavailable("browser tests need playwright (scripts/setup --test installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """new_page("phone" | "desktop", base_url) -> a page in a fresh context (own storage).
    The page's service worker is blocked unless `sw` asks for it: requests it serves would
    pass by the tests' own answers (page.route)."""
    contexts: list[Any] = []

    def make(kind: str, base_url: str, fast: bool = True, sw: bool = False) -> Any:
        # fast: bots at once, no pause on a finished trick, and reduced motion (nothing flies:
        # Playwright waits for a card to stop moving before it taps it, which took some 40 %
        # of a whole match's time); the tests of motion itself ask for fast=False or set it
        ctx = browser.new_context(base_url=base_url, **(PHONE if kind == "phone" else DESKTOP),
                                  service_workers="allow" if sw else "block",
                                  reduced_motion="reduce" if fast else "no-preference")
        ctx.set_default_timeout(15_000)
        if fast:
            ctx.add_init_script(FAST)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests save their screenshots: a temporary folder, so a test run
    leaves the checkout as it was, or the README's ``docs/screenshots`` when
    ``TAASH_SCREENSHOTS=1`` asks to refresh them."""
    if os.environ.get("TAASH_SCREENSHOTS") == "1":
        folder = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path_factory.mktemp("screenshots")
