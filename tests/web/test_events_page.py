"""The duplicate events page on a phone: today's two-player Court Piece event entered and its
first board played to the end by tapping the moves, its field and the player's board against
the best result, and the board stepped through on the review page, under the page's
Content-Security-Policy, with nothing wider than the screen (issue 45's browser check); a Goat
board's best result being searched, then only what the search proved; the event feed on home;
the page in Russian and Urdu."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import Server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def play_first_board(page: Any) -> None:
    """Tap the first legal move until board 1 is over; no refusal on the way."""
    board = page.locator(".events-board[data-board='1']")
    board.wait_for()
    for _ in range(40):  # a board of two-player Court Piece is at most 13 tricks and a call
        if board.get_attribute("data-done") == "true":
            break
        hand = page.locator(".events-hand").inner_text()
        board.locator(".events-move").first.click()
        page.wait_for_function(
            "(hand) => document.querySelector('.events-board').dataset.done === 'true'"
            " || document.querySelector('.events-hand').textContent !== hand"
            " || !document.querySelector('.events-error').hidden", arg=hand)
        assert page.locator(".events-error").is_hidden(), page.locator(".events-error").inner_text()
    assert board.get_attribute("data-done") == "true"


def test_a_board_of_the_daily_event_played_on_a_phone(server: Server, new_page: Any) -> None:
    page = new_page("phone", server.base)
    page.context.add_init_script(WATCH)
    page.goto("/assets/events.html")
    page.locator(".events-daily-game[data-game='court-piece-2p']").click()
    event = page.locator(".events-event")
    event.locator("code").first.wait_for()
    commit = event.locator(".events-commit code").inner_text()
    assert len(commit) == 64
    event.locator(".events-enter").click()
    event.locator(".events-play").click()
    play_first_board(page)
    over = page.locator(".events-over")
    assert over.inner_text().startswith("Board 1 over: your side took ")
    assert page.locator(".events-next").inner_text() == "Board 2"
    # the field of the board, now that it is finished: this entrant at least
    page.locator(".events-field").click()
    page.locator(".events-results table tbody tr").first.wait_for()
    results = page.locator(".events-results")
    assert results.locator(".events-spread li").count() >= 1
    assert "entrant" in results.locator(".events-spread li").first.inner_text()
    assert results.locator(".events-first-trick").inner_text().startswith(
        "Most common first trick (the first card of each seat; ")
    assert results.locator(".events-line").inner_text().startswith(
        "Most common play of your seat, the whole board (")
    # the player's board against the best with every hand open (two-player Court Piece is
    # solved from the first card, by a worker process: the block says it is being computed
    # and asks again until it is kept)
    review = results.locator(".events-review[data-status='done']")
    review.wait_for()
    assert review.get_attribute("data-proven") == "true"
    best, yours = review.get_attribute("data-best"), review.get_attribute("data-yours")
    assert best is not None and best.isdigit() and yours is not None and yours.isdigit()
    said = review.locator(".events-best").inner_text()
    assert said.startswith("With every hand open and best play on both sides, your side "
                           f"could take {best} trick")
    assert f"It took {yours}." in said
    assert ("That is the best result." in said) == (int(yours) >= int(best))
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the phone's screen"
    assert page.evaluate("window.__csp") == [] and page.js_errors == []
    # and stepped through, move by move, on the review page: the board's record
    review.locator(".events-step").click()
    page.locator("[data-screen='review']").wait_for()
    # (a locator, not wait_for_function: the page's CSP refuses the eval that polls one)
    page.locator("[data-review-at], [data-review-error]").first.wait_for()
    assert page.locator("[data-review-error]").count() == 0
    assert page.locator("[data-screen='review'] [data-card]").count() > 0
    assert page.js_errors == []


def test_after_the_close_the_page_checks_every_deal_it_played(server: Server,
                                                              new_page: Any) -> None:
    page = new_page("phone", server.base)
    assert page.request.get("/api/me").ok  # the session this page's player is
    origin = {"Origin": server.base}
    now = time.time()
    made = page.request.post("/api/events", headers=origin, data={
        "game": "court-piece-2p", "boards": 1, "opens": now - 60, "closes": now + 3600})
    assert made.status == 201, made.text()
    eid = made.json()["id"]
    page.goto(f"/assets/events.html#{eid}")
    page.locator(".events-enter").click()
    page.locator(".events-play").click()
    play_first_board(page)
    assert page.locator(".events-check").count() == 0  # no secret yet: nothing to check
    assert page.request.post(f"/api/events/{eid}/close", headers=origin).ok
    page.reload()
    page.locator(".events-secret code").wait_for()
    page.locator(".events-check").click()
    line = page.locator(".events-checks li").first
    line.wait_for()
    assert line.inner_text() == "Board 1: fair: checked (the deck follows from the event's secret)"
    assert line.get_attribute("data-ok") == "true"

    def tamper(route: Any) -> None:
        rec = route.fetch().json()
        f = rec["deals"][0]["fair"]
        f["secret"] = ("0" if f["secret"][0] != "0" else "1") + f["secret"][1:]
        route.fulfill(json=rec)

    page.route("**/boards/1/record", tamper)
    page.locator(".events-check").click()
    warned = page.locator(".events-checks").nth(1).locator("li").first
    warned.wait_for()
    assert warned.get_attribute("data-ok") == "false"
    assert "warning" in warned.inner_text()
    assert page.js_errors == []


def test_a_goat_board_shows_the_search_at_work_then_only_what_it_proved(
        tmp_path: Path, new_page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Goat's best result from the first card is out of the solver's reach: the page shows
    the search at work (the server's first answer made "computing" here), asks again by
    itself, then the bounds the search proved, labelled not proven, and no "best"."""
    monkeypatch.setenv("TAASH_EVENT_BEST_TIME", "2")
    srv = Server(tmp_path / "goat.db", log=tmp_path / "server.log").start(timeout=120)
    try:
        page = new_page("phone", srv.base)
        page.context.add_init_script(WATCH)
        assert page.request.get("/api/me").ok  # the session this page's player is
        now = time.time()
        made = page.request.post("/api/events", headers={"Origin": srv.base}, data={
            "game": "goat", "boards": 1, "opens": now - 60, "closes": now + 3600})
        assert made.status == 201, made.text()
        eid = made.json()["id"]
        page.goto(f"/assets/events.html#{eid}")
        page.locator(".events-enter").click()
        page.locator(".events-play").click()
        play_first_board(page)
        asked: list[str] = []

        def first_computing(route: Any) -> None:
            body = route.fetch().json()
            if not asked:
                body.update(status="computing", best=None, proven=False, lower=None,
                            upper=None, solver=None, seconds=None, lost=None, budget=2.0,
                            elapsed=1.0, retry=1)
            asked.append(body["status"])
            route.fulfill(json=body)

        page.route("**/boards/1/review", first_computing)
        page.locator(".events-field").click()
        busy = page.locator(".events-review[data-status='computing'] .events-best")
        busy.wait_for()
        assert busy.inner_text().startswith(
            "The solver is working out the best result (1 s of at most 2 s)")
        done = page.locator(".events-review[data-status='done']")
        done.wait_for()
        assert len(asked) >= 2 and asked[-1] == "done"
        r = page.request.get(f"/api/events/{eid}/boards/1/review").json()
        said = done.locator(".events-best").inner_text()
        s = round(r["seconds"])
        if r["proven"]:  # settled in 2 s (never seen from Goat's first card)
            assert said.startswith("With every hand open and best play on both sides")
        elif r["lower"] == 0 and r["upper"] == r["most"]:  # nothing proven: said so
            assert said.startswith(f"Not settled: in {s} s the solver could prove nothing "
                                   "about this board's best result from the first card")
        else:
            assert said.startswith(f"Not proven best: in {s} s the solver ")
            if r["lower"] > 0:
                assert f"could force at least {r['lower']} card point" in said
            if r["upper"] < r["most"]:
                assert f"could not take more than {r['upper']}" in said
        assert done.get_attribute("data-best") == "null" or r["proven"]
        assert "That is the best result" not in said or r["proven"]
        assert f"It took {r['yours']}." in said
        assert page.evaluate("window.__csp") == [] and page.js_errors == []
    finally:
        srv.stop()


def test_the_feed_on_home_counts_todays_entrants(server: Server, new_page: Any) -> None:
    """Home lists today's event of each game with its entrants (asked after the screen is
    up); an entry counts at once, and a line opens its event."""
    page = new_page("phone", server.base)
    page.goto("/")
    line = page.locator("[data-section='event-feed'] li[data-event^='daily-goat-']")
    line.wait_for()
    before = int(line.get_attribute("data-entrants") or "0")
    text = line.inner_text()
    assert text.startswith("Today's Goat duplicate: ")
    if before == 0:
        assert text == "Today's Goat duplicate: be the first to play"
    origin = {"Origin": server.base}
    eid = page.request.get("/api/events/daily/goat").json()["id"]
    assert page.request.post(f"/api/events/{eid}/entry", headers=origin).status == 201
    page.reload()
    line.wait_for()
    n = before + 1
    assert line.get_attribute("data-entrants") == str(n)
    assert line.locator("a").inner_text() == \
        f"Today's Goat duplicate: {n} entrant{'s' if n != 1 else ''}"
    assert line.locator(".badge").inner_text() == "entered"
    assert all(e["entrants"] >= 0 for e in page.request.get("/api/events/today").json())
    line.locator("a").click()
    page.locator(f".events-event[data-event='{eid}'] .events-play").wait_for()
    assert page.url.endswith(f"/assets/events.html#{eid}")
    assert page.js_errors == []


@pytest.mark.parametrize(("lang", "heading", "daily", "direction"), [
    ("ru", "Дубликатные турниры", "Сегодня: Козёл", "ltr"),
    ("ur", "ڈپلیکیٹ ایونٹ", "آج کا بکرا", "rtl"),
])
def test_the_page_speaks_the_players_language(server: Server, new_page: Any, lang: str,
                                              heading: str, daily: str,
                                              direction: str) -> None:
    page = new_page("phone", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.goto("/assets/events.html")
    button = page.locator(".events-daily-game[data-game='goat']")
    button.wait_for()
    assert button.inner_text() == daily
    assert page.locator("h1").inner_text() == heading
    assert page.evaluate("document.documentElement.dir") == direction
    button.click()
    page.locator(".events-event .events-commit code").wait_for()
    text = page.locator("main").inner_text()
    # every word of the page in the language: no key, and none of the English left
    assert "ev_" not in text and "Commitment" not in text and "Today's" not in text
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the phone's screen"
    assert page.js_errors == []
