"""Watching a table (issue 47), in Chromium: a player's live table featured on home, a
spectator on a phone who opens it from there and sees it one deal behind with no hand, and
the player's page saying how many watch."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import pick_actor
from tests.waiting import wait_until
from tests.web.helpers import SUMMARY_CONTINUE, Server, call, version

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FETCH = """async ([method, path, body]) => {
  const r = await fetch(path, { method, body: body ? JSON.stringify(body) : undefined,
    headers: { 'Content-Type': 'application/json' } });
  return await r.json();
}"""
CREATE = """async (body) => {
  const r = await fetch('/api/tables', { method: 'POST', body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' } });
  return await r.json();
}"""


def test_a_spectator_on_a_phone_watches_a_featured_table_a_deal_behind(
        new_page: Any, server: Server, screenshots: Path) -> None:
    player = new_page("desktop", server.base)
    player.goto("/")
    player.wait_for_selector("[data-page='home']")
    made = player.evaluate(CREATE, {
        "game": "court-piece-2p", "options": {"target": 3}, "live": True, "bot_delay_ms": 0,
        "seats": [{"type": "human"}, {"type": "human"}], "spectator_delay": "deal"})
    tid = made["id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    player.goto(made["seats"][0]["url"])
    player.wait_for_selector("main.table[data-version='0']")

    # a spectator on a phone: the table is featured on home; Watch opens it
    watcher = new_page("phone", server.base)
    watcher.goto("/")
    row = watcher.locator(f"[data-section='featured'] [data-featured='{tid}']")
    row.wait_for()
    row.locator("[data-action='watch']").tap()
    watcher.wait_for_url(f"**/t/{tid}")
    watcher.wait_for_selector("main.table[data-version='0']")
    assert watcher.locator("[data-hand] [data-card]").count() == 0
    watchers = watcher.locator("[data-watchers]")
    wait_until(lambda: "one deal behind" in watchers.inner_text(), timeout=10,
               what="the spectator told the table is shown a deal behind")

    # the player sees that one watches
    seen = player.locator("[data-watchers]")
    wait_until(lambda: seen.get_attribute("data-spectators") == "1" and seen.is_visible(),
               timeout=10, what="the player's page saying one watches")
    assert "1 watching" in seen.inner_text()
    assert "behind" not in seen.inner_text()

    # the seats play into the second deal; the spectator sees the first as it was played
    rng = random.Random(4)
    ends: list[int] = []
    v = 0
    while not (ends and v - ends[-1] >= 6):
        # seat 0 is the player's (their page's session); seat 1 plays by its token
        views = {0: player.evaluate(FETCH, ["GET", f"/api/tables/{tid}/view?seat=0", None]),
                 1: call(server.base, "GET", f"/api/tables/{tid}/view", token=tokens[1])}
        assert not views[0]["over"]
        seat, action = pick_actor(views, rng) or (-1, "")
        if seat == 0:
            answer = player.evaluate(FETCH, ["POST", f"/api/tables/{tid}/actions?seat=0",
                                             {"action": action}])
        else:
            answer = call(server.base, "POST", f"/api/tables/{tid}/actions",
                          {"action": action}, token=tokens[1])
        v = answer["version"]
        if any(e["type"] == "deal_over" for e in answer["events"]):
            ends.append(v)
    behind = v - ends[-1]  # as many actions into the first deal as the second is
    player.locator(SUMMARY_CONTINUE).click()  # the first deal's summary: the player goes on
    wait_until(lambda: version(player) == v, timeout=15,
               what=f"the player page at {v} (it is at {version(player)}, ends {ends})")
    wait_until(lambda: version(watcher) == behind, timeout=15,
               what=f"the spectator's page at version {behind}")
    assert version(watcher) == behind < v
    assert watcher.locator("[data-hand] [data-card]").count() == 0
    # the public view at that version: the deal number is the first one's
    pub = call(server.base, "GET", f"/api/tables/{tid}")
    assert pub["version"] == behind and pub["deal_number"] == 0
    title = watcher.locator(".bar .title small").inner_text()
    assert "1" in title  # "Deal 1", not the second deal the seats are at
    bar = watcher.locator(".bar").bounding_box()
    assert bar is not None and bar["width"] <= 390  # the phone's width: nothing spills
    watcher.screenshot(path=str(screenshots / "spectator-phone.png"))
    player.screenshot(path=str(screenshots / "spectators-count.png"))
