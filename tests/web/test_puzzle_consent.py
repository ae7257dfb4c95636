"""The player's "My finished deals may become puzzles" on home's settings panel (issue 49,
docs/puzzles.md "Mined on the server"): off at first, turned on with a tap, kept by the server
(a reload shows it, and /api/me says it), in the player's language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Server, home_ready

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BOX = "[data-field='puzzle-consent']"
ME = "() => fetch('/api/me').then((r) => r.json()).then((p) => p.puzzle_consent)"


def test_consent_is_off_until_turned_on_and_kept_by_the_server(new_page: Any,
                                                               server: Server) -> None:
    page = new_page("desktop", server.base)
    page.goto("/")
    home_ready(page)
    assert not page.is_checked(BOX)
    assert page.evaluate(ME) is False
    page.locator(BOX).check()
    page.wait_for_function(f"({ME})()", polling=100)  # the server has it
    page.reload()
    home_ready(page)
    page.wait_for_selector(f"{BOX}:checked")  # shown from the server's answer
    # and off again
    page.locator(BOX).uncheck()
    page.wait_for_function(f"({ME})().then((on) => on === false)", polling=100)
    assert page.js_errors == []


def test_the_setting_speaks_the_players_language(new_page: Any, server: Server) -> None:
    page = new_page("desktop", server.base)
    page.add_init_script("localStorage.setItem('taash.lang', 'ru')")
    page.goto("/")
    home_ready(page)
    label = page.locator("label", has=page.locator(BOX))
    assert label.inner_text().strip() == "Мои сыгранные раздачи могут стать задачами"
    assert page.locator("#puzzle-consent-hint").inner_text().startswith("Позиция")
    assert page.js_errors == []
