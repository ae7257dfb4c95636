"""The clubs page (issue 47's browser check): a club created, a friend invited by its link and
joining, a club table made from the club's page, the friend taking its free seat there, the
match played to its end in both browsers, and the club's page showing its result and both
members' ratings; under the page's Content-Security-Policy, with no script error."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.helpers import Server, play_to_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def test_a_club_made_a_friend_joining_by_its_link_and_a_club_table_played(
        server: Server, new_page: Any) -> None:
    owner = new_page("desktop", server.base)
    friend = new_page("phone", server.base)
    for p in (owner, friend):
        p.context.add_init_script(WATCH)
    name = f"Family {uuid.uuid4().hex[:6]}"
    owner.goto("/clubs")
    owner.locator(".club-create input[name='name']").fill(name)
    owner.locator(".club-create button[type='submit']").click()
    owner.wait_for_url("**/club/*")
    link = owner.locator(".club-invite-link")
    link.wait_for()
    invite = link.input_value()
    assert f"{server.base}/club/" in invite and "?invite=" in invite
    assert owner.locator(".club-title").inner_text() == name

    # the friend opens the link, sees the club and joins it
    friend.goto(invite)
    join = friend.locator(".club-join")
    join.wait_for()
    join.click()
    friend.locator(".club-one[data-role='member']").wait_for()
    assert friend.locator(".club-members li").count() == 2
    assert friend.locator(".club-invite-link").count() == 0  # the link is the owner's to give

    wide = friend.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the club's page is {wide}px wider than the phone's screen"

    # the owner makes a short club table of two-player Court Piece and sits at it
    owner.reload()
    owner.locator(".club-members li").nth(1).wait_for()
    owner.locator(".club-game").select_option("court-piece-2p")
    owner.locator(".club-short").check()
    owner.locator(".club-new-table").click()
    owner.wait_for_url("**/t/*")
    table = owner.url.split("/t/")[1].split("?")[0]
    owner.locator("main.table").wait_for()

    # the friend finds it on the club's page and takes its free seat
    friend.reload()
    row = friend.locator(f".club-table[data-table='{table}']")
    row.wait_for()
    assert "1 free" in row.inner_text()
    row.locator(".club-sit").click()
    friend.wait_for_url(f"**/t/{table}*")
    friend.locator("main.table").wait_for()
    play_to_end([owner, friend], timeout=150)

    # the club's page: the table over with the friend's result, and both members rated
    def page_shows_result() -> bool:
        friend.goto(f"/club/{invite.split('/club/')[1].split('?')[0]}")
        friend.locator(".club-members").wait_for()
        text = friend.locator(f".club-table[data-table='{table}']").inner_text()
        # the ratings are written after the result
        rated = "not rated" not in friend.locator(".club-members").inner_text()
        return "over, you " in text and rated

    wait_until(page_shows_result, timeout=30, what="the club table's result and ratings on "
               "the page", every=0.5)
    rows = friend.locator(".club-members li")
    assert rows.count() == 2
    for i in range(2):  # both rated in the club's game now
        assert "Two-player Court Piece " in rows.nth(i).inner_text(), rows.nth(i).inner_text()
    for p in (owner, friend):
        assert p.evaluate("window.__csp") == [] and p.js_errors == []
