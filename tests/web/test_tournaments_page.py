"""The tournaments page (docs/tournaments.md): a tournament listed with its countdown, the
player registering from its page, the standings and the link to their table of round 1 once
the organiser starts it, and the page in Russian; under the page's Content-Security-Policy,
with no script error."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.helpers import Server

WEB = Path(__file__).resolve().parents[2] / "src" / "taash" / "web"
pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def test_a_player_registers_and_finds_their_table_on_the_page(
        server: Server, new_page: Any) -> None:
    name = f"Swiss {uuid.uuid4().hex[:6]}"
    with httpx.Client(base_url=server.base, headers={"Origin": server.base}) as org:
        assert org.get("/api/me").status_code == 200
        r = org.post("/api/tournaments", json={
            "name": name, "game": "court-piece-2p", "options": {"target": 1}, "rounds": 2,
            "starts": time.time() + 3600, "turn_timer_s": 600})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        page = new_page("phone", server.base)
        page.context.add_init_script(WATCH)
        page.goto("/tournaments")
        item = page.locator(f".tour-item[data-tournament='{tid}']")
        item.wait_for()
        assert name in item.inner_text() and "starts in 59 minutes" in item.inner_text()
        item.locator("a").click()
        page.wait_for_url(f"**/tournaments?id={tid}")
        page.locator(".tour-register").click()
        page.locator(".tour-leave").wait_for()
        assert "you are in" in page.locator(".tour-summary").inner_text()
        assert org.post(f"/api/tournaments/{tid}/bots", json={"level": "easy"}).status_code == 200
        assert org.post(f"/api/tournaments/{tid}/start").status_code == 200
        page.reload()
        page.locator(".tour-standings tbody tr").nth(1).wait_for()
        assert "Round 1" in page.locator(".tour-games").inner_text()
        mine = page.locator(".tour-my-table a")
        assert mine.inner_text() == "Your table, round 1"
        mine.click()
        page.wait_for_url("**/t/*")
        page.locator("main.table").wait_for()
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0
        page.evaluate("localStorage.setItem('taash.lang', 'ru')")
        page.goto(f"/tournaments?id={tid}")
        page.locator(".tour-standings").wait_for()
        ru = json.loads((WEB / "i18n" / "ru.json").read_text(encoding="utf-8"))
        assert page.locator(".tour-title").inner_text() == ru["tournaments"]
        assert ru["tour_round"].format(n=1) in page.locator(".tour-games").inner_text()
        assert page.evaluate("window.__csp") == [] and page.js_errors == []
