"""Issue 43, challenges from the friends panel: "Challenge" in a friend's row asks which game, as
the friend's profile does, instead of sending at once the game last chosen under "New game";
the form is styled as the page's fields and buttons and outlives the panel's refreshes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Server, press
from tests.web.test_first_hour_seats import BOX

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PRIMARY = """() => { const b = document.createElement('button'); b.className = 'btn primary';
  document.body.append(b); const s = getComputedStyle(b);
  const out = [s.borderRadius, s.minHeight, s.backgroundColor, s.fontWeight].join(' ');
  b.remove(); return out; }"""


def test_a_challenge_from_the_friends_panel_asks_the_game(new_page: Any,
                                                          server: Server) -> None:
    from tests.web.test_friends_notice import befriend, player
    from tests.web.test_friends_notice import call as page_call

    a = new_page("phone", server.base)
    b = new_page("desktop", server.base)
    for p in (a, b):
        p.goto("/")
        p.locator("[data-player-name]").wait_for()
    page_call(b, "PATCH", "/api/me", {"name": "Dima"})
    befriend(a, b)
    a.reload()
    row = f"[data-list='friends'] [data-friend='{player(b)}']"
    a.locator(row).wait_for()
    # the game chosen under "New game" (as a player leaves it) is not what a challenge takes
    press(a, "[data-game-choice='court-piece-2p']")
    posted: list[Any] = []
    a.on("request", lambda r: posted.append(r.post_data_json)
         if r.method == "POST" and r.url.endswith("/api/me/challenges") else None)
    press(a, f"{row} [data-action='challenge']")
    form = a.locator(f"{row} [data-section='friend-challenge']")
    form.wait_for()
    assert a.locator(f"{row} [data-action='challenge']").get_attribute("aria-expanded") == "true"
    game = form.locator("[data-field='challenge-game']")
    send = form.locator("[data-action='send-challenge']")
    assert game.input_value() == "" and send.is_disabled()
    assert posted == []
    # styled as the page's own: the button as a primary button, the list a field of 44 px
    assert send.evaluate(BOX) == a.evaluate(PRIMARY)
    assert game.evaluate("(el) => getComputedStyle(el).borderRadius") != "0px"
    assert game.evaluate("(el) => el.getBoundingClientRect().height") >= 44
    game.select_option("goat")
    # the panel asks the server again every few seconds and draws its lists anew: the form,
    # and the game chosen in it, stay
    a.evaluate("() => { document.querySelector(\"[data-list='friends']\").dataset.old = '1'; }")
    a.wait_for_function("() => !document.querySelector(\"[data-list='friends']\").dataset.old",
                        timeout=15_000)
    a.locator(f"{row} [data-section='friend-challenge']").wait_for()
    assert form.locator("[data-field='challenge-game']").input_value() == "goat"
    press(a, f"{row} [data-action='send-challenge']")
    a.locator("[data-toast]").filter(has_text="Dima").wait_for()
    assert [p["game"] for p in posted] == ["goat"], posted
    assert posted[0]["to"] == player(b)
    assert a.locator(f"{row} [data-section='friend-challenge']").count() == 0
    status, sent = page_call(b, "GET", "/api/me/challenges")
    assert status == 200 and [c["game"] for c in sent["received"]] == ["goat"], sent
    # Cancel closes it, nothing sent
    press(a, f"{row} [data-action='challenge']")
    form.wait_for()
    press(a, f"{row} [data-action='cancel-challenge']")
    assert a.locator(f"{row} [data-section='friend-challenge']").count() == 0
    assert len(posted) == 1
    assert a.js_errors == [] and b.js_errors == []
