"""Comfort at the table (issue 50): large cards and a calm pace are settings of the home page,
kept on the device (a reload shows them again); the calm pace makes the bots of a new table
wait longer and its finished tricks stay longer, large cards make the hand's cards bigger.  The
system's ask for more contrast is honoured: the second ink is the first, and a card that may
not be played is marked by a dashed edge, not by its dimming alone (reduced motion: see
test_motion.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Server, call, create_table, press, serve_fixed, state_where
from tests.web.test_a11y import assert_clean

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CARD_WIDTH = "() => document.querySelector('[data-hand] [data-card]').getBoundingClientRect().width"


def open_two_player(page: Any) -> str:
    """From home, a two-player table against the bots; its id."""
    press(page, "[data-game-choice='court-piece-2p']")
    press(page, "[data-action='play-bots']")
    page.wait_for_selector("main.table[data-game='court-piece-2p'] [data-hand] [data-card]")
    return str(page.url.split("/t/")[1].split("?")[0])


def test_large_cards_and_the_calm_pace_are_kept_and_used(new_page: Any, server: Server) -> None:
    plain = new_page("desktop", server.base, fast=False)
    plain.goto("/")
    open_two_player(plain)
    plain_width = plain.evaluate(CARD_WIDTH)

    page = new_page("desktop", server.base, fast=False)
    page.goto("/")
    page.select_option("[data-field='speed']", "calm")
    page.check("[data-field='large-cards']")
    assert page.evaluate("() => document.documentElement.dataset.cards") == "large"
    page.reload()
    page.wait_for_selector("[data-field='large-cards']")
    # kept on this device: the page comes back with them
    assert page.is_checked("[data-field='large-cards']")
    assert page.input_value("[data-field='speed']") == "calm"
    assert page.evaluate("() => document.documentElement.dataset.cards") == "large"
    tid = open_two_player(page)
    assert page.evaluate(CARD_WIDTH) > plain_width * 1.2, (page.evaluate(CARD_WIDTH), plain_width)
    # the bots of the table wait longer; a finished trick stays 4 s on this page
    assert call(server.base, "GET", f"/api/tables/{tid}")["table"]["bot_delay_ms"] == 2500
    assert page.evaluate("() => localStorage.getItem('taash.pace')") == "4000"
    # turned off, the cards are their size again
    page.goto("/")
    page.uncheck("[data-field='large-cards']")
    assert page.evaluate("() => document.documentElement.dataset.cards") is None
    assert page.js_errors == [] and plain.js_errors == []


def test_more_contrast_marks_an_unplayable_card_by_its_edge(new_page: Any, server: Server) -> None:
    def restricted(m: Any, s: int) -> bool:
        v = m.view(s)
        return bool(v["trick"]) and 0 < len(v["legal_actions"]) < len(v["hand"])

    m, seat = state_where("court-piece-2p", restricted)
    page = new_page("desktop", server.base)
    serve_fixed(page, "court-piece-2p", m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7'][data-your-turn='true']"
                           " [data-hand] .card.dim")
    look = """() => {
      const dim = getComputedStyle(document.querySelector('[data-hand] .card.dim'));
      const root = getComputedStyle(document.documentElement);
      return { outline: dim.outlineStyle, filter: dim.filter,
               same: root.getPropertyValue('--ink-2') === root.getPropertyValue('--ink') };
    }"""
    page.emulate_media(contrast="no-preference")
    before = page.evaluate(look)
    assert before["outline"] == "none" and not before["same"], before
    page.emulate_media(contrast="more")
    after = page.evaluate(look)
    assert after == {"outline": "dashed", "filter": "none", "same": True}, after
    assert_clean(page)


def test_the_calm_pace_keeps_a_finished_trick_on_the_felt(new_page: Any, server: Server) -> None:
    """Calm, chosen in the settings: a trick just won stays on the felt some 4 s (normal: 1.5)
    before the next is drawn."""
    bot = {"type": "bot", "level": "easy"}
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}, bot],
                     options={"target": 1}, first_seat=0)
    page = new_page("desktop", server.base, fast=False)
    page.goto("/")
    page.select_option("[data-field='speed']", "calm")
    page.goto(f"/t/{t['id']}?seat=0&token={t['seats'][0]['token']}")
    press(page, "[data-action^='trump:'][aria-disabled='false']")
    page.wait_for_selector("main.table[data-your-turn='true'] [data-hand] [data-playable='true']")
    press(page, "[data-hand] [data-card][data-playable='true']")
    page.wait_for_function("() => document.querySelectorAll('.trick .play').length === 2")
    shown = page.evaluate("() => performance.now()")
    page.wait_for_function("() => document.querySelectorAll('.trick .play').length !== 2",
                           timeout=10_000)
    held = page.evaluate("() => performance.now()") - shown
    assert 3000 < held < 6000, held
