"""Issue 43: a player reaches their own profile (ratings, stats, history) by tapping their own
name, on the home screen and at the table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Server, press
from tests.web.test_web import start_against_bots

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_your_own_name_opens_your_profile_from_home_and_from_the_table(
        new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    page.goto("/")
    link = page.locator("[data-section='player'] [data-action='my-profile']")
    link.wait_for()
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    assert link.inner_text() == me["name"]
    press(page, "[data-section='player'] [data-action='my-profile']")
    page.wait_for_selector(f"main[data-page='profile'][data-player='{me['id']}']")
    assert me["name"] in page.locator("[data-field='profile-name']").inner_text()
    assert page.locator("[data-section='stats']").count() == 1
    # at a table: the name on your own seat
    start_against_bots(page, "court-piece-2p")
    mine = page.locator(".seat.pos-bottom [data-action='my-profile']")
    mine.wait_for()
    assert mine.get_attribute("href") == f"/p/{me['id']}"  # the seat says "You"
    press(page, ".seat.pos-bottom [data-action='my-profile']")
    page.wait_for_selector(f"main[data-page='profile'][data-player='{me['id']}']")
    assert page.js_errors == []
