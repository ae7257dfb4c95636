"""Players in the browser (issue 24): the first visit plays with no form to fill, the player's
name is changed on the home screen, and a second browser carrying the same session finds the
player's name and tables there, with no seat token of its own."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.helpers import Server, call, play_turn, press

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GUEST = re.compile(r"^[A-Z][a-z]+ [A-Z][a-z]+ [1-9][0-9]$")


def test_first_visit_plays_and_the_player_follows_the_session(server: Server,
                                                             new_page: Any) -> None:
    phone = new_page("phone", server.base)
    phone.goto("/")
    shown = phone.locator("[data-player-name]")
    shown.wait_for()
    guest = shown.get_attribute("data-player-name")
    assert guest and GUEST.match(guest), guest
    assert phone.locator("[data-field='name']").input_value() == guest
    cookie = next(c for c in phone.context.cookies() if c["name"] == "taash_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert phone.evaluate("document.cookie") == ""  # out of the page's scripts' reach

    # No form: play now against bots, and take a turn
    press(phone, "[data-game-choice='court-piece-2p']")
    press(phone, "[data-action='play-bots']")
    phone.wait_for_selector("main.table[data-game='court-piece-2p'][data-version]")
    tid = phone.url.split("/t/")[1].split("?")[0]
    phone.wait_for_function(
        "() => document.querySelector('main.table').dataset.yourTurn === 'true'"
        " || document.querySelector('main.table').dataset.over === 'true'")
    assert play_turn(phone)
    # the seat is named after its player (the page says "You" there)
    assert call(server.base, "GET", f"/api/tables/{tid}")["table"]["seats"][0]["name"] == guest

    # The name is changed on the home screen, and kept by the server
    phone.goto("/")
    phone.locator(f"[data-player-name='{guest}']").wait_for()
    field = phone.locator("[data-field='name']")
    field.fill("  Ayesha  ")
    field.press("Enter")
    phone.locator("[data-player-name='Ayesha']").wait_for()
    phone.locator(f"[data-my-table='{tid}']").wait_for()
    # a name the server refuses is said, and the field goes back to the name it keeps
    field.fill("   ")
    field.press("Enter")
    phone.wait_for_function(
        "() => document.querySelector(\"[data-field='name']\").value === 'Ayesha'")
    assert "empty" in phone.locator(".toast").last.inner_text()
    assert phone.locator("[data-player-name='Ayesha']").count() == 1
    field.fill("x" * 30)  # the field holds 24
    assert len(field.input_value()) == 24

    # Another browser with the same session and no seat token: the same player, the same
    # tables, the "your turn" badge as the server says it
    desk = new_page("desktop", server.base)
    desk.context.add_cookies([cookie])
    desk.goto("/")
    desk.locator("[data-player-name='Ayesha']").wait_for()
    assert desk.locator("[data-field='name']").input_value() == "Ayesha"
    row = desk.locator(f"[data-my-table='{tid}']")
    row.wait_for()
    assert row.get_attribute("data-your-turn") in ("true", "false")
    assert desk.evaluate("localStorage.getItem('taash.seats')") in (None, "{}")
    assert row.locator(".forget").count() == 0  # the player's table, not this browser's token
    assert phone.js_errors == [] and desk.js_errors == []


def test_an_invite_link_pasted_is_claimed_once(server: Server, new_page: Any) -> None:
    host = new_page("desktop", server.base)
    host.goto("/")
    host.locator("[data-player-name]").wait_for()
    press(host, "[data-game-choice='court-piece-2p']")
    press(host, "[data-mode='friends']")
    press(host, "[data-action='create-table']")
    link = host.locator("[data-invite='1']").input_value()
    assert "token=" in link
    tid = link.split("/t/")[1].split("?")[0]

    friend = new_page("phone", server.base)
    friend.goto("/")
    friend.locator("[data-player-name]").wait_for()
    name = friend.locator("[data-player-name]").get_attribute("data-player-name")
    friend.fill("[data-field='link']", link)
    press(friend, "[data-action='join']")
    friend.wait_for_selector("main.table[data-version]")
    assert friend.url.endswith(f"/t/{tid}?seat=1")
    assert call(server.base, "GET", f"/api/tables/{tid}")["table"]["seats"][1]["name"] == name

    late = new_page("phone", server.base)
    late.goto("/")
    late.locator("[data-player-name]").wait_for()
    late.fill("[data-field='link']", link)
    press(late, "[data-action='join']")
    toast = late.locator("[data-toast='error']")
    toast.wait_for()
    assert "already been used" in toast.inner_text()
    assert "/t/" not in late.url
    assert host.js_errors == [] and friend.js_errors == [] and late.js_errors == []


def test_a_table_taken_on_one_device_is_played_on_another(server: Server,
                                                          new_page: Any) -> None:
    """The desktop has the player's session but no seat token: the table opened from "my
    tables" is the player's seat (played through the cookie), not a spectator's view."""
    phone = new_page("phone", server.base)
    phone.goto("/")
    phone.locator("[data-player-name]").wait_for()
    press(phone, "[data-game-choice='court-piece-2p']")
    press(phone, "[data-action='play-bots']")
    phone.wait_for_selector("main.table[data-game='court-piece-2p'][data-version]")
    tid = phone.url.split("/t/")[1].split("?")[0]
    cookie = next(c for c in phone.context.cookies() if c["name"] == "taash_session")
    phone.close()

    desk = new_page("desktop", server.base)
    desk.context.add_cookies([cookie])
    desk.goto("/")
    press(desk, f"[data-my-table='{tid}'] .row-main")
    desk.wait_for_selector("main.table[data-game='court-piece-2p'][data-version]")
    assert desk.evaluate("localStorage.getItem('taash.seats')") in (None, "{}")
    desk.wait_for_function(
        "() => document.querySelector('main.table').dataset.yourTurn === 'true'")
    assert desk.locator("[data-hand] [data-card]").count() > 0  # the seat's own hand
    before = int(desk.locator("main.table").get_attribute("data-version") or -1)
    assert play_turn(desk)
    assert int(desk.locator("main.table").get_attribute("data-version") or -1) > before
    assert desk.js_errors == []


def test_an_invite_link_opened_is_claimed_once(server: Server, new_page: Any) -> None:
    host = new_page("desktop", server.base)
    host.goto("/")
    host.locator("[data-player-name]").wait_for()
    press(host, "[data-game-choice='court-piece-2p']")
    press(host, "[data-mode='friends']")
    press(host, "[data-action='create-table']")
    link = host.locator("[data-invite='1']").input_value()
    tid = link.split("/t/")[1].split("?")[0]
    path = link[link.index("/t/"):]

    friend = new_page("phone", server.base)
    friend.goto(path)
    friend.wait_for_selector("main.table[data-version]")
    assert friend.url.endswith(f"/t/{tid}?seat=1")
    name = call(server.base, "GET", "/api/tables/" + tid)["table"]["seats"][1]["name"]
    friend.goto("/")
    assert friend.locator("[data-player-name]").get_attribute("data-player-name") == name

    late = new_page("phone", server.base)
    late.goto(path)
    toast = late.locator("[data-toast='error']")
    toast.wait_for()
    assert "already been used" in toast.inner_text()
    assert "/t/" not in late.url
    assert host.js_errors == [] and friend.js_errors == [] and late.js_errors == []
