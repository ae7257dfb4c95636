"""The account panel's programs and data in the browser (issue 24, parts 4 and 5): a token
made in the page is shown once and drives the player's seats from the API, then is revoked in
the page; "Download my data" gives the export; "Delete my account" asks for a typed word and
then leaves the browser a new guest, the old token refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.helpers import Server, press

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_tokens_export_and_delete_in_the_page(server: Server, new_page: Any,
                                              tmp_path: Path) -> None:
    page = new_page("desktop", server.base)
    page.goto("/")
    page.locator("[data-player-name]").wait_for()
    field = page.locator("[data-field='name']")
    field.fill("Page <b>Ada</b>")  # a name is text, shown as typed, never markup
    field.press("Enter")
    page.locator("[data-player-name='Page <b>Ada</b>']").wait_for()
    assert page.locator("[data-section='player'] b").count() == 0
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")

    # make a token: shown once, with a copy button; listed by its name
    press(page, "[data-action='show-tokens']")
    page.locator("[data-no-tokens]").wait_for()
    page.fill("[data-field='token-name']", "my <i>bot</i>")
    page.uncheck("[data-field='token-read']")
    press(page, "[data-action='create-token']")
    shown = page.locator("[data-new-token]")
    shown.wait_for()
    token = shown.input_value()
    assert token.startswith("taash_pat_")
    assert page.locator("[data-action='copy-token']").count() == 1
    row = page.locator("[data-token] [data-token-name]")
    row.wait_for()
    assert row.inner_text() == "my <i>bot</i>" and page.locator("[data-token] i").count() == 0

    # the token acts for the page's player: a table made with it is theirs, played by it
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server.base, headers=auth, timeout=20) as program:
        r = program.post("/api/tables", json={
            "game": "court-piece-2p", "live": False, "options": {"target": 1}, "first_seat": 0,
            "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        v = program.get(f"/api/tables/{tid}/view").json()
        assert v["table"]["seats"][0]["name"] == "Page <b>Ada</b>"
        r = program.post(f"/api/tables/{tid}/actions", json={
            "action": v["legal_actions"][0], "version": v["version"]})
        assert r.status_code == 200, r.text
    page.reload()
    page.locator(f"[data-my-table='{tid}']").wait_for()  # on the player's home screen
    press(page, "[data-action='show-tokens']")
    page.locator("[data-token]").wait_for()
    assert "never" not in page.locator("[data-token]").inner_text()  # its last use is told
    assert page.locator("[data-new-token]").count() == 0  # shown once only

    # download my data: the export, with the table the token made
    with page.expect_download() as got:
        press(page, "[data-action='download-data']")
    path = tmp_path / "export.json"
    got.value.save_as(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "taash-export/1" and data["profile"]["id"] == me["id"]
    assert tid in [t["id"] for t in data["tables"]]
    assert [t["name"] for t in data["tokens"]] == ["my <i>bot</i>"]
    assert token not in path.read_text(encoding="utf-8")

    # revoke it in the page: refused at once
    press(page, "[data-action='revoke-token']")
    page.locator("[data-no-tokens]").wait_for()
    with httpx.Client(base_url=server.base, headers=auth) as program:
        assert program.get(f"/api/tables/{tid}/view").status_code == 401

    # delete the account: a wrong word keeps the dialog; the word deletes
    page.on("dialog", lambda d: d.dismiss())
    press(page, "[data-action='delete-account']")
    dialog = page.locator("dialog[data-dialog='delete-account']")
    dialog.wait_for()
    page.fill("[data-field='delete-confirm']", "nope")
    press(page, "[data-action='confirm-delete']")
    page.locator("[data-delete-why]").filter(has_text="delete").wait_for()
    assert dialog.count() == 1
    page.fill("[data-field='delete-confirm']", "delete")
    press(page, "[data-action='confirm-delete']")
    page.wait_for_function(
        "(old) => { const p = document.querySelector('[data-player-name]');"
        " return p && p.dataset.playerName !== old; }", arg="Page <b>Ada</b>")
    after = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    assert after["id"] != me["id"]  # a new guest
    seat = httpx.get(f"{server.base}/api/tables/{tid}").json()["table"]["seats"][0]
    assert seat["name"] == "deleted player" and seat["type"] == "bot"
    assert page.js_errors == []


def test_the_panel_holds_at_360_px_in_every_language(server: Server, new_page: Any) -> None:
    for lang in ("en", "hi", "ur", "ru"):
        page = new_page("phone", server.base)
        page.set_viewport_size({"width": 360, "height": 740})
        page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
        page.goto("/")
        page.wait_for_selector(f"html[lang='{lang}']", state="attached")
        press(page, "[data-action='show-tokens']")
        page.locator("[data-no-tokens]").wait_for()
        page.fill("[data-field='token-name']", "phone")
        press(page, "[data-action='create-token']")
        page.locator("[data-new-token]").wait_for()
        page.locator("[data-token]").wait_for()
        wide = page.evaluate("""() => [...document.querySelectorAll(
            '[data-section=account-data] *')].filter((el) => {
              const r = el.getBoundingClientRect();
              return r.width && (r.left < -1 || r.right > innerWidth + 1); })
            .map((el) => el.className || el.tagName)""")
        assert wide == [], (lang, wide)
        # (the page as a whole is the home screen's business: at 360 px its Russian is a
        # little wider than the screen with or without this panel)
        panel = page.locator("[data-section=account-data]")
        assert panel.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), lang
        assert page.js_errors == []
