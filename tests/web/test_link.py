"""Link another device in the browser (issue 24, 2c): the desktop shows a one-time code (and
its QR image) with a countdown; an empty phone context types it, becomes the desktop's player
and plays a turn at a table started on the desktop; the desktop then signs the phone out."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.helpers import Server, play_turn, press

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CODE = re.compile(r"^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$")


def test_a_device_is_linked_by_its_code(server: Server, new_page: Any) -> None:
    desk = new_page("desktop", server.base)
    desk.goto("/")
    desk.locator("[data-player-name]").wait_for()
    field = desk.locator("[data-field='name']")
    field.fill("Desk Ayesha")
    field.press("Enter")
    desk.locator("[data-player-name='Desk Ayesha']").wait_for()
    press(desk, "[data-game-choice='court-piece-2p']")
    press(desk, "[data-action='play-bots']")
    desk.wait_for_selector("main.table[data-game='court-piece-2p'][data-version]")
    tid = desk.url.split("/t/")[1].split("?")[0]

    desk.goto("/")
    press(desk, "[data-action='link-device']")
    shown = desk.locator("[data-link-code]")
    shown.wait_for()
    code = shown.get_attribute("data-link-code") or ""
    assert CODE.match(code), code
    desk.wait_for_function("() => { const i = document.querySelector('img[data-link-qr]');"
                           " return i && i.complete && i.naturalWidth > 50; }")
    countdown = desk.locator("[data-link-countdown]")
    assert re.search(r"\b(10:00|9:5\d)\b", countdown.inner_text()), countdown.inner_text()

    # the QR image's address fills the code in on the device that opens it
    scanned = new_page("phone", server.base)
    scanned.goto(f"/link?code={code}")
    scanned.wait_for_function("() => location.pathname === '/'")
    assert scanned.locator("[data-field='link-code']").input_value() == code

    phone = new_page("phone", server.base)
    phone.goto("/")
    phone.locator("[data-player-name]").wait_for()
    assert phone.locator("[data-player-name='Desk Ayesha']").count() == 0
    phone.fill("[data-field='link-code']", code.lower())
    press(phone, "[data-action='use-code']")
    phone.locator("[data-player-name='Desk Ayesha']").wait_for()
    row = phone.locator(f"[data-my-table='{tid}']")
    row.wait_for()
    press(phone, f"[data-my-table='{tid}'] .row-main")
    phone.wait_for_selector("main.table[data-game='court-piece-2p'][data-version]")
    phone.wait_for_function(
        "() => document.querySelector('main.table').dataset.yourTurn === 'true'")
    assert phone.locator("[data-hand] [data-card]").count() > 0  # the seat's own hand
    before = int(phone.locator("main.table").get_attribute("data-version") or -1)
    assert play_turn(phone)
    assert int(phone.locator("main.table").get_attribute("data-version") or -1) > before

    # the code is spent: the other phone is told so
    press(scanned, "[data-action='use-code']")
    toast = scanned.locator("[data-toast='error']")
    toast.wait_for()
    assert "wrong, used or expired" in toast.inner_text()

    # the desktop sees both devices and signs the phone out
    desk.goto("/")
    press(desk, "[data-action='show-sessions']")
    desk.wait_for_function("() => document.querySelectorAll('[data-session]').length === 2")
    assert desk.locator("[data-session-current]").count() == 1
    press(desk, "[data-action='end-session']")
    desk.wait_for_function("() => document.querySelectorAll('[data-session]').length === 1")
    phone.goto("/")
    phone.locator("[data-player-name]").wait_for()
    assert phone.locator("[data-player-name='Desk Ayesha']").count() == 0  # a new guest
    assert desk.js_errors == [] and phone.js_errors == [] and scanned.js_errors == []


def test_linking_a_device_that_played_asks_before_bringing_its_tables(server: Server,
                                                                      new_page: Any) -> None:
    desk = new_page("desktop", server.base)
    desk.goto("/")
    desk.locator("[data-player-name]").wait_for()
    press(desk, "[data-action='link-device']")
    code = desk.locator("[data-link-code]").get_attribute("data-link-code") or ""
    name = desk.locator("[data-player-name]").get_attribute("data-player-name")

    phone = new_page("phone", server.base)
    phone.goto("/")
    phone.locator("[data-player-name]").wait_for()
    press(phone, "[data-game-choice='court-piece-2p']")
    press(phone, "[data-action='play-bots']")
    phone.wait_for_selector("main.table[data-version]")
    tid = phone.url.split("/t/")[1].split("?")[0]
    phone.goto("/")
    phone.fill("[data-field='link-code']", code)
    press(phone, "[data-action='use-code']")
    ask = phone.locator("dialog[data-dialog='link-merge']")
    ask.wait_for()
    assert "(1)" in ask.inner_text()
    press(phone, "dialog[data-dialog='link-merge'] [data-action='merge']")
    phone.locator(f"[data-player-name='{name}']").wait_for()
    desk.goto("/")
    desk.locator(f"[data-my-table='{tid}']").wait_for()  # the guest's table is the player's
    assert desk.js_errors == [] and phone.js_errors == []
