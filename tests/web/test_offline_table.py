"""Offline tables (issue 46): /offline/<game> opens the table view every online table uses, with
the engine in a Web Worker (Pyodide running taash's own core and bots) in place of the server.
On a phone-sized page a whole short match of each game is played by touch to its summary, a
card the rules refuse is refused with its rule id, the match's record kept in IndexedDB
verifies with `taash.record.verify`, and the finished record is uploaded to the player's
history once (POST /api/me/records, answered here by the test as the contract says)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from taash.record import verify
from tests.waiting import wait_until
from tests.web.helpers import attr, press, tap_card, through, version
from tests.web.helpers import play_to_end as play_all
from tests.web.test_offline_engine import offline_files

pytestmark = [pytest.mark.browser, pytest.mark.slow]
__all__ = ["offline_files"]  # the module's fixture: Pyodide and taash.zip in place

# matches of two deals or more (Goat: a game gives at most 6 defeat points): a deal's
# summary between them, the match's at the end
SHORT = {"court-piece": 'session_end={"deals":2}', "court-piece-2p": "target=2",
         "goat": "target=7"}
KEPT = """() => new Promise((resolve, reject) => {
  const req = indexedDB.open('taash-offline');
  req.onerror = () => reject(req.error);
  req.onsuccess = () => {
    const db = req.result;
    const get = db.transaction('records').objectStore('records').getAll();
    get.onsuccess = () => { db.close(); resolve(get.result); };
    get.onerror = () => reject(get.error);
  };
})"""
RULE_ID = re.compile(r"\((CP|TW|GT)-\d+\)")


def open_offline(page: Any, path: str | None) -> None:
    """Open an offline table at `path` (None: one the page is already going to)."""
    if path is not None:
        page.goto(path)
    # Pyodide starts in the worker first: the first view comes once it has, or the reason why
    # it could not
    page.locator("main.table[data-version], main.table [data-error]").first.wait_for(
        timeout=240_000)
    error = page.locator("main.table [data-error]")
    assert not error.count(), error.inner_text()


def hint_once(page: Any, hinted: list[str]) -> None:
    """On the player's first turn in play, the hint (the easy bot's move, from the engine):
    a toast, and its card marked in the hand."""
    if hinted or attr(page, "data-phase") != "play":
        return
    press(page, "[data-action='hint']")
    hinted.append(page.locator("[data-toast='hint']").last.inner_text())
    if attr(page, "data-game") == "goat":  # a hint selects its cards: let them go
        for code in page.locator("[data-hand] .card.selected").evaluate_all(
                "(cs) => cs.map((c) => c.dataset.card)"):
            tap_card(page, code)
        page.wait_for_function("() => !document.querySelector('[data-hand] .card.selected')")
    else:
        assert page.locator("[data-hand] .card.hinted").count() == 1


def refuse_once(page: Any, said: list[str]) -> None:
    """On the player's turn in play, once: a card the rules do not allow now is tried by touch
    (Goat: a card with the verb its selection may not take); the toast says why, with the
    rule's id, and nothing is played."""
    if said or attr(page, "data-phase") != "play":
        return
    before = version(page)
    if attr(page, "data-game") == "goat":
        card = page.locator("[data-hand] [data-card]").first.get_attribute("data-card")
        tap_card(page, card)
        verb = page.locator("[data-action='lead'][aria-disabled='true'],"
                            " [data-action='beat'][aria-disabled='true']")
        if not verb.count():
            tap_card(page, card)
            return
        press(page, "[data-action='lead'][aria-disabled='true'],"
                    " [data-action='beat'][aria-disabled='true']", force=True)
    else:
        bad = page.locator("[data-hand] [data-card][data-playable='false']")
        if not bad.count():
            return
        tap_card(page, bad.first.get_attribute("data-card"))
    toast = page.locator("[data-toast='error']").last
    toast.wait_for()
    said.append(toast.inner_text())
    assert version(page) == before
    if attr(page, "data-game") == "goat":  # the selection let go: the turn as it was
        tap_card(page, card)
        page.wait_for_function("() => !document.querySelector('[data-hand] .card.selected')")


@pytest.mark.parametrize("game", list(SHORT))
def test_a_whole_offline_match_by_touch_is_kept_and_uploaded_once(
        new_page: Any, server: Any, offline_files: None, game: str) -> None:
    page = new_page("phone", server.base)
    posted: list[dict[str, Any]] = []

    def records(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        posted.append(body)
        if body["record"].get("tampered"):
            route.fulfill(status=400, content_type="application/json", body=json.dumps(
                {"error": {"code": "record_refused", "message": "deal 1: not fair", "exit": 3}}))
            return
        route.fulfill(status=201, content_type="application/json", body=json.dumps(
            {"id": f"h{len(posted)}", "game": game, "offline": True, "rated": False,
             "summary": {}}))

    page.route("**/api/me/records", records)
    tables: list[str] = []
    page.on("request", lambda r: tables.append(r.url) if "/api/tables" in r.url else None)
    open_offline(page, f"/offline/{game}?{SHORT[game]}&bots=random&seed=11")
    assert attr(page, "data-game") == game
    assert attr(page, "data-seat") == "0"

    said: list[str] = []
    hinted: list[str] = []

    def on_turn(p: Any) -> None:
        hint_once(p, hinted)
        refuse_once(p, said)

    play_all([page], timeout=240, on_turn=on_turn)
    assert hinted and "Hint" in hinted[0], hinted
    page.locator("dialog[data-dialog='match-summary']").wait_for()
    assert said and RULE_ID.search(said[0]), said

    # the record kept in IndexedDB is the finished match, and it verifies
    kept = wait_until(through(page, lambda: [e for e in page.evaluate(KEPT) if e["over"]]),
                      what="the finished record in IndexedDB")
    assert len(kept) == 1 and kept[0]["game"] == game and kept[0]["seat"] == 0
    summary = verify(json.dumps(kept[0]["record"]))
    assert summary["match"]["over"] is True
    assert summary["game"] == game
    # every deal but the last showed its summary on the way (the last is the match's)
    assert len(summary["deals"]) >= 2
    assert getattr(page, "deal_summaries", 0) == len(summary["deals"]) - 1

    # uploaded once, marked so: opened again, the page sends it no more
    wait_until(through(page, lambda: page.evaluate(KEPT)[0].get("uploaded")),
               what="the record marked uploaded")
    assert [p["seat"] for p in posted] == [0]
    assert posted[0]["record"] == kept[0]["record"]
    assert page.evaluate(KEPT)[0]["uploaded"]["id"] == "h1"
    # a record the server refuses keeps its reason and is not sent again
    page.evaluate("""async (rec) => {
      const m = await import('/assets/offline_records.js');
      await m.keepRecord({ key: 'bad', game: rec.game, seat: 0, bots: 'random', created: 1,
        updated: 1, over: true, deals: 1, record: { ...rec, tampered: true } });
      await m.uploadRecords();
      await m.uploadRecords();
    }""", kept[0]["record"])
    bad = next(e for e in page.evaluate(KEPT) if e["key"] == "bad")
    assert bad["refused"]["message"] == "deal 1: not fair" and not bad.get("uploaded")
    assert len(posted) == 2
    assert not tables, tables  # the server's tables were never asked

    # /offline lists both, marked offline, each in its state; Export downloads the record
    page.goto("/offline")
    page.locator("[data-list='offline'] li").nth(1).wait_for()
    states = page.locator("[data-offline-record]").evaluate_all(
        "(ls) => ls.map((l) => [l.dataset.offlineRecord, l.dataset.state, l.dataset.offline])")
    assert states == [[kept[0]["key"], "uploaded", "true"], ["bad", "refused", "true"]]
    assert "deal 1: not fair" in page.locator("[data-offline-record='bad']").inner_text()
    with page.expect_download() as got:
        press(page, f"[data-offline-record='{kept[0]['key']}'] [data-action='export-record']")
    path = got.value.path()
    assert got.value.suggested_filename.startswith(f"taash-{game}-")
    assert verify(Path(path).read_text(encoding="utf-8")) == summary
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize(("path", "said"), [
    ("/offline/goat?bots=wild", 'bots: one of random, easy, hard, not "wild"'),
    ("/offline/nope", "unknown game 'nope'"),
    ("/offline/goat?target=abc", "option target: must be an integer of at least 1"),
    ("/offline/court-piece?seed=-4", "seed: a whole number 0 or more, not -4"),
], ids=["bots", "game", "option", "seed"])
def test_an_address_the_rules_refuse_says_why(
        new_page: Any, server: Any, offline_files: None, path: str, said: str) -> None:
    page = new_page("phone", server.base)
    page.goto(path)
    error = page.locator("main.table [data-error='offline']")
    error.wait_for(timeout=240_000)
    assert said in error.inner_text()
    assert page.locator("main.table[data-version]").count() == 0  # nothing dealt
    assert not page.js_errors, page.js_errors


def test_made_available_offline_every_game_plays_with_no_connection_and_goes_home(
        new_page: Any, server: Any, offline_files: None) -> None:
    """Issue 46's check: the page made available offline (the home screen's control), the
    context offline, the page reloaded: a whole short match of each game is played by touch to
    its summary; home, still offline, lists them as kept on this device; back online, the page
    sends them to the server by itself, which checks them and adds them to the player's
    history, offline and unrated."""
    page = new_page("phone", server.base, sw=True)
    page.goto("/")
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)
    me = page.evaluate("async () => (await (await fetch('/api/me')).json()).id")
    home = "[data-offline='home']"
    page.wait_for_selector(f"{home}[data-offline-state='none']")
    press(page, f"{home} [data-action='offline-make']")
    page.locator(f"{home} [data-offline-size]").wait_for()
    press(page, f"{home} [data-action='offline-start']")
    page.wait_for_selector(f"{home}[data-offline-state='ready']", timeout=120_000)

    page.context.set_offline(True)
    page.reload()
    for game in SHORT:
        open_offline(page, f"/offline/{game}?{SHORT[game]}&bots=random&seed=7")
        assert attr(page, "data-game") == game
        play_all([page], timeout=240)
        page.locator("dialog[data-dialog='match-summary']").wait_for()
    def finished() -> list[dict[str, Any]] | None:
        over = [e for e in page.evaluate(KEPT) if e["over"]]
        return over if len(over) == len(SHORT) else None

    done = wait_until(through(page, finished), what="three finished records in IndexedDB")
    assert sorted(e["game"] for e in done) == sorted(SHORT)
    assert not any(e.get("uploaded") for e in done)  # nowhere to send them yet
    # home, offline, is the no-connection screen: it offers offline play, whose screen lists
    # the matches as kept on this device
    page.goto("/")
    press(page, "[data-action='play-offline']")
    for e in done:
        kept = page.locator(f"[data-offline-record='{e['key']}']")
        kept.wait_for()
        assert kept.get_attribute("data-state") == "kept"
    # and, with no connection, it offers each game's options (the games kept with the files)
    press(page, "[data-game-choice='goat']")
    page.locator("[data-offline-options] [data-option='eggs']").wait_for()

    page.context.set_offline(False)  # the connection back: the page sends them by itself
    wait_until(through(page, lambda: len([e for e in page.evaluate(KEPT)
                                          if e.get("uploaded")]) == 3),
               timeout=60, what="the three records sent home")
    history = page.evaluate(
        "async (me) => (await (await fetch(`/api/players/${me}/history`)).json()).matches", me)
    offline = [m for m in history if m.get("offline")]
    assert sorted(m["game"] for m in offline) == sorted(SHORT)
    assert all(m["rated"] is False for m in offline)
    assert not page.js_errors, page.js_errors


def test_your_own_profile_lists_the_offline_matches_and_marks_those_sent_home(
        new_page: Any, server: Any) -> None:
    """The player's own profile has the matches kept on this device; an entry of the server's
    history that came from offline play says so, and has no table to open."""
    page = new_page("phone", server.base)
    page.goto("/")
    me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    page.evaluate("""async () => {
      const m = await import('/assets/offline_records.js');
      await m.keepRecord({ key: 'k1', game: 'goat', seat: 0, bots: 'easy', created: 2,
        updated: 2, over: false, deals: 1, record: { format: 'taash-record/1' } });
    }""")
    entry = {"table": "off1", "game": "goat", "date": "2026-12-06T10:00:00Z", "result": "won",
             "opponents": [{"type": "bot", "level": "easy", "name": None}] * 3,
             "record": "/api/me/records/off1", "ended": 1, "offline": True, "rated": False}

    def history(route: Any) -> None:
        res = route.fetch()
        body = res.json()
        body["matches"] = [entry, *body["matches"]]
        route.fulfill(response=res, json=body)

    page.route(f"**/api/players/{me['id']}/history**", history)
    page.goto(f"/p/{me['id']}")
    kept = page.locator("[data-section='offline'] [data-offline-record='k1']")
    kept.wait_for()
    assert kept.get_attribute("data-state") == "unfinished"
    line = page.locator("[data-list='history'] [data-match='off1']")
    assert line.locator("[data-offline='true']").count() == 1
    assert line.locator("[data-action='review']").count() == 0
    assert not page.js_errors, page.js_errors


def fits_the_phone(page: Any) -> None:
    wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"/offline is {wide}px wider than the phone's screen"


def table_options(page: Any) -> str:
    """The options the table plays by, as its menu says them (the menu closed again)."""
    press(page, "main.table [data-action='menu']")
    said = page.locator("dialog[data-dialog='menu'] [data-table-options]").inner_text()
    press(page, "dialog[data-dialog='menu'] [data-action='close']")
    page.locator("dialog[data-dialog='menu']").wait_for(state="detached")
    return str(said)


def test_the_offline_screen_offers_each_games_options_and_the_table_plays_with_them(
        new_page: Any, server: Any, offline_files: None) -> None:
    """Issue 46's "starts any of the three games, with its options": /offline has the online
    new table's game picker and option controls; Court Piece with double sar, the ace rule, the
    most-held trump rule and a two-deal session opens a table that plays with them (its title
    and chips say so, the record kept in IndexedDB has them); the choices are there again on
    coming back; Goat with eggs "double-next" likewise.  The table's menu names its options.
    All on a phone, nothing wider."""
    page = new_page("phone", server.base)
    page.goto("/offline")
    press(page, "[data-game-choice='court-piece']")
    ace = page.locator("[data-offline-options] [data-option='ace_rule']")
    assert ace.is_disabled()  # the ace rule counts only with double sar (CP-8), as online
    page.select_option("[data-option='sar']", "double")
    assert ace.is_enabled()
    press(page, "[data-offline-options] label:has([data-option='ace_rule'])")
    page.select_option("[data-option='trump_rule']", "most-held")
    page.select_option("[data-option='session_end']", "deals")
    page.fill("[data-option='session_n']", "2")
    page.locator("[data-option='session_n']").dispatch_event("change")
    page.select_option("[data-field='offline-bots']", "random")
    fits_the_phone(page)
    press(page, "[data-action='start-offline']")
    open_offline(page, None)
    chosen = {"sar": "double", "ace_rule": True, "trump_rule": "most-held",
              "session_end": {"deals": 2}}
    assert re.search(r"/offline/court-piece\?bots=random&", page.url), page.url
    assert attr(page, "data-game") == "court-piece"
    page.locator("[data-score='pile']").wait_for()  # double sar's pile
    assert "Deal 1 of 2" in page.locator("main.table .title small").inner_text()
    kept = wait_until(through(page, lambda: page.evaluate(KEPT)), what="the kept record")
    assert kept[0]["record"]["options"] == chosen, kept[0]["record"]["options"]
    assert table_options(page) == ("Sar: Double sar · Ace rule (double sar) · "
                                   "Trump call: Most-held suit · Number of deals: 2")
    fits_the_phone(page)

    # back on /offline: the game and its options as they were chosen
    page.goto("/offline")
    page.locator("[data-game-choice='court-piece'].chosen").wait_for()
    assert page.locator("[data-option='sar']").input_value() == "double"
    assert page.locator("[data-option='ace_rule']").is_checked()
    assert page.locator("[data-option='session_n']").input_value() == "2"
    assert page.locator("[data-field='offline-bots']").input_value() == "random"

    press(page, "[data-game-choice='goat']")
    page.select_option("[data-offline-options] [data-option='eggs']", "double-next")
    page.fill("[data-option='target']", "7")
    fits_the_phone(page)
    press(page, "[data-action='start-offline']")
    open_offline(page, None)
    assert attr(page, "data-game") == "goat"
    assert "7" in page.locator("main.table .title small").inner_text()
    goat = wait_until(through(page, lambda: [e for e in page.evaluate(KEPT)
                                             if e["game"] == "goat"]), what="Goat's kept record")
    assert goat[0]["record"]["options"] == {"eggs": "double-next", "target": 7}
    assert table_options(page) == ("Eggs (60\u201360): Next game counts double"
                                   " · Defeat points to lose: 7")
    fits_the_phone(page)
    assert not page.js_errors, page.js_errors
