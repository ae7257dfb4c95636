"""Accessibility (issue 27): axe-core, through axe-playwright-python (which bundles it: nothing
is downloaded at test time), finds no violation on the home page and at the table of each game,
mid-trick and with the deal's summary open, on a phone and a desktop, in light and dark.  And
the table tells a screen reader what happens: plays and tricks go to a live region."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import (
    SUMMARY_CONTINUE,
    Server,
    attr,
    looks,
    play_to_end,
    play_turn,
    press,
    serve_fixed,
    state_where,
    wait_for_change,
)
from tests.web.test_web import start_against_bots

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAMES = ["court-piece", "court-piece-2p", "goat"]


def violations(page: Any) -> list[str]:
    """axe's violations on the page as it is now: rule, impact and the first few elements."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        nodes = [" ".join(n["target"]) + ": " + n.get("failureSummary", "")[:200]
                 for n in v["nodes"][:4]]
        out.append(f"{v['id']} ({v['impact']}): {v['help']} -- " + " | ".join(nodes))
    return out


SETTLED = """() => document.getAnimations().every((a) => a.playState !== 'running'
  || a.effect.getComputedTiming().iterations === Infinity)"""


def assert_clean(page: Any) -> None:
    # contrast is judged on the page at rest, not on a card or message still fading in
    page.wait_for_function(SETTLED)
    found = violations(page)
    assert not found, "\n".join(found)


def assert_clean_in_both(page: Any) -> None:
    """No violation in dark nor in light: the same page, its colour scheme switched (the
    page's colours follow prefers-color-scheme alone)."""
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate("(s) => matchMedia(`(prefers-color-scheme: ${s})`).matches",
                             scheme)
        assert_clean(page)


@pytest.mark.parametrize("kind", ["phone", "desktop"])
def test_the_home_page_has_no_violations(new_page: Any, server: Server, kind: str) -> None:
    page = new_page(kind, server.base)
    page.goto("/")
    page.wait_for_selector("[data-player-name]")
    press(page, ".options-box summary")
    assert_clean_in_both(page)
    press(page, "[data-mode='friends']")
    assert_clean_in_both(page)


MATCH_SUMMARY = "dialog[data-dialog='match-summary']"


def until_summary(page: Any, timeout: float = 60_000) -> None:
    """Play the player's turns until a deal's summary opens (and leave it open): the deal's
    own, or at the end of a match the match's, which holds its last deal's."""
    deadline = page.evaluate("Date.now()") + timeout
    while page.evaluate("Date.now()") < deadline:
        before = looks([page])
        if page.locator(f"{SUMMARY_CONTINUE}, {MATCH_SUMMARY}").count():
            return
        # only on the table just looked at: play_turn closes a summary that opened since
        if not play_turn(page, seen=before[0]):
            wait_for_change([page], before, timeout=timeout / 1000)
    raise AssertionError("no deal summary in time")


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("game", GAMES)
def test_the_table_has_no_violations(new_page: Any, server: Server, game: str,
                                     scheme: str) -> None:
    kind = "phone" if scheme == "dark" else "desktop"
    # mid-trick: a seat's turn with cards on the felt (a moment found with the core, served)
    m, seat = state_where(game, lambda m, s: bool(m.view(s)["trick"]))
    page = new_page(kind, server.base)
    page.emulate_media(color_scheme=scheme)
    serve_fixed(page, game, m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7'][data-your-turn='true']")
    assert page.locator(".trick .play").count()
    assert_clean(page)
    # the deal's summary, at a real table played to the end of its first deal
    page = new_page(kind, server.base)
    page.emulate_media(color_scheme=scheme)
    start_against_bots(page, game, deals=2)
    until_summary(page)
    assert_clean(page)


REACHED = """() => {
  const a = document.activeElement;
  return a ? (a.dataset.card || a.dataset.action || a.dataset.mode || a.dataset.option
              || a.dataset.field || a.getAttribute('aria-label') || a.tagName) : null;
}"""
# the hand is one Tab stop (issue 50): of its cards only the one with tabindex 0 is reached
CONTROLS = """() => [...document.querySelectorAll('main.table button')]
  .filter((b) => !b.disabled && b.tabIndex >= 0 && b.getClientRects().length
          && getComputedStyle(b).visibility !== 'hidden')
  .map((b) => b.dataset.card || b.dataset.action || b.getAttribute('aria-label'))"""


def test_a_match_is_played_from_the_keyboard_and_heard(new_page: Any, server: Server) -> None:
    """From the home page to a played card with the keys only: every control of the table is
    reached with Tab, a card is played with Enter, and the live log says each play and who
    won the trick."""
    page = new_page("desktop", server.base)
    page.goto("/")
    page.wait_for_selector("[data-player-name]")
    page.locator("[data-game-choice='court-piece'] input").focus()
    page.keyboard.press("ArrowDown")  # the radio group of games: the next one, chosen
    page.wait_for_selector("[data-game-choice='court-piece-2p'].chosen")
    # the picker is drawn anew, and the focus stays on the game chosen
    assert page.evaluate("() => document.activeElement.value") == "court-piece-2p"
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate(REACHED) == "play-bots":
            break
    else:
        raise AssertionError("Play now is not reached with Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("main.table[data-game='court-piece-2p'][data-version]")
    # the trump call (if it is ours) and then our card, each from the keyboard
    for _ in range(2):
        page.wait_for_function("""() => document.querySelector('main.table').dataset.yourTurn
            === 'true'
            || document.querySelector("[data-action^='trump:'][aria-disabled='false']")""")
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        want = set(page.evaluate(CONTROLS))
        assert page.locator("[data-hand] [data-card]").count() > 1
        assert page.evaluate("""() => [...document.querySelectorAll('[data-hand] [data-card]')]
            .filter((c) => c.tabIndex >= 0).length""") == 1
        seen: set[str] = set()
        for _ in range(60):
            page.keyboard.press("Tab")
            now = page.evaluate(REACHED)
            if now:
                seen.add(now)
            if want <= seen:
                break
        assert want <= seen, want - seen
        trump = page.locator("[data-action^='trump:'][aria-disabled='false']")
        calling = trump.count() > 0
        if calling:
            trump.first.focus()
        else:
            page.locator("[data-hand] [data-card][data-playable='true']").first.focus()
        before = int(attr(page, "data-version") or -1)
        page.keyboard.press("Enter")
        page.wait_for_function("(v) => Number(document.querySelector('main.table')"
                               ".dataset.version) > v", arg=before)
        if not calling:
            break
    log = page.locator("[data-announce]")
    assert log.get_attribute("aria-live") == "polite"
    page.wait_for_function("""() => /wins? the trick\\./.test(
        document.querySelector('[data-announce]').textContent)""")
    text = log.inner_text()
    assert "You play the " in text and " the trick." in text, text
    assert page.js_errors == []


@pytest.mark.parametrize(("game", "scheme"), [("court-piece-2p", "dark"), ("goat", "light")])
def test_the_review_page_has_no_violations(new_page: Any, server: Server, game: str,
                                           scheme: str) -> None:
    """A finished deal's review at its first step, at its first trick's end (the winner
    marked) and at its end, and the page a record is pasted into: on a phone in dark (two-player
    Court Piece) and on a desktop in light (Goat, its passes turned up)."""
    page = new_page("phone" if scheme == "dark" else "desktop", server.base)
    page.emulate_media(color_scheme=scheme)
    start_against_bots(page, game)
    play_to_end([page])
    press(page, f"{MATCH_SUMMARY} [data-action='review-deal']")
    page.wait_for_selector("main.review [data-review-at]")
    assert_clean(page)
    for _ in range(8):  # on to the first trick's end: its winner marked
        press(page, "[data-action='review-forward']")
        if page.locator("[data-review-table] .won-mark").count():
            break
    page.wait_for_selector("[data-review-table] .won-mark")
    assert_clean(page)
    # the deal's end, with its result, one seat's hand alone
    last = page.locator("[data-field='jump'] option").count() - 1
    page.select_option("[data-field='jump']", str(last))
    page.select_option("[data-field='hands']", "1")
    page.wait_for_selector("[data-review-result]")
    assert_clean(page)
    # a record of one's own: the page to paste it in
    page.goto("/review")
    page.wait_for_selector("[data-field='record']")
    assert_clean(page)
    assert page.js_errors == []


# -- every other page (issue 43): the profile, the account, the fair check, the rules, home with
# a table, on a phone and a desktop ------------------------------------------------------------
HISTORY = {"matches": [{"table": "tz", "game": "court-piece-2p", "date": "2026-11-02T10:00:00Z",
                        "result": "won", "record": "/api/tables/tz/record",
                        "opponents": [{"type": "bot", "level": "hard", "name": None},
                                      {"type": "human", "name": "Dima", "player": "pd"}],
                        "rating_after": {"rating": 1703, "provisional": True}},
                       {"table": "ty", "game": "court-piece-2p", "date": "2026-11-01T10:00:00Z",
                        "result": "lost", "record": "/api/tables/ty/record",
                        "opponents": [{"type": "human", "name": "Dima", "player": "pd"}],
                        "rating_after": {"rating": 1650, "provisional": True}}],
           "next": None}


@pytest.mark.parametrize("kind", ["phone", "desktop"])
def test_every_other_page_has_no_violations(new_page: Any, server: Server, kind: str) -> None:
    from tests.web.test_first_hour_seats import PROFILE

    page = new_page(kind, server.base)
    # home, signed in as this browser's player, with a table of theirs under way
    start_against_bots(page, "court-piece-2p")
    page.goto("/")
    page.locator("[data-my-table]").first.wait_for()
    assert_clean_in_both(page)
    # the account: its signed-in devices open, a device link's code shown
    press(page, "[data-action='show-sessions']")
    page.locator("[data-sessions] li").first.wait_for()
    press(page, "[data-action='link-device']")
    page.locator("[data-link-box]:not([hidden])").wait_for()
    assert_clean_in_both(page)
    # the rules (help), opened from the new game
    press(page, "[data-section='new-game'] [data-action='rules']")
    page.locator("dialog[data-dialog='rules'][open]").wait_for()
    assert_clean_in_both(page)
    # the player's own profile, reached by their name, and a profile with ratings, stats and
    # matches (served: a new player has none yet)
    page.goto("/")
    press(page, "[data-section='player'] [data-action='my-profile']")
    page.locator("main[data-page='profile']").wait_for()
    page.locator("[data-section='recent']").wait_for()
    assert_clean_in_both(page)
    page.route("**/api/players/pz", lambda route: route.fulfill(json=PROFILE))
    page.route("**/api/players/pz/history**", lambda route: route.fulfill(json=HISTORY))
    page.goto("/p/pz")
    page.locator("[data-stats='court-piece-2p'] th").first.wait_for()
    page.locator("[data-match='tz']").wait_for()
    assert_clean_in_both(page)
    page.goto("/leaderboard")
    page.locator("[data-leaderboard]").first.wait_for()
    assert_clean_in_both(page)
    # offline play's screen: its game picker and the chosen game's options
    page.goto("/offline")
    page.locator("[data-offline-options] [data-option]").first.wait_for()
    assert_clean_in_both(page)
    # the fair check's own page
    page.goto("/assets/fair.html")
    page.locator("main, body > *").first.wait_for()
    assert_clean_in_both(page)
    assert page.js_errors == []
