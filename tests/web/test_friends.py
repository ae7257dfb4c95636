"""Friends in the browser (issue 28): two players become friends by a friend link, one
challenges the other to two-player Court Piece (play anytime, target 1), the other accepts
from the home page in another context, they finish the match, and both profiles show it with
ratings moved in opposite directions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.helpers import Server, play_to_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def me(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("fetch('/api/me').then((r) => r.json())")
    return out


def rating(page: Any) -> int:
    shown = page.locator("[data-rating='court-piece-2p'] [data-shown]").get_attribute("data-shown")
    return int(shown.rstrip("?"))


def test_friends_challenge_play_and_profiles(server: Server, new_page: Any) -> None:
    a = new_page("desktop", server.base)
    b = new_page("phone", server.base)
    a.goto("/")
    code = a.locator("[data-friend-code]").inner_text()
    assert re.fullmatch(r"[A-Z2-9]{8}", code)
    # b opens a's friend link: the code is filled in, b asks
    b.goto(f"/friend/{code}")
    assert b.locator("[data-field='add-friend']").input_value() == code
    b.click("[data-action='add-friend']")
    b.locator("[data-list='friend-asked']").wait_for()
    # a confirms on their home page (it asks again every few seconds)
    a.click("[data-list='friend-requests'] [data-action='accept-friend']", timeout=15_000)
    a.locator("[data-list='friends'] [data-action='challenge']").wait_for()
    b.locator("[data-list='friends'] [data-action='challenge']").wait_for(timeout=15_000)
    # a challenges b: the game is asked (issue 43), and the options set for that game under
    # "New game" go with it
    a.click("[data-game-choice='court-piece-2p']")
    a.click(".options-box summary")
    a.fill("[data-option='target']", "1")
    a.click("[data-list='friends'] [data-action='challenge']")
    a.select_option("[data-list='friends'] [data-field='challenge-game']", "court-piece-2p")
    a.click("[data-list='friends'] [data-action='send-challenge']")
    a.locator("[data-list='challenges-sent'] [data-challenge]").wait_for()
    # b accepts from the home page, in its own context, and lands at the table
    b.click("[data-list='challenges-received'] [data-action='accept-challenge']", timeout=15_000)
    b.wait_for_url(re.compile(r"/t/[^/?]+\?seat=1$"))
    tid = b.url.split("/t/")[1].split("?")[0]
    a.goto(f"/t/{tid}")
    a.locator("[data-table]").wait_for()
    play_to_end([a, b])
    ids = {"a": me(a)["id"], "b": me(b)["id"]}
    ratings = {}
    results = {}
    for name, page in (("a", a), ("b", b)):
        page.goto(f"/p/{ids[name]}")
        page.locator(f"[data-match='{tid}']").wait_for()
        results[name] = page.locator(f"[data-match='{tid}']").get_attribute("data-result")
        ratings[name] = rating(page)
        assert page.locator("[data-stats='court-piece-2p']").count() == 1
    assert sorted(results.values()) == ["lost", "won"]
    assert (ratings["a"] - 1500) * (ratings["b"] - 1500) < 0
    winner = "a" if results["a"] == "won" else "b"
    assert ratings[winner] > 1500
    # the history line downloads the record and opens the table's page
    page = b
    href = page.locator(f"[data-match='{tid}'] [data-action='record']").get_attribute("href")
    rec = page.request.get(href).json()
    assert rec["game"] == "court-piece-2p" and rec["table"] == tid
    assert [s["player"] for s in rec["seats"]] == [ids["a"], ids["b"]]
    page.click(f"[data-match='{tid}'] [data-action='review']")
    page.wait_for_url(re.compile(rf"/t/{tid}"))
    # the leaderboards: one a game, nobody on them while every rating is provisional
    a.goto("/leaderboard")
    a.locator("[data-leaderboard='goat']").wait_for()
    assert a.locator("[data-leaderboard]").count() == 3
    assert a.locator("[data-leaderboard] li").count() == 0
    assert not a.js_errors and not b.js_errors, (a.js_errors, b.js_errors)
