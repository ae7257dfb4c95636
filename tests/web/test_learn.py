"""The guided first deal (issue 49) in Chromium: offered once on a first visit, it plays each
game's fixed deal at the real table view, the learner following the lesson's marks to the
deal's end; one wrong move on the way is answered with the core's rule in plain words, the
card to look at and a link to the rule's page.  The rules pages draw each rule's example with
the table's cards.  No JavaScript error, no Content-Security-Policy violation, no sideways
scroll on a phone."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.web.helpers import ROOT, SUMMARY_CONTINUE, Server, press, tap_card
from tests.web.test_csp import WATCH

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WEB = ROOT / "src" / "taash" / "web"
WIDE = "() => document.documentElement.scrollWidth"


def words(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def script(game: str) -> dict[str, Any]:
    data = json.loads((WEB / "learn" / f"{game}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def a_wrong_move(game: str) -> tuple[int, str, dict[str, Any]]:
    """The first of the learner's steps with a refused move of the cards it holds: (the
    step's index, the action, the core's refusal)."""
    for i, step in enumerate(script(game)["steps"]):
        for key, refusal in step.get("refusals", {}).items():
            verb = key.split(":")[0]
            if verb in ("play", "beat") and refusal.get("key") in ("must_follow", "does_not_beat",
                                                                   "play_exactly"):
                return i, key, refusal
    raise AssertionError("no refused move in the script")


def wrong_move(page: Any, action: str) -> None:
    """Make a move the rules refuse, through the table's own controls."""
    verb, cards = action.split(":")
    if verb == "play":
        tap_card(page, cards)
        return
    for c in cards.split(","):
        tap_card(page, c)
    press(page, f"[data-actions] [data-action='{verb}'], .actions [data-action='{verb}']",
          force=True)
    for c in cards.split(","):  # let the cards go again
        tap_card(page, c)


STATE = """() => {
  const m = document.querySelector('main.table');
  const points = [...document.querySelectorAll('[data-hand] [data-point="true"]')];
  return {
    at: m && m.dataset.lessonAt !== undefined ? Number(m.dataset.lessonAt) : null,
    version: m ? m.dataset.version : null,
    cards: points.map((e) => e.dataset.card),
    selected: points.filter((e) => e.getAttribute('aria-pressed') === 'true')
      .map((e) => e.dataset.card),
    button: !!document.querySelector('.actions [data-point="true"]'),
    next: !!document.querySelector('[data-lesson-box] [data-action="learn-next"]'),
    summary: !!document.querySelector("dialog[data-dialog='deal-summary']"),
    done: !!document.querySelector('[data-lesson-done]'),
  };
}"""


def lesson_move(page: Any, s: dict[str, Any]) -> None:
    """Make the move the lesson marks (read as `s`, at one moment): its cards tapped (Court
    Piece plays the card; Goat selects it) and its button pressed."""
    for c in s["cards"]:
        if c not in s["selected"]:
            tap_card(page, c)
    if s["button"]:
        press(page, ".actions [data-point='true']")
    page.wait_for_function(
        "(v) => document.querySelector('main.table').dataset.version !== v"
        " || document.querySelector('[data-lesson-wrong]')", arg=s["version"])
    assert page.locator("[data-lesson-wrong]").count() == 0, \
        page.locator("[data-lesson-box]").inner_text()


def follow_the_lesson(page: Any, wrong: tuple[int, str, dict[str, Any]] | None,
                      stop_at: int | None = None, timeout: float = 120) -> bool:
    """Do what the lesson says until the deal is done (or the lesson waits at step
    `stop_at`); the wrong move once at its step.  Whether the wrong move was answered."""
    answered = False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = page.evaluate(STATE)
        if s["done"]:
            return answered
        if s["summary"]:
            press(page, SUMMARY_CONTINUE)
        elif s["next"]:
            press(page, "[data-lesson-box] [data-action='learn-next']")
        elif s["at"] is None or not (s["cards"] or s["button"]):
            page.wait_for_timeout(50)
        elif stop_at is not None and s["at"] >= stop_at:
            assert s["at"] == stop_at
            return answered
        elif wrong and not answered and s["at"] == wrong[0]:
            wrong_move(page, wrong[1])
            page.locator(f"[data-lesson-wrong='{wrong[2]['rule']}']").wait_for()
            answered = True
        else:
            lesson_move(page, s)
    raise AssertionError("the lesson did not end")


@pytest.mark.parametrize("game", ["court-piece", "court-piece-2p", "goat"])
def test_the_guided_deal_is_played_to_its_end_by_following_the_lesson(
        server: Server, new_page: Any, game: str) -> None:
    page = new_page("phone", server.base)
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_init_script(WATCH)
    en = words("en")
    # a first visit: the guided deals are offered under the new game
    page.goto("/")
    page.locator("[data-learn-offer]").wait_for()
    press(page, f"[data-learn-offer] [data-learn-game='{game}']")
    page.wait_for_selector(f"main.table[data-learn='{game}']")
    assert page.url.endswith(f"/learn/{game}")
    # the first lesson: the call (Court Piece) or the lead (Goat), with its move marked
    first = script(game)["steps"][0]
    page.locator("[data-lesson-box] [data-lesson]").first.wait_for()
    wrong = a_wrong_move(game)
    answered = follow_the_lesson(page, wrong)
    assert answered
    # the deal's end: done, and remembered
    assert page.locator("[data-lesson-done]").inner_text().strip().startswith(en["learn_done"][:20])
    assert game in json.loads(page.evaluate("localStorage.getItem('taash.learned')"))
    assert page.evaluate(WIDE) <= 360
    assert page.evaluate("window.__csp") == [] and page.js_errors == [], page.js_errors
    assert first["seat"] == 0


def test_a_wrong_move_is_answered_with_its_rule_and_the_card_to_look_at(
        server: Server, new_page: Any) -> None:
    page = new_page("phone", server.base)
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_init_script(WATCH)
    page.add_init_script("localStorage.setItem('taash.lang', 'ru')")
    ru = words("ru")
    page.goto("/learn/court-piece")
    page.wait_for_selector("main.table[data-learn='court-piece']")
    i, action, refusal = a_wrong_move("court-piece")
    assert refusal["rule"] == "CP-5"

    follow_the_lesson(page, None, stop_at=i)
    wrong_move(page, action)
    box = page.locator("[data-lesson-wrong='CP-5']")
    box.wait_for()
    text = box.inner_text()
    led = refusal["params"]["suit"]
    # the rule in plain words, in the page's language, with the suit it names
    assert ru["illegal_must_follow"].split(":")[0] in text
    assert ru[f"suit_{led}"] in text
    # the card to look at: the lesson's card, named
    step = script("court-piece")["steps"][i]
    card = step["action"].split(":")[1]
    assert ru[f"rank_{card[0]}"] in text
    link = box.locator("a[data-rule='CP-5']")
    assert link.get_attribute("href") == "/rules/court-piece#CP-5"
    # nothing was played: the lesson still waits for the same move, marked
    assert page.locator(f"[data-hand] [data-card='{card}'][data-point='true']").count() == 1
    tap_card(page, card)
    page.wait_for_selector("[data-lesson-wrong]", state="detached")
    assert page.evaluate("window.__csp") == [] and page.js_errors == [], page.js_errors


def test_the_first_visit_offer_comes_once(server: Server, new_page: Any) -> None:
    page = new_page("phone", server.base)
    page.goto("/")
    offer = page.locator("[data-learn-offer]")
    offer.wait_for()
    assert offer.locator("[data-learn-game]").count() == 3
    press(page, "[data-learn-offer] [data-action='learn-later']")
    offer.wait_for(state="detached")
    page.reload()
    page.locator("[data-game-choice]").first.wait_for()
    page.wait_for_timeout(300)
    assert page.locator("[data-learn-offer]").count() == 0
    # "Learn to play" still opens every game's guided deal, in one tap more
    press(page, "[data-action='learn']")
    page.locator("dialog[data-dialog='learn'] [data-learn-game='goat']").wait_for()
    press(page, "dialog[data-dialog='learn'] [data-learn-game='goat']")
    page.wait_for_selector("main.table[data-learn='goat']")
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "ur"])
def test_a_rules_page_shows_each_rule_with_its_picture(server: Server, new_page: Any,
                                                      lang: str) -> None:
    page = new_page("phone", server.base)
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_init_script(WATCH)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.goto("/rules/goat#GT-7")
    section = page.locator("section[data-rule='GT-7']")
    section.wait_for()
    rules = json.loads((WEB / "rules" / f"{lang}.json").read_text(encoding="utf-8"))
    assert rules["GT-7"]["title"] in section.inner_text()
    # drawn with the table's cards: the lead on the table, the hand, the moves marked
    assert section.locator(".example [data-card='9H']").count() == 1
    assert section.locator("[data-mark='right']").count() == 2
    assert section.locator("[data-mark='wrong']").count() == 1
    assert "asked" in (section.get_attribute("class") or "")
    n = page.locator("main[data-page='rules']").get_attribute("data-rules")
    assert n == "6"
    if lang == "ur":
        assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate(WIDE) <= 360
    assert page.evaluate("window.__csp") == [] and page.js_errors == [], page.js_errors
