"""At the table (issue 27): the score sheet of every deal during the match, the notice of a
rematch another seat asked for, the "while you were away" recap of a play-anytime table, the
tap-to-lift and forced-card options, and quick chat, each checked in Chromium at phone size."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.helpers import Server, actions_sent, call, create_table, serve_fixed, through

pytestmark = [pytest.mark.browser, pytest.mark.slow]

OVERLAP = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll('main.table button, main.table .status')) {
    if (el.closest(sel) || el.matches(sel)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom) {
      out.push(el.dataset.action || el.dataset.card || el.className);
    }
  }
  return out;
}"""


def played(game: str, deals: int, seed: int = 3) -> Any:
    """A seeded match of `game` played at random until `deals` deals are over (the next one
    dealt and under way), or the match is."""
    from taash.games import new_match

    m = new_match(game, {"court-piece": {"session_end": {"deals": 50}},
                         "court-piece-2p": {"target": 60}, "goat": {"target": 60}}[game],
                  seed=seed)
    rng = random.Random(seed)
    while not m.is_over():
        if m.needs_deal():
            m.deal_from(rng)
        if len([d for d in m.summary()["deals"] if d["complete"]]) >= deals:
            break
        m.apply(m.to_move, rng.choice(m.legal_actions(m.to_move)))
    return m


SHEET = "dialog[data-dialog='score-sheet']"


# -- 1. the score sheet --------------------------------------------------------------------
@pytest.mark.parametrize("game", ["court-piece", "court-piece-2p", "goat"])
def test_the_score_sheet_lists_every_deal_with_the_running_score(new_page: Any, server: Server,
                                                                 game: str) -> None:
    m = played(game, 3)
    view = m.view(0)
    done = [d for d in view["deals"] if d["complete"]]
    assert len(done) == 3
    page = new_page("phone", server.base)
    serve_fixed(page, game, view, [])
    page.goto("/t/f?seat=0&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    btn = page.locator("[data-action='scores']")
    box = btn.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    assert page.evaluate(OVERLAP, "[data-action='scores']") == []
    btn.tap()
    sheet = page.locator(SHEET)
    sheet.wait_for()
    rows = sheet.locator("table[data-sheet] tr")
    assert rows.count() == 1 + 3  # the headings and a row a deal
    last = [rows.nth(3).locator("th, td").nth(i).inner_text() for i in range(
        rows.nth(3).locator("th, td").count())]
    mt = view["match"]
    pair = lambda x: f"{x[0]} \u2013 {x[1]}"  # noqa: E731  (an en dash; seat 0 is on side 0)
    # the running score after the third deal is the match's score now
    if game == "court-piece":
        assert last[-2:] == [pair(mt["deals_won"]), pair(mt["coats"])], last
        assert last[2] == pair(done[2]["tricks"])
    elif game == "court-piece-2p":
        assert last[-2:] == [pair(done[2]["scored"]), pair(mt["points"])], last
    else:
        assert last[-2:] == [pair(done[2]["defeat"]), pair(mt["defeat"])], last
    assert sheet.locator("[data-sheet-playing]").count() == 1  # the fourth deal, under way
    # the sheet fits the phone's width (it scrolls inside if it must, the page never does)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.locator(f"{SHEET} [data-action='close']").tap()
    # the menu reaches it too
    page.locator("[data-action='menu']").tap()
    page.locator("[data-action='menu-scores']").tap()
    sheet.wait_for()
    assert page.locator("dialog[data-dialog='menu']").count() == 0
    assert page.js_errors == []


def test_the_score_sheet_before_any_deal_is_over(new_page: Any, server: Server) -> None:
    m = played("court-piece-2p", 0)
    page = new_page("phone", server.base)
    serve_fixed(page, "court-piece-2p", m.view(0), [])
    page.goto("/t/f?seat=0&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    page.locator("[data-action='scores']").tap()
    page.locator(f"{SHEET} [data-sheet-empty]").wait_for()
    assert page.locator(f"{SHEET} table").count() == 0
    assert page.js_errors == []


# -- 2. the rematch notice -----------------------------------------------------------------
def finish_by_api(base: str, tid: str, tokens: list[str]) -> None:
    """Play a table of human seats to its end through the API (each seat its first legal
    action)."""
    for _ in range(400):
        pub = call(base, "GET", f"/api/tables/{tid}")
        if pub["table"]["over"]:
            return
        seat = pub["table"]["to_move"]
        v = call(base, "GET", f"/api/tables/{tid}/view", token=tokens[seat])
        call(base, "POST", f"/api/tables/{tid}/actions",
             {"action": v["legal_actions"][0], "version": v["version"]}, tokens[seat])
    raise AssertionError("the match did not end")


def test_a_rematch_asked_by_another_seat_is_announced_with_a_join_button(
        new_page: Any, server: Server) -> None:
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}, {"type": "human"}],
                     options={"target": 1})
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    finish_by_api(server.base, tid, tokens)
    page = new_page("phone", server.base)
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    page.wait_for_selector("main.table[data-over='true']")
    assert page.locator("[data-rematch-notice]").count() == 0  # nobody asked yet
    page.locator("[data-action='summary']").tap()  # the match's summary open, as at its end
    page.locator("dialog[data-dialog='match-summary']").wait_for()
    r = call(server.base, "POST", f"/api/tables/{tid}/rematch", token=tokens[1])
    # said at once (a table message), at the top of the open summary and in the message row
    notice = page.locator(f"dialog[data-dialog='match-summary'] [data-rematch-notice='{r['id']}']")
    notice.wait_for()
    assert "rematch" in notice.inner_text().lower()
    page.locator("dialog[data-dialog='match-summary'] [data-action='close']").tap()
    row = page.locator(f"[data-notices] [data-rematch-notice='{r['id']}']")
    row.wait_for()
    assert page.evaluate(OVERLAP, "[data-notices] [data-rematch-notice]") == []
    row.locator("[data-action='rematch-join']").tap()
    page.wait_for_url(f"**/t/{r['id']}?seat=0")
    page.wait_for_selector(f"main.table[data-table='{r['id']}'][data-version]")
    assert page.js_errors == []


def test_the_rematch_notice_in_russian_and_dismissed(new_page: Any, server: Server) -> None:
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}, {"type": "human"}],
                     options={"target": 1})
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    finish_by_api(server.base, tid, tokens)
    call(server.base, "POST", f"/api/tables/{tid}/rematch", token=tokens[1])
    page = new_page("phone", server.base)
    page.add_init_script("localStorage.setItem('taash.lang', 'ru')")
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    row = page.locator("[data-notices] [data-rematch-notice]")
    row.wait_for()
    assert "реванш" in row.inner_text()
    row.locator("[data-action='rematch-dismiss']").tap()
    row.wait_for(state="detached")
    assert page.js_errors == []


# -- 3. while you were away ----------------------------------------------------------------
def test_a_play_anytime_table_recaps_the_moves_since_your_last(new_page: Any,
                                                                 server: Server) -> None:
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}, {"type": "human"}],
                     options={"target": 3}, first_seat=0, live=False)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]

    def move(seat: int, n: int = 1) -> list[str]:
        done = []
        for _ in range(n):
            v = call(server.base, "GET", f"/api/tables/{tid}/view", token=tokens[seat])
            assert v["to_move"] == seat
            a = v["legal_actions"][0]
            call(server.base, "POST", f"/api/tables/{tid}/actions",
                 {"action": a, "id": f"c{seat}-{v['version']}", "version": v["version"]},
                 tokens[seat])
            done.append(a)
        return done

    def turn() -> int:
        return int(call(server.base, "GET", f"/api/tables/{tid}")["table"]["to_move"])

    def tricks(away: Any) -> int:
        return sum(e["type"] == "trick" for m in away["moves"] for e in m["events"])

    move(0, 2)  # seat 0 calls trump and leads
    theirs: list[str] = []
    # seat 0 plays its turns, then seat 1 its own (seat 0 away), until seat 1 has completed
    # a trick while seat 0 was away
    for _ in range(10):
        while turn() == 0:
            move(0)
        theirs = []
        while turn() == 1 and len(theirs) < 3:
            theirs += move(1)
        away = call(server.base, "GET", f"/api/tables/{tid}/away", token=tokens[0])
        if tricks(away):
            break
    assert [m["seat"] for m in away["moves"]] == [1] * len(theirs) and tricks(away)
    page = new_page("phone", server.base)
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    dlg = page.locator("dialog[data-dialog='away']")
    dlg.wait_for()
    rows = dlg.locator(".away-move")
    assert rows.count() == len(theirs)
    for i, a in enumerate(theirs):
        assert rows.nth(i).get_attribute("data-seat") == "1"
        assert rows.nth(i).locator(f"[data-card='{a.split(':')[1]}']").count() == 1
    assert dlg.locator(".away-trick").count() == tricks(away)  # who won each trick
    assert "while you were away" in dlg.inner_text().lower()
    box = dlg.bounding_box()
    assert box["width"] <= 390 and box["height"] <= 844
    dlg.locator("[data-action='close']").tap()
    # seat 1, whose last move was the latest, gets no recap
    other = new_page("phone", server.base)
    with other.expect_response(lambda r: "/away" in r.url) as got:
        other.goto(f"/t/{tid}?seat=1&token={tokens[1]}")
    assert got.value.json()["moves"] == []
    other.wait_for_selector("main.table[data-version]")
    assert other.locator("dialog[data-dialog='away']").count() == 0
    assert page.js_errors == [] and other.js_errors == []


def test_a_live_table_shows_no_recap(new_page: Any, server: Server) -> None:
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}, {"type": "human"}],
                     options={"target": 3}, first_seat=1)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    v = call(server.base, "GET", f"/api/tables/{tid}/view", token=tokens[1])
    call(server.base, "POST", f"/api/tables/{tid}/actions", {"action": v["legal_actions"][0]},
         tokens[1])
    page = new_page("phone", server.base)
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    page.wait_for_selector("main.table[data-version='1']")
    assert not any("/away" in u for u in seen)
    assert page.locator("dialog[data-dialog='away']").count() == 0


# -- 4. tap to lift, and a forced card played for you --------------------------------------
def set_option(page: Any, name: str, on: bool) -> None:
    """Turn a play option on or off in the table's menu."""
    page.locator("[data-action='menu']").tap()
    box = page.locator(f"dialog[data-dialog='menu'] input[data-option='{name}']")
    if box.is_checked() != on:
        box.tap()
    assert box.is_checked() == on
    page.locator("dialog[data-dialog='menu'] [data-action='close']").tap()


def test_tap_to_lift_then_tap_again_to_play(new_page: Any, server: Server) -> None:
    from tests.web.helpers import tap_card
    from tests.web.test_web import two_player_friends

    tid, tokens = two_player_friends(server)
    page = new_page("phone", server.base)
    posts = actions_sent(page)
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    page.wait_for_selector("main.table[data-version='2'][data-your-turn='true']")
    set_option(page, "lift", True)
    assert page.evaluate("() => localStorage.getItem('taash.lift')") == "on"
    playable = page.locator("[data-hand] [data-card][data-playable='true']")
    assert playable.count() >= 2
    a, b = playable.nth(0).get_attribute("data-card"), playable.nth(1).get_attribute("data-card")
    tap_card(page, a)
    page.wait_for_selector(f"[data-hand] [data-card='{a}'].lifted")
    tap_card(page, b)  # another card: that one is lifted instead
    page.wait_for_selector(f"[data-hand] [data-card='{b}'].lifted")
    assert page.locator("[data-hand] .card.lifted").count() == 1
    assert posts == [] and page.locator("main.table").get_attribute("data-version") == "2"
    tap_card(page, b)  # again: played
    page.wait_for_selector("main.table[data-version='3']")
    assert page.locator(f"[data-hand] [data-card='{b}']").count() == 0 and len(posts) == 1
    # remembered on this device: the menu shows it on after a reload
    page.reload()
    page.wait_for_selector("main.table[data-version='3']")
    page.locator("[data-action='menu']").tap()
    assert page.locator("dialog[data-dialog='menu'] input[data-option='lift']").is_checked()
    assert page.js_errors == []


def serve_one(page: Any, m: Any, seat: int, posted: list[Any]) -> None:
    """The fixed table "f" at seat's view, its invite not claimed (a server without claims:
    the page keeps the token, and its posts go to /actions, refused)."""
    import json

    serve_fixed(page, "court-piece-2p", m.view(seat), posted)
    page.route("**/api/tables/f/claim", lambda r: r.fulfill(
        status=404, content_type="application/json", body=json.dumps(
            {"error": {"code": "not_found", "rule": None, "message": "Not Found"}})))


def one_legal_card() -> tuple[Any, int]:
    from tests.web.helpers import state_where

    return state_where("court-piece-2p", lambda m, s: m.phase == 1 and len(
        m.legal_actions(s)) == 1 and len(m.view(s)["hand"]) > 1)


def test_a_forced_card_is_played_for_you_after_a_visible_delay(new_page: Any,
                                                                 server: Server) -> None:
    m, seat = one_legal_card()
    only = m.view(seat)["legal_actions"][0]
    posted: list[Any] = []
    page = new_page("phone", server.base)
    page.add_init_script("localStorage.setItem('taash.forced_ms', '400')")
    serve_one(page, m, seat, posted)
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-your-turn='true']")
    assert page.locator("[data-forced]").count() == 0 and posted == []  # off by default
    set_option(page, "auto-forced", True)
    notice = page.locator(f"[data-notices] [data-forced='{only}']")
    notice.wait_for()
    assert page.evaluate(OVERLAP, "[data-notices] [data-forced]") == []
    page.wait_for_function("() => !document.querySelector('[data-forced]')")
    wait_until(through(page, lambda: posted), timeout=10, what="the forced card posted")
    page.locator("[data-toast='error']").wait_for()  # the test's refusal, shown
    page.wait_for_timeout(600)  # past another delay: the refused move is not made again
    assert [p["action"] for p in posted] == [only]
    assert page.js_errors == []


def test_a_forced_card_may_be_cancelled(new_page: Any, server: Server) -> None:
    m, seat = one_legal_card()
    posted: list[Any] = []
    page = new_page("phone", server.base)
    page.add_init_script("""localStorage.setItem('taash.forced_ms', '1500');
        localStorage.setItem('taash.auto_forced', 'on')""")
    serve_one(page, m, seat, posted)
    page.goto(f"/t/f?seat={seat}&token=x")
    page.locator("[data-notices] [data-forced] [data-action='forced-cancel']").tap()
    page.wait_for_function("() => !document.querySelector('[data-forced]')")
    page.wait_for_timeout(1800)  # past the delay: nothing was played
    assert posted == [] and page.locator("[data-forced]").count() == 0
    assert page.js_errors == []


# -- 5. quick chat -------------------------------------------------------------------------
def chat_pair(new_page: Any, server: Server, lang: str = "en", one_player: bool = False,
              **extra: Any) -> tuple[str, Any, Any, list[str]]:
    """A two-player table of two humans, each seat's page open (seat 1's in `lang`), and the
    chat frames seat 1's page received. ``one_player``: both pages are one browser's (one
    player at both seats: a table that is not rated)."""
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}, {"type": "human"}],
                     options={"target": 3}, **extra)
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    a = new_page("phone", server.base)
    if one_player:
        b = a.context.new_page()
        b.js_errors = []
        b.on("pageerror", lambda e: b.js_errors.append(str(e)))
    else:
        b = new_page("phone", server.base)
    frames: list[str] = []
    b.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)
                                       if isinstance(f, str) and '"chat"' in f else None))
    b.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    a.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    b.goto(f"/t/{tid}?seat=1&token={tokens[1]}")
    for p in (a, b):
        p.wait_for_selector("main.table[data-version]")
        p.wait_for_function("() => !document.querySelector('.conn:not([hidden])')")
    return tid, a, b, frames


@pytest.mark.parametrize("lang", ["en", "ur", "hi", "ru"])
def test_a_phrase_shows_as_a_bubble_at_the_seat_in_the_readers_language(
        new_page: Any, server: Server, lang: str) -> None:
    import json

    from tests.web.helpers import ROOT

    words = json.loads((ROOT / "src" / "taash" / "web" / "i18n" / f"{lang}.json").read_text(
        encoding="utf-8"))
    _tid, a, b, _frames = chat_pair(new_page, server, lang)
    a.locator("[data-action='chat']").tap()
    a.locator("dialog[data-dialog='chat'] [data-phrase='well_played']").tap()
    bubble = b.locator(".felt .bubble[data-bubble='0']")
    bubble.wait_for()
    assert bubble.inner_text() == words["chat_well_played"]
    assert "at-top" in (bubble.get_attribute("class") or "")  # seat 0 sits across from seat 1
    # over the felt, taking no tap from what lies under it
    assert bubble.evaluate("(el) => getComputedStyle(el).pointerEvents") == "none"
    mine = a.locator(".felt .bubble[data-bubble='0']")
    mine.wait_for()
    assert "at-bottom" in (mine.get_attribute("class") or "")
    assert a.js_errors == [] and b.js_errors == []


def test_a_bubble_goes_after_a_few_seconds_and_a_muted_seat_is_not_shown(
        new_page: Any, server: Server) -> None:
    _tid, a, b, frames = chat_pair(new_page, server)
    b.evaluate("() => localStorage.setItem('taash.chat_ms', '600')")
    a.locator("[data-action='chat']").tap()
    a.locator("dialog[data-dialog='chat'] [data-emoji='🎉']").tap()
    bubble = b.locator(".felt .bubble[data-bubble='0']")
    bubble.wait_for()
    assert bubble.inner_text() == "🎉"
    bubble.wait_for(state="detached")
    # seat 1 mutes seat 0 (remembered on the device): its next message is not shown
    b.locator("[data-action='chat']").tap()
    b.locator("dialog[data-dialog='chat'] input[data-mute='0']").tap()
    b.locator("dialog[data-dialog='chat'] [data-action='close']").tap()
    seen = len(frames)
    a.locator("[data-action='chat']").tap()
    a.locator("dialog[data-dialog='chat'] [data-emoji='👍']").tap()
    wait_until(through(b, lambda: len(frames) > seen), timeout=10,
               what="the message at seat 1's page")
    assert len(frames) > seen
    b.evaluate("() => new Promise((r) => setTimeout(r, 0))")  # its handler has run
    assert b.locator(".felt .bubble").count() == 0
    assert b.evaluate("(k) => localStorage.getItem(k)", f"taash.chat_mute.{_tid}") == "[0]"
    assert a.js_errors == [] and b.js_errors == []


def test_free_text_only_where_the_creator_allowed_it(new_page: Any, server: Server) -> None:
    _tid, a, b, _frames = chat_pair(new_page, server)
    a.locator("[data-action='chat']").tap()
    assert a.locator("dialog[data-dialog='chat'] [data-field='chat-text']").count() == 0
    a.locator("dialog[data-dialog='chat'] [data-action='close']").tap()
    # one player at both seats: not rated (at a rated table free text waits for the match's
    # end, issue 48: tests/server/social/test_featured.py)
    _tid, a, b, _frames = chat_pair(new_page, server, chat_text=True, one_player=True)
    a.locator("[data-action='chat']").tap()
    field = a.locator("dialog[data-dialog='chat'] [data-field='chat-text']")
    assert field.get_attribute("maxlength") == "80"
    field.fill("<b>nice</b> one")
    a.locator("dialog[data-dialog='chat'] [data-action='chat-send']").tap()
    bubble = b.locator(".felt .bubble[data-bubble='0']")
    bubble.wait_for()
    assert bubble.inner_text() == "<b>nice</b> one"  # text, never markup
    assert bubble.locator("b").count() == 0
    assert a.js_errors == [] and b.js_errors == []


def test_chatting_too_fast_is_refused_visibly(new_page: Any, server: Server) -> None:
    _tid, a, _b, _frames = chat_pair(new_page, server)
    for _ in range(6):
        a.locator("[data-action='chat']").tap()
        a.locator("dialog[data-dialog='chat'] [data-emoji='😀']").tap()
        if a.locator("[data-toast='error']").count():
            break
    toast = a.locator("[data-toast='error']").first
    toast.wait_for()
    assert "too many chat messages" in toast.inner_text()
    assert a.js_errors == []


def test_the_page_and_the_server_have_the_same_chat_set(new_page: Any, server: Server) -> None:
    import json

    from tests.web.helpers import ROOT

    page = new_page("desktop", server.base)
    page.goto("/")
    got = page.evaluate("""async () => {
      const m = await import('/assets/chat.js');
      return { phrases: m.PHRASES, emoji: m.EMOJI };
    }""")
    served = call(server.base, "GET", "/api/chat")
    assert got == {"phrases": served["phrases"], "emoji": served["emoji"]}
    for lang in ("en", "ur", "hi", "ru"):
        words = json.loads((ROOT / "src" / "taash" / "web" / "i18n" / f"{lang}.json").read_text(
            encoding="utf-8"))
        assert [p for p in served["phrases"] if f"chat_{p}" not in words] == [], lang
