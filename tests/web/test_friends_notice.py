"""The rest of issue 28 in the browser: a friend's challenge as a live notice (Accept, Decline)
on the home page and at a table, reached by the keyboard and over no control; a four-player
challenge from the friends panel; "Add friend" on
another player's profile; the country flag set in the settings and shown on the profile."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.helpers import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def call(page: Any, method: str, path: str, body: Any = None) -> Any:
    """The page's own fetch (its cookie, its Origin): (status, JSON)."""
    out = page.evaluate(
        """async ([method, path, body]) => {
          const r = await fetch(path, { method, headers: { 'content-type': 'application/json' },
            body: body === null ? undefined : JSON.stringify(body) });
          return [r.status, await r.json()];
        }""", [method, path, body])
    return out


def player(page: Any) -> str:
    status, me = call(page, "GET", "/api/me")
    assert status == 200
    return str(me["id"])


def befriend(a: Any, b: Any) -> None:
    status, r = call(b, "POST", "/api/me/friends", {"player": player(a)})
    assert status == 200 and r["state"] == "asked", r
    status, r = call(a, "POST", "/api/me/friends", {"player": player(b)})
    assert status == 200 and r["state"] == "friends", r


def in_flow(page: Any, selector: str) -> bool:
    """Neither the element nor a box it sits in is fixed, absolute or sticky: it takes its own
    room in the page and covers nothing."""
    out: bool = page.eval_on_selector(selector, """(el) => {
      for (let e = el; e && e !== document.body; e = e.parentElement) {
        const pos = getComputedStyle(e).position;
        if (pos !== 'static' && pos !== 'relative') return false;
      }
      return true;
    }""")
    return out


def test_a_challenge_notice_on_the_home_page_and_at_a_table(server: Server,
                                                            new_page: Any) -> None:
    a = new_page("desktop", server.base)
    b = new_page("phone", server.base)
    a.goto("/")
    b.goto("/")
    b.locator("[data-friend-code]").wait_for()
    befriend(a, b)
    # on b's home page, a new challenge comes as a notice with Accept and Decline
    status, ch = call(a, "POST", "/api/me/challenges", {"to": player(b),
                                                        "game": "court-piece-2p",
                                                        "options": {"target": 1}})
    assert status == 201, ch
    notice = b.locator(f"[data-challenge-notice='{ch['id']}']")
    notice.wait_for(timeout=15_000)
    assert "challenges you" in notice.inner_text()
    assert in_flow(b, f"[data-challenge-notice='{ch['id']}']")
    # reached by the keyboard: Tab from the top of the page comes to its Accept
    b.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(6):
        b.keyboard.press("Tab")
        if b.evaluate("document.activeElement.dataset.action") == "notice-accept":
            break
    assert b.evaluate("document.activeElement.dataset.action") == "notice-accept"
    b.keyboard.press("Enter")
    b.wait_for_url(re.compile(r"/t/[^/?]+\?seat=1$"))
    b.locator("[data-table]").wait_for()
    # at the table: the next challenge comes in the table's message row; declined there
    status, ch2 = call(a, "POST", "/api/me/challenges", {"to": player(b), "game": "goat"})
    assert status == 201
    at_table = b.locator(f"[data-notices] [data-challenge-notice='{ch2['id']}']")
    at_table.wait_for(timeout=20_000)
    assert in_flow(b, f"[data-challenge-notice='{ch2['id']}']")
    at_table.locator("[data-action='notice-decline']").click()
    at_table.wait_for(state="detached")
    _, sent = call(a, "GET", "/api/me/challenges")
    assert sent["sent"] == []
    # a four-player challenge from a's friends panel: b as partner, bots in the other seats
    bid = player(b)
    a.locator(f"[data-team-seat='2'] option[value='{bid}']").wait_for(state="attached")
    a.click("[data-section='team-challenge'] summary")
    a.select_option("[data-team-seat='2']", bid)
    a.select_option("[data-field='team-bots']", "hard")
    a.click("[data-action='team-challenge']")
    a.locator("[data-toast]").filter(has_text="Challenge sent").wait_for()
    _, sent = call(a, "GET", "/api/me/challenges")
    [team] = sent["sent"]
    assert team["game"] == "court-piece" and team["bots"] == "hard"
    assert [(i["player"], i["seat"]) for i in team["invited"]] == [(bid, 2)]
    assert a.locator("[data-team-seat='2']").input_value() == bid  # kept through the redraws
    assert not a.js_errors and not b.js_errors, (a.js_errors, b.js_errors)


def test_add_friend_on_a_profile_and_the_country_flag(server: Server, new_page: Any) -> None:
    a = new_page("desktop", server.base)
    c = new_page("desktop", server.base)
    d = new_page("desktop", server.base)
    for p in (a, c, d):
        p.goto("/")
        p.locator("[data-friend-code]").wait_for()
    ca, cc, cd = player(a), player(c), player(d)
    # c gives a country in the settings: its flag is on c's profile
    c.fill("[data-field='country']", "pk")
    c.locator("[data-field='country']").dispatch_event("change")
    c.locator("[data-toast]").filter(has_text="Country saved").wait_for()
    # a, not c's friend, sees "Add friend" on c's profile; a click asks, "Request sent" stays
    a.goto(f"/p/{cc}")
    a.locator("[data-field='profile-name']").wait_for()
    assert a.locator("[data-flag='PK']").inner_text() == "\U0001F1F5\U0001F1F0"
    a.click("[data-action='add-friend']")
    a.locator("[data-field='friend-state'][data-state='asked']").wait_for()
    _, f = call(c, "GET", "/api/me/friends")
    assert [x["player"] for x in f["asking"]] == [ca]
    a.reload()
    a.locator("[data-field='friend-state'][data-state='asked']").wait_for()
    assert a.locator("[data-action='add-friend']").count() == 0
    # once friends: a challenge button, no "Add friend"
    assert call(c, "POST", f"/api/me/friends/{ca}/accept")[0] == 200
    a.reload()
    a.locator("[data-page='profile'] [data-action='challenge']").wait_for()
    assert a.locator("[data-action='add-friend']").count() == 0
    # not on your own profile, nor on that of a player you blocked; no flag without a country
    a.goto(f"/p/{ca}")
    a.locator("[data-section='ratings']").wait_for()
    assert a.locator("[data-action='add-friend']").count() == 0
    assert a.locator("[data-flag]").count() == 0
    assert call(a, "POST", f"/api/me/friends/{cd}/block")[0] == 200
    a.goto(f"/p/{cd}")
    a.locator("[data-section='ratings']").wait_for()
    assert a.locator("[data-action='add-friend']").count() == 0
    # a code that is no country: the server's words, the flag stays
    c.fill("[data-field='country']", "XX")
    c.locator("[data-field='country']").dispatch_event("change")
    c.locator("[data-toast='error']").filter(has_text="not an ISO 3166-1").wait_for()
    assert not a.js_errors and not c.js_errors, (a.js_errors, c.js_errors)
