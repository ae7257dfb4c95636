"""Seasons on the page (issue 47): the leaderboard's "This month" standings and the months
before it, and a closed month's podium on a player's profile, on a phone, with no
accessibility violation in either colour scheme."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from taash.server.social.seasons import MIN_MATCHES, season_of, shift
from tests.server.social.test_seasons import results
from tests.server.social.test_social import Browser
from tests.web.helpers import Server, press
from tests.web.test_a11y import assert_clean_in_both

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_month_on_the_leaderboard_and_its_podium_on_a_profile(new_page: Any,
                                                                tmp_path: Path) -> None:
    srv = Server(tmp_path / "seasons.db", log=tmp_path / "server.log").start()
    try:
        a, b = Browser(srv, "Farida"), Browser(srv, "Gulnara")  # type: ignore[arg-type]
        this = season_of(time.time())
        last = shift(this, -1)
        results(srv.db, a.id, last, [(80.0, 3.0)] * MIN_MATCHES)
        results(srv.db, b.id, last, [(90.0, 3.0)] * MIN_MATCHES)
        results(srv.db, a.id, this, [(85.0, 3.0)] * MIN_MATCHES)
        page = new_page("phone", srv.base)
        page.goto("/leaderboard")
        page.locator("[data-leaderboard='goat']").wait_for()
        assert page.locator("[data-board='all']").get_attribute("aria-pressed") == "true"
        press(page, "[data-board='season']")
        goat = page.locator(f"[data-leaderboard='goat'][data-season='{this}'] li")
        goat.first.wait_for()
        assert goat.evaluate_all("(l) => l.map((x) => x.dataset.player)") == [a.id]
        assert "5100" in goat.first.inner_text()
        assert page.locator("[data-action='season-next']").count() == 0  # this month is the last
        assert_clean_in_both(page)
        press(page, "[data-action='season-previous']")
        goat = page.locator(f"[data-leaderboard='goat'][data-season='{last}'] li")
        goat.first.wait_for()
        assert goat.evaluate_all("(l) => l.map((x) => x.dataset.player)") == [b.id, a.id]
        nav = page.locator(f"nav[data-season='{last}']").inner_text()
        assert "final" in nav
        press(page, "[data-action='season-next']")
        page.locator(f"nav[data-season='{this}']").wait_for()
        # the profile keeps last month's podium: second place, in the page's words and month
        page.goto(f"/p/{a.id}")
        podium = page.locator("[data-section='podiums'] li")
        podium.first.wait_for()
        assert podium.count() == 1 and podium.first.get_attribute("data-rank") == "2"
        assert podium.first.get_attribute("data-podium") == f"goat {last}"
        text = podium.first.inner_text()
        assert "Place 2" in text and "Goat" in text
        year, month = (int(x) for x in last.split("-"))
        assert time.strftime("%B", time.gmtime(time.mktime((year, month, 15, 0, 0, 0, 0, 0, 0)))) \
            in text
        assert_clean_in_both(page)
        assert page.js_errors == []
        a.http.close()
        b.http.close()
    finally:
        srv.stop()
