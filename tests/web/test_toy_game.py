"""A fourth game added to the core shows up on the home screen with its options and bounds,
with nothing in ``server/`` or ``web/`` told of it (issue 42): the page builds its game picker
and new-table form from the core's descriptors (GET /api/games, /assets/games.json)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import need_chromium
from tests.web.helpers import Server, press

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    need_chromium()
    folder: Path = tmp_path_factory.mktemp("taash-toy")
    srv = Server(folder / "toy.db", log=folder / "server.log", module="tests.web.toy_game")
    yield srv.start()
    srv.stop()


def test_a_game_added_to_the_core_gets_its_own_form(new_page: Any, toy_server: Server) -> None:
    page = new_page("desktop", toy_server.base)
    page.goto("/")
    press(page, "[data-game-choice='toy-piece']")
    choice = page.locator("[data-game-choice='toy-piece']")
    assert "Toy Piece" in choice.inner_text()  # the core's name: the page has no words for it
    press(page, ".options-box summary")
    target = page.locator("[data-option='target']")
    assert (target.get_attribute("min"), target.get_attribute("max"),
            target.input_value()) == ("1", "7", "3")
    assert "Points to win the toy" in page.locator(".options").inner_text()
    deck = page.locator("[data-option='deck']")
    assert deck.locator("option").all_inner_texts() == ["Short deck", "Long deck"]
    bonus = page.locator("[data-option='bonus']")
    assert bonus.is_disabled()  # it needs the long deck
    deck.select_option("long")
    assert bonus.is_enabled()
    bonus.check()
    target.fill("12")  # over the core's bound of 7: the bound is sent
    # the options the form sends: caught on their way, so the page stays on home
    with page.expect_request("**/api/tables") as req:
        page.route("**/api/tables", lambda route: route.abort())
        press(page, "[data-action='play-bots']")
    body = json.loads(req.value.post_data or "{}")
    assert body["game"] == "toy-piece" and len(body["seats"]) == 2
    assert body["options"] == {"target": 7, "deck": "long", "bonus": True}
    # the four-player game still gets its partner and the two-player one an opponent only
    press(page, "[data-game-choice='court-piece']")
    press(page, "[data-mode='friends']")
    rows = page.locator("[data-seat-row]").all_inner_texts()
    assert ["partner" in r.lower() for r in rows] == [False, True, False]
    assert page.js_errors == []


def test_a_page_that_cannot_load_the_games_says_so_and_tries_again(
        new_page: Any, toy_server: Server) -> None:
    page = new_page("phone", toy_server.base)
    failing = [True]
    page.route("**/assets/games.json",
               lambda route: route.abort() if failing[0] else route.continue_())
    page.goto("/")
    page.wait_for_selector("[data-games-unavailable]")
    failing[0] = False
    press(page, "[data-action='load-games']")
    page.wait_for_selector("[data-game-choice='toy-piece']")
    assert page.locator("[data-game-choice]").count() == 4
    assert page.js_errors == []
