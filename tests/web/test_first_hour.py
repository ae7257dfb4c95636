"""Issue 43, "the first hour": what a new player met on the page in their first hour, each
checked in Chromium the way it was found (on a 390x844 phone unless said otherwise)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Server

pytestmark = [pytest.mark.browser]


# -- 1. Play is the first thing on the home page ----------------------------------------------
def test_play_comes_first_on_the_home_page(new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    page.goto("/")
    page.locator("[data-section='new-game'] [data-action='play-bots']").wait_for()
    page.locator("[data-section='friends']").wait_for()
    tops = page.evaluate("""() => Object.fromEntries(
        ['new-game', 'friends', 'join', 'settings'].map((s) => [s,
          document.querySelector(`[data-section='${s}']`).getBoundingClientRect().top]))""")
    assert tops["new-game"] < tops["friends"], tops
    assert tops["new-game"] < min(tops.values()) + 1, tops
    # the whole of it within the first screen: the game, and the button that starts it
    button = page.locator("[data-section='new-game'] [data-action='play-bots']").bounding_box()
    assert button["y"] + button["height"] <= 844, button
    assert page.js_errors == []
