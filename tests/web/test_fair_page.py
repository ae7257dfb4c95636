"""The page checks every deal (taash-shuffle/1): it sends a seed of its own, recomputes the deck
with WebCrypto once the deal is over and says "fair: checked" in the summary, with a "how" link;
a secret tampered with on its way to the page gets a warning."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.helpers import Server, play_to_end
from tests.web.test_web import start_against_bots

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FAIR_LINE = "dialog[data-dialog='match-summary'] .fair-check"


def finished_fair_line(page: Any) -> Any:
    line = page.locator(FAIR_LINE)
    line.wait_for()
    page.wait_for_function(
        "(sel) => document.querySelector(sel).dataset.state !== 'checking'", arg=FAIR_LINE)
    return line


def test_a_deal_against_bots_says_fair_checked_with_this_pages_seed(
        server: Server, new_page: Any) -> None:
    page = new_page("desktop", server.base)
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data or "{}"))
            if r.url.endswith("/seed") and r.method == "POST" else None)
    start_against_bots(page, "court-piece", deals=2)
    play_to_end([page])
    line = finished_fair_line(page)
    # the last deal (the second) was dealt with the seed this page sent during the first
    assert line.get_attribute("data-state") == "ok"
    assert line.locator(".fair-text").inner_text() == (
        "fair: checked (the deck follows from the server's secret and your seed)")
    assert sent and all(len(s["seed"]) == 32 for s in sent)
    how = line.locator("a.fair-how")
    assert how.get_attribute("href") == "/assets/fair.html"
    explained = page.request.get(server.base + "/assets/fair.html")
    assert explained.ok and "taash record verify" in explained.text()
    assert page.js_errors == []


def test_a_tampered_secret_gets_a_warning(server: Server, new_page: Any) -> None:
    page = new_page("desktop", server.base)

    def tamper(route: Any) -> None:
        rec = route.fetch().json()
        for d in rec["deals"]:
            f = d.get("fair") or {}
            if "secret" in f:
                f["secret"] = ("0" if f["secret"][0] != "0" else "1") + f["secret"][1:]
        route.fulfill(json=rec)

    page.route("**/api/tables/*/record", tamper)
    start_against_bots(page, "court-piece-2p")
    play_to_end([page])
    line = finished_fair_line(page)
    assert line.get_attribute("data-state") == "warning"
    assert line.locator(".fair-text").inner_text() == (
        "fair: WARNING, the revealed secret does not match the commitment shown before the deal")
    assert page.js_errors == []


def test_the_creators_seed_deals_the_first_deal_and_the_page_checks_it(
        server: Server, new_page: Any) -> None:
    """The home screen sends a seed of its own with the new table (POST /api/tables `seed`):
    the first deal, dealt at creation, is dealt with it, and the page's check looks for it."""
    page = new_page("desktop", server.base)
    created: list[Any] = []
    page.on("request", lambda r: created.append(json.loads(r.post_data or "{}"))
            if r.url.endswith("/api/tables") and r.method == "POST" else None)
    start_against_bots(page, "court-piece-2p")  # one deal: only the creator's seed counts
    assert len(created) == 1 and len(created[0]["seed"]) == 32
    seed = created[0]["seed"]
    play_to_end([page])
    line = finished_fair_line(page)
    assert line.get_attribute("data-state") == "ok"
    assert line.locator(".fair-text").inner_text() == (
        "fair: checked (the deck follows from the server's secret and your seed)")
    tid = page.url.split("/t/")[1].split("?")[0]
    rec = page.request.get(f"{server.base}/api/tables/{tid}/record").json()
    assert rec["deals"][0]["fair"]["seeds"][0] == seed
    assert page.js_errors == []
