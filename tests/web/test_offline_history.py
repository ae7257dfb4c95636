"""Issue 46: a match played offline and brought home (``POST /api/me/records``) shows in the
player's history on their profile page, marked as played offline, with its record and no table
to review."""

from __future__ import annotations

from typing import Any

import pytest

from taash.games import Goat
from tests.server.social.test_uploads import offline_match
from tests.web.helpers import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_match_brought_home_is_in_the_history_marked_offline(new_page: Any,
                                                              server: Server) -> None:
    rec = offline_match(Goat.game_id, seed=4)
    rec["seats"] = [{"type": "human"}, {"type": "bot", "level": "hard"}, {"type": "bot"},
                    {"type": "bot", "level": "hard"}]
    page = new_page("phone", server.base)
    page.goto("/")
    page.locator("[data-section='player'] [data-action='my-profile']").wait_for()
    status, body = page.evaluate("""(body) => fetch('/api/me/records', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})
        .then((r) => r.json().then((j) => [r.status, j]))""", {"record": rec, "seat": 0})
    assert status == 201, body
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    page.goto(f"/p/{me['id']}")
    line = page.locator(f"[data-match='{body['id']}'][data-offline='true']")
    line.wait_for()
    text = line.inner_text()
    assert "Played offline" in text and "level_" not in text, text
    assert "Bot · Hard" in text  # the opponents' level where the record named it
    assert line.locator("[data-action='review']").count() == 0  # no table to review
    href = line.locator("[data-action='record']").get_attribute("href")
    assert page.request.get(href).json() == rec
    assert page.js_errors == []
