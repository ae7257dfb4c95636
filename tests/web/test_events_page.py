"""The duplicate events page on a phone: today's two-player Court Piece event entered and its
first board played to the end by tapping the moves, under the page's Content-Security-Policy,
with nothing wider than the screen (issue 45's browser check)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.helpers import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def play_first_board(page: Any) -> None:
    """Tap the first legal move until board 1 is over; no refusal on the way."""
    board = page.locator(".events-board[data-board='1']")
    board.wait_for()
    for _ in range(40):  # a board of two-player Court Piece is at most 13 tricks and a call
        if board.get_attribute("data-done") == "true":
            break
        hand = page.locator(".events-hand").inner_text()
        board.locator(".events-move").first.click()
        page.wait_for_function(
            "(hand) => document.querySelector('.events-board').dataset.done === 'true'"
            " || document.querySelector('.events-hand').textContent !== hand"
            " || !document.querySelector('.events-error').hidden", arg=hand)
        assert page.locator(".events-error").is_hidden(), page.locator(".events-error").inner_text()
    assert board.get_attribute("data-done") == "true"


def test_a_board_of_the_daily_event_played_on_a_phone(server: Server, new_page: Any) -> None:
    page = new_page("phone", server.base)
    page.context.add_init_script(WATCH)
    page.goto("/assets/events.html")
    page.locator(".events-daily-game[data-game='court-piece-2p']").click()
    event = page.locator(".events-event")
    event.locator("code").first.wait_for()
    commit = event.locator(".events-commit code").inner_text()
    assert len(commit) == 64
    event.locator(".events-enter").click()
    event.locator(".events-play").click()
    play_first_board(page)
    over = page.locator(".events-over")
    assert over.inner_text().startswith("Board 1 over: your side took ")
    assert page.locator(".events-next").inner_text() == "Board 2"
    # the field of the board, now that it is finished: this entrant at least
    page.locator(".events-field").click()
    page.locator(".events-results table tbody tr").first.wait_for()
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the phone's screen"
    assert page.evaluate("window.__csp") == [] and page.js_errors == []


def test_after_the_close_the_page_checks_every_deal_it_played(server: Server,
                                                              new_page: Any) -> None:
    page = new_page("phone", server.base)
    assert page.request.get("/api/me").ok  # the session this page's player is
    origin = {"Origin": server.base}
    now = time.time()
    made = page.request.post("/api/events", headers=origin, data={
        "game": "court-piece-2p", "boards": 1, "opens": now - 60, "closes": now + 3600})
    assert made.status == 201, made.text()
    eid = made.json()["id"]
    page.goto(f"/assets/events.html#{eid}")
    page.locator(".events-enter").click()
    page.locator(".events-play").click()
    play_first_board(page)
    assert page.locator(".events-check").count() == 0  # no secret yet: nothing to check
    assert page.request.post(f"/api/events/{eid}/close", headers=origin).ok
    page.reload()
    page.locator(".events-secret code").wait_for()
    page.locator(".events-check").click()
    line = page.locator(".events-checks li").first
    line.wait_for()
    assert line.inner_text() == "Board 1: fair: checked (the deck follows from the event's secret)"
    assert line.get_attribute("data-ok") == "true"

    def tamper(route: Any) -> None:
        rec = route.fetch().json()
        f = rec["deals"][0]["fair"]
        f["secret"] = ("0" if f["secret"][0] != "0" else "1") + f["secret"][1:]
        route.fulfill(json=rec)

    page.route("**/boards/1/record", tamper)
    page.locator(".events-check").click()
    warned = page.locator(".events-checks").nth(1).locator("li").first
    warned.wait_for()
    assert warned.get_attribute("data-ok") == "false"
    assert "warning" in warned.inner_text()
    assert page.js_errors == []
