"""The deal review in the page, at phone size: opened from a finished deal's summary it steps
forward and back card by card and trick by trick; a record pasted in, with a blunder this test
builds (one card that turns a won deal into a lost one), is analysed by the server's worker
and the blunder is marked at that card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taash.games import game_class
from tests.web.helpers import Server, home_ready, play_to_end, press
from tests.web.test_csp import WATCH
from tests.web.test_web import start_against_bots

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def at(page: Any) -> int:
    return int(page.locator("[data-review-at]").get_attribute("data-review-at"))


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the review is {width} px wide at 390"


def test_a_finished_deal_steps_forward_and_back_at_phone_size(server: Server,
                                                              new_page: Any) -> None:
    page = new_page("phone", server.base)
    start_against_bots(page, "court-piece-2p")
    play_to_end([page])
    link = page.locator("dialog[data-dialog='match-summary'] [data-action='review-deal']")
    link.wait_for()
    table_url = page.url
    press(page, "dialog[data-dialog='match-summary'] [data-action='review-deal']")
    page.wait_for_selector("main.review [data-review-at]")
    assert "/review?table=" in page.url and "deal=0" in page.url
    # after the trump call: the caller's five cards, every hand open
    call = page.locator("[data-review-call] .card")
    assert call.count() == 5
    assert page.locator("[data-review-hand]").count() == 2
    start = at(page)
    hand0 = page.locator("[data-review-hand='0'] .card").count()
    press(page, "[data-action='review-forward']")
    assert at(page) == start + 1
    assert page.locator("[data-review-table] .review-play").count() == 1
    press(page, "[data-action='review-forward']")
    # a trick of two cards: won, with its winner starred
    assert page.locator("[data-review-table] .won-mark").count() == 1
    assert page.locator("[data-review-hand='0'] .card").count() == hand0 - 1
    press(page, "[data-action='review-back']")
    assert at(page) == start + 1
    press(page, "[data-action='review-back']")
    assert at(page) == start and page.locator("[data-review-hand='0'] .card").count() == hand0
    # trick by trick, a jump, and the result at the end
    press(page, "[data-action='review-next-trick']")
    assert page.locator("[data-review-trick]").get_attribute("data-review-trick") == "1"
    press(page, "[data-action='review-next-trick']")
    assert page.locator("[data-review-trick]").get_attribute("data-review-trick") == "2"
    press(page, "[data-action='review-prev-trick']")
    assert page.locator("[data-review-trick]").get_attribute("data-review-trick") == "1"
    last = page.locator("[data-field='jump'] option").count() - 1
    page.select_option("[data-field='jump']", str(last))
    page.wait_for_selector("[data-review-result]")
    assert page.locator("[data-review-result]").inner_text().strip()
    # one seat's hand alone
    page.select_option("[data-field='hands']", "1")
    assert page.locator("[data-review-hand]").count() == 1
    no_sideways_scroll(page)
    page.keyboard.press("ArrowLeft")
    assert page.locator("[data-review-result]").count() == 0
    press(page, "[data-action='review-table']")
    page.wait_for_selector("main.table")
    assert page.url.split("?")[0] == table_url.split("?")[0]
    # from "my tables": the finished table's review
    tid = table_url.split("/t/")[1].split("?")[0]
    page.goto("/")
    press(page, f"[data-my-table='{tid}'] [data-action='review-table']")
    page.wait_for_selector("main.review [data-review-at]")
    assert f"table={tid}" in page.url
    assert page.js_errors == []


def blunder_record(min_step: int = 8) -> tuple[dict[str, Any], int]:
    """A two-player Court Piece deal played with the best play throughout (the exact solver
    chooses), except one card, at step ``min_step`` or later, that turns the mover's won deal
    into a lost one: the record and that step."""
    from taash.review.solver import action_values

    cls = game_class("court-piece-2p")
    for seed in range(100):
        m = cls.new_match({"target": 1}, seed=seed)
        step, blunder = 0, None
        while not m.summary()["deals"][0]["complete"]:
            seat = m.turn()
            assert seat is not None
            legal = m.legal_ids(seat)
            values = action_values(m.clone(), time_limit=5)
            have = m.view(seat)["tricks"][seat]
            best = max(values[a] for a in legal)
            pick = next(a for a in legal if values[a] == best)
            playing = m.view(seat).get("phase") == "play"
            if blunder is None and playing and step >= min_step and have + best >= m.win_target:
                bad = [a for a in legal if have + values[a] < m.win_target]
                if bad:
                    pick, blunder = bad[0], step
            m.apply(seat, m.action_text(pick))
            step += 1
        if blunder is not None:
            return m.record(), blunder
    raise AssertionError("no deal with a blunder to make")


def test_a_blunder_built_by_the_test_is_marked_at_its_card(server: Server, new_page: Any,
                                                           screenshots: Path) -> None:
    rec, blunder = blunder_record()
    card = rec["deals"][0]["actions"][blunder]["action"].split(":")[1]
    page = new_page("phone", server.base)
    page.context.add_init_script(WATCH)  # the review runs under the page's policy
    page.goto("/")
    home_ready(page)
    press(page, "[data-action='review-record']")
    page.wait_for_selector("[data-field='record']")
    # a malformed record first: the server's one line, no review
    page.fill("[data-field='record']", '{"format": "nope"}')
    press(page, "[data-action='review-record']")
    err = page.locator("[data-review-error]")
    err.wait_for()
    assert "malformed record" in err.inner_text()
    page.fill("[data-field='record']", json.dumps(rec))
    press(page, "[data-action='review-record']")
    page.wait_for_selector("main.review [data-review-at]")
    press(page, "[data-action='review-analyse']")
    page.wait_for_selector("[data-review-progress], [data-summary-seat]")
    page.wait_for_selector("[data-summary-seat]", timeout=120_000)
    seat = rec["deals"][0]["actions"][blunder]["seat"]
    summary = page.locator(f"[data-summary-seat='{seat}']").inner_text()
    assert "blunders 1," in summary, summary
    # a two-player deal: judged by taash's own solver, and the page says so
    solver = page.locator("[data-review-solver]")
    assert solver.get_attribute("data-review-solver") == "taash"
    assert "taash's own solver" in solver.inner_text()
    # the blunder's trick: its card marked, and only it
    positions = page.evaluate("() => document.querySelectorAll('[data-field=jump] option').length")
    assert positions > 1
    for _ in range(40):
        if page.locator(f".review-play[data-step='{blunder}']").count():
            break
        press(page, "[data-action='review-forward']")
    play = page.locator(f".review-play[data-step='{blunder}']")
    assert play.get_attribute("data-verdict") == "blunder"
    assert play.locator(f".card[data-card='{card}']").count() == 1
    assert play.locator("[data-verdict-mark='blunder']").is_visible()
    assert "With all cards open" in play.inner_text()
    assert "With only what the player knew" in play.inner_text()
    others = page.locator(".review-play[data-verdict='blunder']")
    assert others.count() == 1
    no_sideways_scroll(page)
    page.screenshot(path=str(screenshots / "review-phone.png"), full_page=True)
    assert page.evaluate("window.__csp") == []
    assert page.js_errors == []


@pytest.mark.parametrize(("game", "options"), [("goat", None),
                                               ("court-piece", {"sar": "double"})])
def test_every_position_of_a_goat_and_a_double_sar_deal_draws(server: Server, new_page: Any,
                                                               game: str,
                                                               options: Any) -> None:
    """A record dropped in (a file): every position drawn without an error, Goat's passes
    face up, the double-sar pile shown, the result at the end."""
    from taash.record import random_record

    rec = random_record(game, options, seed=7, deals=1)
    page = new_page("phone", server.base)
    page.goto("/review")
    page.set_input_files("[data-field='record-file']", files=[{
        "name": "deal.json", "mimeType": "application/json",
        "buffer": json.dumps(rec).encode()}])
    page.wait_for_selector("main.review [data-review-at]")
    steps = len(rec["deals"][0]["actions"])
    face_down = 0
    piles = set()
    while True:
        face_down += page.locator(".review-play small", has_text="face down").count()
        piles.add(page.locator("[data-review-score]").inner_text())
        if at(page) == steps:
            break
        press(page, "[data-action='review-forward']")
    assert page.locator("[data-review-result]").inner_text().strip()
    if game == "goat":
        assert face_down > 0
        assert page.locator("[data-review-call] .card").count() == 1  # the trump card
    else:
        assert any("Pile" in p for p in piles)
    no_sideways_scroll(page)
    assert page.js_errors == []
