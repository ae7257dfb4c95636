"""The duplicate events page on a phone: today's two-player Court Piece event entered and its
first board played to the end by tapping the moves, under the page's Content-Security-Policy,
with nothing wider than the screen (issue 45's browser check)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


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
    board = page.locator(".events-board[data-board='1']")
    board.wait_for()
    for _ in range(40):  # a board of two-player Court Piece is at most 13 tricks and a call
        if board.get_attribute("data-done") == "true":
            break
        version = board.locator("h2").inner_text(), page.locator(".events-hand").inner_text()
        board.locator(".events-move").first.click()
        page.wait_for_function(
            "([h, hand]) => { const b = document.querySelector('.events-board');"
            " return b.dataset.done === 'true' || document.querySelector('.events-hand')"
            ".textContent !== hand || !document.querySelector('.events-error').hidden; }",
            arg=list(version))
        assert page.locator(".events-error").is_hidden(), page.locator(".events-error").inner_text()
    over = page.locator(".events-over")
    assert over.inner_text().startswith("Board 1 over: your side took ")
    assert page.locator(".events-next").inner_text() == "Board 2"
    # the field of the board, now that it is finished: this entrant at least
    page.locator(".events-field").click()
    page.locator(".events-results table tbody tr").first.wait_for()
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the phone's screen"
    assert page.evaluate("window.__csp") == [] and page.js_errors == []
