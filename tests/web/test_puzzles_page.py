"""The puzzles page (issue 49) in Chromium on a phone: home's daily puzzle opens it, a guest
solves that puzzle with the table's press-and-release and is told right, with the solution and
the best line; the next puzzle is missed and answered with its solution; the page says the
hands are open and that a guest is not rated; the profile lists both attempts.  No JavaScript
error, no Content-Security-Policy violation, no sideways scroll, no accessibility violation in
either colour scheme."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from taash.puzzles.store import read_set
from tests.web.helpers import Server, home_ready, press, tap_card
from tests.web.test_a11y import assert_clean_in_both
from tests.web.test_csp import WATCH

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDE = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
PUZZLES = {p["id"]: p for p in read_set()}


def shown_puzzle(page: Any) -> dict[str, Any]:
    """The puzzle the page shows, once it is drawn (its set's object: the test knows the
    answer, the page does not)."""
    page.wait_for_selector("main.puzzles-page[data-state='ask'] [data-hand] .card")
    pid = page.locator("main.puzzles-page").get_attribute("data-puzzle")
    return PUZZLES[pid]


def play(page: Any, action: str) -> None:
    """Make a move as at the table: a Court Piece card pressed and released on; Goat's cards
    picked, then its verb's button (a molodka: its own button)."""
    verb, cards = action.split(":")
    if verb == "play":
        tap_card(page, cards)
    elif verb == "molodka":
        press(page, "[data-actions] [data-action='molodka']")
    else:
        for c in cards.split(","):
            tap_card(page, c)
        press(page, f"[data-actions] [data-action='{verb}']")


def test_a_phone_solves_one_puzzle_and_misses_the_next(new_page: Any, tmp_path: Path) -> None:
    srv = Server(tmp_path / "puzzles.db", log=tmp_path / "server.log").start()
    try:
        page = new_page("phone", srv.base)
        page.context.add_init_script(WATCH)
        page.goto("/")
        home_ready(page)
        daily = page.locator("[data-section='daily-puzzle'] [data-daily-puzzle]")
        assert daily.count() == 3
        press(page, "[data-daily-puzzle='court-piece']")
        first = shown_puzzle(page)
        assert first["game"] == "court-piece"
        assert page.locator("[data-daily]").count() == 1
        # every hand open, the guest told they are not rated
        assert page.locator("[data-open-hands]").is_visible()
        assert page.locator("[data-open-hand]").count() == 3
        assert page.locator(".puzzle-rating").get_attribute("data-rated") == "false"
        assert "guest" in page.locator(".puzzle-rating").inner_text()
        assert page.evaluate(WIDE) <= 0
        assert_clean_in_both(page)
        play(page, first["solution"][0])
        page.wait_for_selector("main.puzzles-page[data-state='right']")
        result = page.locator("[data-result='right']")
        assert "Right" in result.inner_text()
        assert result.locator("[data-solution]").get_attribute("data-solution") \
            == " ".join(first["solution"])
        assert "not rated" in result.inner_text().lower() or "guest" in result.inner_text()
        page.locator(".puzzle-line summary").click()
        assert page.locator("[data-line] [data-action]").evaluate_all(
            "(l) => l.map((x) => x.dataset.action)") == [x["action"] for x in first["continuation"]]
        assert page.evaluate(WIDE) <= 0
        assert_clean_in_both(page)
        # the next one, missed: the obvious card
        press(page, "[data-action='next']")
        page.wait_for_function(
            "(id) => { const m = document.querySelector('main.puzzles-page');"
            " return m.dataset.state === 'ask' && m.dataset.puzzle !== id; }", arg=first["id"])
        second = shown_puzzle(page)
        assert second["id"] != first["id"] and second["game"] == "court-piece"
        play(page, second["obvious"])
        page.wait_for_selector("main.puzzles-page[data-state='wrong']")
        missed = page.locator("[data-result='wrong']")
        assert missed.locator("[data-chosen]").get_attribute("data-chosen") == second["obvious"]
        assert missed.locator("[data-solution]").get_attribute("data-solution") \
            == " ".join(second["solution"])
        marked = page.locator("[data-hand] [data-mark='solution']")
        assert marked.count() >= 1
        assert page.locator("[data-hand] [data-playable='true']").count() == 0  # no more moves
        # the profile lists both attempts, the latest first
        me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
        page.goto(f"/p/{me['id']}")
        history = page.locator("[data-section='puzzles'] [data-puzzle-history] li")
        history.first.wait_for()
        assert history.evaluate_all("(l) => l.map((x) => [x.dataset.puzzle, x.dataset.solved])") \
            == [[second["id"], "false"], [first["id"], "true"]]
        # Goat on the same page: its cards picked, then the verb
        page.goto("/puzzles?game=goat")
        goat = shown_puzzle(page)
        assert goat["game"] == "goat"
        assert page.locator("[data-open-hand]").count() == 3
        play(page, goat["solution"][0])
        page.wait_for_selector("main.puzzles-page[data-state='right']")
        assert page.evaluate(WIDE) <= 0
        assert page.evaluate("window.__csp") == [] and page.js_errors == [], page.js_errors
    finally:
        srv.stop()


def test_a_signed_in_player_plays_a_streak(new_page: Any, tmp_path: Path) -> None:
    """Signed in (a confirmed address, written as its confirmation writes it), the page shows
    the puzzle rating and moves it; a streak goes on after a solve and ends at the first miss,
    its best kept."""
    srv = Server(tmp_path / "streak.db", log=tmp_path / "server.log").start()
    try:
        page = new_page("phone", srv.base)
        page.goto("/")
        home_ready(page)
        me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
        with sqlite3.connect(srv.db) as db:
            db.execute("UPDATE players SET email = ? WHERE id = ?", ("p@example.org", me["id"]))
        press(page, "[data-action='puzzles']")
        page.wait_for_selector("main.puzzles-page[data-ready]")
        rating = page.locator(".puzzle-rating")
        assert rating.get_attribute("data-rated") == "true"
        press(page, "[data-game='court-piece-2p']")
        page.wait_for_selector("main.puzzles-page[data-state='ask'] [data-hand] .card")
        press(page, "[data-action='streak']")
        page.wait_for_selector("[data-streak][data-run='0']")
        first = shown_puzzle(page)
        assert first["game"] == "court-piece-2p"
        play(page, first["solution"][0])
        page.wait_for_selector("main.puzzles-page[data-state='right']")
        page.wait_for_selector("[data-streak][data-run='1']")
        moved = page.locator("[data-result='right']").inner_text()
        assert "1500 →" in moved
        assert int(rating.get_attribute("data-rating") or 0) > 1500
        press(page, "[data-action='next']")
        page.wait_for_function(
            "(id) => { const m = document.querySelector('main.puzzles-page');"
            " return m.dataset.state === 'ask' && m.dataset.puzzle !== id; }", arg=first["id"])
        second = shown_puzzle(page)
        play(page, second["obvious"])
        page.wait_for_selector("main.puzzles-page[data-state='wrong']")
        over = page.locator("[data-result='wrong']").inner_text()
        assert "Streak over: 1 solved in a row (your best: 1)" in over
        assert page.locator("[data-action='streak-again']").count() == 1
        assert page.locator("[data-streak] [data-action='streak']").count() == 1
        assert page.evaluate(WIDE) <= 0
        assert page.js_errors == []
    finally:
        srv.stop()
