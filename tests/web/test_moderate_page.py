"""The moderators' page (issue 48): the host grants the role with `taash moderator grant`, a
flagged player's case waits in the queue, the moderator opens it (the evidence, the deals to
replay) and decides it with a note; a player who is not a moderator is told in their language
that the queue is for moderators.  Under the page's Content-Security-Policy, with no script
error."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from taash.server.config import Settings
from taash.server.fairplay.service import FairPlay
from taash.server.store.db import Store
from taash.server.store.fairplay import FairPlayStore, ScanRow
from tests.web.helpers import ROOT, Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""
GAME = "court-piece-2p"


async def _flag(url: str, player_id: str) -> str:
    """Twenty deals of the player scanned, each a chance taken: weighed, a case opens."""
    settings = Settings(db_url=url)
    store = Store(settings.resolved_db_url())
    try:
        fp = FairPlayStore(store)
        for d in range(20):
            await fp.scanned(f"tab{d}", [ScanRow(player_id, f"tab{d}", GAME, 1000.0 + d, 1, 5,
                                                 [(0, 10, GAME, "follow", True)])])

        async def unrate(_p: str) -> int:
            raise AssertionError("nobody is banned here")

        case = await FairPlay(settings, store, unrate).weigh(player_id)
        assert case is not None
        return case
    finally:
        await store.close()


def me(page: Any) -> str:
    return str(page.evaluate("fetch('/api/me').then((r) => r.json()).then((m) => m.id)"))


def test_a_moderator_decides_a_case_from_the_queue(server: Server, new_page: Any) -> None:
    mod = new_page("desktop", server.base)
    other = new_page("phone", server.base)
    for p in (mod, other):
        p.context.add_init_script(WATCH)
    other.context.add_init_script("localStorage.setItem('taash.lang', 'ru');")
    mod.goto("/")
    other.goto("/")
    mod_id, suspect = me(mod), me(other)
    url = f"sqlite+aiosqlite:///{server.db}"
    with ThreadPoolExecutor(1) as aside:  # Playwright's own loop runs in this thread
        case = aside.submit(asyncio.run, _flag(url, suspect)).result(timeout=120)
    done = subprocess.run([sys.executable, "-m", "taash", "moderator", "grant", mod_id, "--db",
                           url], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          check=False)
    assert done.returncode == 0, done.stderr

    # not a moderator: told so, in Russian
    other.goto("/moderate")
    err = other.locator(".mod-error")
    err.wait_for()
    assert err.inner_text() == "Очередь честной игры видят только модераторы."
    assert other.locator(".mod-queue").is_hidden()

    mod.goto("/moderate")
    item = mod.locator(f".mod-open li[data-case='{case}']")
    item.wait_for()
    assert "p = " in item.inner_text() and "20 deals" in item.inner_text()
    item.locator("a").click()
    mod.wait_for_url(f"**/moderate?case={case}")
    box = mod.locator(".mod-case[data-status='open']")
    box.wait_for()
    assert "20 of 20 chances taken" in box.locator(".mod-hits").inner_text()
    replay = mod.locator(".mod-replay a")
    assert replay.count() >= 1
    assert replay.first.get_attribute("href").startswith("/review?table=tab")
    mod.locator(".mod-choice").select_option("warned")
    mod.locator(".mod-note").fill("every follow taken: told them once")
    mod.locator(".mod-submit").click()
    mod.locator(".mod-case[data-status='warned']").wait_for()
    assert "warned, decided by" in mod.locator(".mod-decision").inner_text()
    assert mod.locator(".mod-decision-note").inner_text() == "every follow taken: told them once"
    assert mod.locator(".mod-decide").count() == 0
    mod.goto("/moderate")
    mod.locator(f".mod-decided li[data-case='{case}'][data-status='warned']").wait_for()
    wide = other.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the phone's screen"
    for p in (mod, other):
        assert p.evaluate("window.__csp") == [] and p.js_errors == []
