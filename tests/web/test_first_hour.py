"""Issue 43, "the first hour": what a new player met on the page in their first hour, each
checked in Chromium the way it was found (on a 390x844 phone unless said otherwise)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.helpers import (
    Server,
    call,
    create_table,
    play_turn,
    press,
    seat_token,
    serve_fixed,
    state_where,
    tap_card,
    through,
)
from tests.web.test_at_table import played
from tests.web.test_web import two_player_friends

pytestmark = [pytest.mark.browser, pytest.mark.slow]


# -- 1. Play is the first thing on the home page ----------------------------------------------
def test_play_comes_first_on_the_home_page(new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    page.goto("/")
    page.locator("[data-section='new-game'] [data-action='play-bots']").wait_for()
    page.locator("[data-section='friends']").wait_for()
    tops = page.evaluate("""() => Object.fromEntries(
        ['new-game', 'friends', 'join', 'settings'].map((s) => [s,
          document.querySelector(`[data-section='${s}']`).getBoundingClientRect().top]))""")
    assert tops["new-game"] < tops["friends"], tops
    assert tops["new-game"] < min(tops.values()) + 1, tops
    # the whole of it within the first screen: the game, and the button that starts it
    button = page.locator("[data-section='new-game'] [data-action='play-bots']").bounding_box()
    assert button["y"] + button["height"] <= 844, button
    assert page.js_errors == []


def test_home_leads_to_the_duplicate_events(new_page: Any, server: Server) -> None:
    """Events (issue 45) are found from home: its link opens the events page, which offers
    today's event of each game."""
    page = new_page("phone", server.base)
    page.goto("/")
    link = page.locator("[data-action='events']")
    link.wait_for()
    assert "Duplicate events" in link.inner_text()
    link.click()
    page.locator(".events-daily-game[data-game='goat']").wait_for()
    assert page.url.endswith("/assets/events.html")
    assert page.js_errors == []


# -- 2. the home screen's rows and the table's header say it all, uncut -----------------------
# The elements among `sel` whose text does not fit them (an ellipsis, or text past a border).
CUT = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getBoundingClientRect().width && el.scrollWidth > el.clientWidth + 0.5)
  .map((el) => `${el.textContent} (${el.scrollWidth} > ${el.clientWidth})`)"""


def test_game_names_and_russian_labels_are_not_cut(new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    page.add_init_script("localStorage.setItem('taash.lang', 'ru')")
    page.goto("/")
    page.locator("[data-section='player'] [data-action='my-profile']").wait_for()
    for game, bots in (("court-piece-2p", 1), ("goat", 3), ("court-piece", 3)):
        seats = [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * bots
        page.evaluate("""(body) => fetch('/api/tables', {method: 'POST', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json'}}).then((r) => r.json())""",
                      {"game": game, "seats": seats, "live": True, "bot_delay_ms": 0})
    page.reload()
    page.locator("[data-my-table]").nth(2).wait_for()
    rows = "[data-my-table] b, [data-my-table] small, [data-my-table] .badge"
    assert page.evaluate(CUT, rows) == []
    assert "Корт-пис на двоих" in page.locator("[data-section='my-tables']").inner_text()

    # at the table: the game's name in the header, the hint beside the felt
    m, seat = state_where("court-piece-2p", lambda m, s: m.view(s)["phase"] == "trump")
    serve_fixed(page, "court-piece-2p", m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7'][data-your-turn='true']")
    page.locator("[data-action='hint']").wait_for()
    assert page.evaluate(CUT, ".bar .title h1, .bar .title small, .tools .btn, .bar .btn") == []
    assert page.locator(".bar .title h1").inner_text() == "Корт-пис на двоих"
    assert page.js_errors == []


def test_my_tables_stay_when_an_earlier_refresh_answers_last(new_page: Any,
                                                              server: Server) -> None:
    """Home asks for the lists once at once (before it knows the player, so without their
    tables) and again once it knows them.  The first answering last (its lobby slow) emptied
    the player's tables: seen as a flaky test under load."""
    page = new_page("phone", server.base)
    page.goto("/")
    page.locator("[data-section='player'] [data-action='my-profile']").wait_for()
    page.evaluate("""(body) => fetch('/api/tables', {method: 'POST', body: JSON.stringify(body),
        headers: {'Content-Type': 'application/json'}}).then((r) => r.json())""",
                  {"game": "goat", "seats": [{"type": "human"}] + [{"type": "bot"}] * 3,
                   "live": True, "bot_delay_ms": 0})
    lobbies: list[Any] = []

    def lobby(route: Any) -> None:
        lobbies.append(route)
        if len(lobbies) == 1:  # the first refresh's lobby: answered after the second's
            return
        route.fallback()

    page.route("**/api/lobby", lobby)
    page.reload()
    page.locator("[data-my-table]").first.wait_for()
    wait_until(through(page, lambda: len(lobbies) >= 2), timeout=10,
               what="the second refresh's lobby")
    page.wait_for_timeout(300)
    lobbies[0].fallback()  # now the early refresh answers, last
    page.wait_for_timeout(500)
    assert page.locator("[data-my-table]").count() == 1
    assert page.js_errors == []


# -- 3. voice on keeps the table's header whole on a phone ------------------------------------
# A microphone for the page without a device: a silent stream of the page's own.
SILENT_MIC = """navigator.mediaDevices.getUserMedia = async () =>
  new AudioContext().createMediaStreamDestination().stream;"""
# The header's controls and the game's name: their boxes, and what is wrong with them.
HEADER = """() => {
  const w = window.innerWidth;
  const parts = [...document.querySelectorAll(
    '.bar > .btn, .bar .title, .bar .voice-buttons > .btn')];
  const boxes = parts.map((el) => [el.dataset.action || el.className, el.getBoundingClientRect()]);
  const wrong = [];
  for (const [name, r] of boxes) {
    if (r.left < -0.5 || r.right > w + 0.5) wrong.push(`${name} off the screen`);
    if (name !== 'title' && (r.width < 44 || r.height < 44))
      wrong.push(`${name} ${r.width}x${r.height}`);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    if (p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5
        && q.top < p.bottom - 0.5) wrong.push(`${a} over ${b}`);
  }
  const h1 = document.querySelector('.bar .title h1');
  if (h1.scrollWidth > h1.clientWidth + 0.5 || h1.getBoundingClientRect().width < 90)
    wrong.push(`title squeezed to ${h1.getBoundingClientRect().width}`);
  return wrong;
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_voice_on_keeps_the_header_whole_on_a_phone(new_page: Any, server: Server,
                                                    lang: str) -> None:
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}] * 2)
    page = new_page("phone", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.add_init_script(SILENT_MIC)
    page.goto(f"/t/{t['id']}?seat=0&token={t['seats'][0]['token']}")
    page.wait_for_selector("main.table[data-version]")
    assert page.evaluate(HEADER) == []
    page.locator("[data-voice-mic]").tap()
    page.wait_for_selector(".voice-alone")
    assert page.get_attribute("[data-voice-mic]", "aria-pressed") == "true"
    assert page.evaluate(HEADER) == []
    page.locator("[data-voice-mute]").tap()
    assert page.get_attribute("[data-voice-mute]", "aria-pressed") == "true"
    assert page.evaluate(HEADER) == []
    page.locator("[data-voice-mic]").tap()
    page.wait_for_selector("[data-voice-mic][aria-pressed='false']")
    assert page.evaluate(HEADER) == []
    assert page.js_errors == []


# -- 4. a long name's ellipsis never cuts the presence dot ------------------------------------
def serve_named(page: Any, game: str, view: dict[str, Any], names: list[str]) -> None:
    """Table "n": one fixed view of `game`, every other seat a human with a long name,
    connected."""
    n = len(view["hand_counts"])
    view = {**view, "version": 7, "table": {
        "id": "n", "game": game, "version": 7,
        "seats": [{"seat": i, "type": "human", "name": names[i], "claimed": True,
                   "connected": True} for i in range(n)]}}
    page.route("**/api/tables/n/**", lambda route: route.fulfill(
        content_type="application/json", body=json.dumps(view)))
    page.route_web_socket("**/api/tables/n/ws**", lambda ws: ws.send(json.dumps(
        {"type": "view", "version": 7, "view": view})))


DOTS = """() => [...document.querySelectorAll('.seat:not([hidden]) .dot')].map((dot) => {
  const r = dot.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { seat: dot.closest('.seat').dataset.seat, seen: hit === dot, width: r.width };
})"""


@pytest.mark.parametrize("kind", ["phone", "desktop"])
def test_a_long_names_ellipsis_never_cuts_the_presence_dot(new_page: Any, server: Server,
                                                           kind: str) -> None:
    m, seat = state_where("court-piece", lambda m, s: m.view(s)["phase"] == "play")
    page = new_page(kind, server.base)
    serve_named(page, "court-piece", m.view(seat), ["Konstantin Aleksandrovich Prokhorov"] * 4)
    page.goto(f"/t/n?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    dots = page.evaluate(DOTS)
    assert len(dots) == 3, dots
    assert all(d["seen"] and d["width"] >= 6 for d in dots), dots
    # and the names still end in an ellipsis, within their seats
    assert page.evaluate("""() => [...document.querySelectorAll('.seat:not([hidden]) .who b')]
        .every((b) => b.getBoundingClientRect().right <= b.closest('.seat')
          .getBoundingClientRect().right + 0.5)""")
    assert page.js_errors == []


# -- 5. cards and table ---------------------------------------------------------------------
def test_goats_trump_card_leaves_the_stock_when_drawn(new_page: Any, server: Server) -> None:
    """The face-up trump card is the stock's last card: with one card left only it shows,
    and once drawn it is in a hand, not also under the stock (two 6♠ were seen)."""
    m, seat = state_where("goat", lambda m, s: m.view(s)["stock"] == 0
                          and m.view(s)["phase"] == "play"
                          and m.view(s)["trump_card"] in m.view(s)["hand"], moves=200)
    view = m.view(seat)
    trump = view["trump_card"]
    page = new_page("phone", server.base)
    serve_fixed(page, "goat", view, [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    assert page.locator(f"[data-hand] [data-card='{trump}']").count() == 1
    assert page.locator(f"main.table [data-card='{trump}']").count() == 1
    assert page.locator(".stock .card").count() == 0
    assert page.js_errors == []
    # one card left: the trump card alone, no card back over it
    page = new_page("phone", server.base)
    last = {**view, "stock": 1, "hand": [c for c in view["hand"] if c != trump]}
    serve_fixed(page, "goat", last, [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    assert page.locator(f".stock .card.face[data-card='{trump}']").count() == 1
    assert page.locator(".stock .card.back").count() == 0
    assert page.js_errors == []


def test_a_finished_trick_is_held_and_your_card_is_marked(new_page: Any, server: Server) -> None:
    t = create_table(server.base, "court-piece-2p",
                     [{"type": "human"}, {"type": "bot", "level": "easy"}])
    page = new_page("phone", server.base)
    page.add_init_script("localStorage.removeItem('taash.pace')")  # the page's own pace
    page.goto(f"/t/{t['id']}?seat=0&token={t['seats'][0]['token']}")
    page.wait_for_selector("main.table[data-version]")
    # a finished trick stays on the felt about a second and a half
    assert page.locator(".trick").evaluate("(el) => el.style.getPropertyValue('--pace')") \
        == "1500ms"
    for _ in range(20):
        if page.locator(".trick .play[data-seat='0']").count():
            break
        if not play_turn(page):
            page.wait_for_function("() => document.querySelector('main.table')"
                                   ".dataset.yourTurn === 'true'")
    mine = page.locator(".trick .play[data-seat='0']")
    mine.wait_for()
    assert "mine" in (mine.get_attribute("class") or "")
    assert page.locator(".trick .play.mine").count() == 1
    # the card is marked in words too, not only by its place
    assert mine.locator(".play-label").inner_text().strip() != ""
    assert page.js_errors == []


# Where the table's parts are: a refused move's message must move none of them.
PLACES = """() => Object.fromEntries(['.felt', '.seat.pos-bottom', '.seat.pos-top', '.trick',
  '[data-hand]', '.actions'].map((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return [s, [r.left, r.top, r.width, r.height].map((x) => Math.round(x))];
  }))"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_refused_move_moves_nothing_on_the_table(new_page: Any, server: Server,
                                                   lang: str) -> None:
    tid, tokens = two_player_friends(server)
    page = new_page("phone", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    page.wait_for_selector("main.table[data-version='2'][data-your-turn='true']")
    before = page.evaluate(PLACES)
    bad = page.locator("[data-hand] [data-card][data-playable='false']").first
    tap_card(page, bad.get_attribute("data-card") or "")
    toast = page.locator("[data-toast='error']")
    toast.wait_for()
    assert page.evaluate(PLACES) == before
    # the rule's id (CP-5) is never split over two lines
    lines = toast.evaluate("""(el) => {
      const texts = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      while (walk.nextNode()) texts.push(walk.currentNode);
      const last = texts.filter((n) => n.data.includes('(')).pop();
      const range = document.createRange();
      range.setStart(last, last.data.lastIndexOf('('));
      range.setEnd(texts[texts.length - 1], texts[texts.length - 1].data.length);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }""")
    assert lines == 1
    # the rule's id links to its explanation with a picture (issue 49)
    link = toast.locator("a[data-rule]")
    rule = link.get_attribute("data-rule")
    assert rule and link.get_attribute("href") == f"/rules/court-piece-2p#{rule}"
    assert page.js_errors == []


@pytest.mark.parametrize("lang", ["en", "hi", "ur", "ru"])
def test_the_score_sheet_shows_every_column_on_a_phone(new_page: Any, server: Server,
                                                       lang: str) -> None:
    m = played("court-piece", 3)
    page = new_page("phone", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    serve_fixed(page, "court-piece", m.view(0), [])
    page.goto("/t/f?seat=0&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    page.locator("[data-action='scores']").tap()
    sheet = page.locator("dialog[data-dialog='score-sheet'] .sheet-scroll")
    sheet.wait_for()
    # the coats, the last column, within sight: nothing to scroll to, no cell cut
    assert sheet.evaluate("(el) => el.scrollWidth <= el.clientWidth"), \
        sheet.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    assert page.evaluate(CUT, ".sheet-scroll th, .sheet-scroll td") == []
    assert page.js_errors == []


def test_the_jack_is_readable_at_phone_size(new_page: Any, server: Server) -> None:
    """The jack's J, in the hand and on the felt's small cards, is no thin stroke: as wide as
    half its height's letters at least (Noto Sans drew it at a third, a line like an I)."""
    m, seat = state_where("court-piece", lambda m, s: any(c[0] == "J" for c in m.view(s)["hand"])
                          and any(p["card"][0] == "J" for p in m.view(s)["trick"]))
    page = new_page("phone", server.base)
    serve_fixed(page, "court-piece", m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    got = page.evaluate("""() => [...document.querySelectorAll('[data-hand] [data-card^="J"]'
        + ' .corner:not(.end) b, .trick [data-card^="J"] .corner:not(.end) b')].map((b) => {
      const size = parseFloat(getComputedStyle(b).fontSize);
      return [b.closest('[data-card]').dataset.card, b.getBoundingClientRect().width / size];
    })""")
    assert len(got) >= 2, got
    assert all(ratio >= 0.45 for _, ratio in got), got
    assert page.js_errors == []


def test_the_winners_star_covers_no_card_of_a_goat_trick(new_page: Any, server: Server) -> None:
    """A trick's plays in a dialog (the last trick; a deal's summary shows its last trick the
    same way): the winner's star lay over the corner of the winning card, where a trump card
    has its own star."""
    m, seat = state_where("goat", lambda m, s: bool(m.view(s).get("last_trick")) and max(
        p["count"] for p in m.view(s)["last_trick"]["plays"]) >= 3, moves=200)  # wide plays
    page = new_page("phone", server.base)
    serve_fixed(page, "goat", m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7']")
    page.locator("[data-action='last-trick']").tap()
    dialog = page.locator("dialog[data-dialog='last-trick']")
    dialog.wait_for()
    over = dialog.evaluate("""(d) => {
      const hits = [];
      const boxes = (s) => [...d.querySelectorAll(s)].map((e) => e.getBoundingClientRect());
      const meet = (p, q) => p.left < q.right - 0.5 && q.left < p.right - 0.5
        && p.top < q.bottom - 0.5 && q.top < p.bottom - 0.5;
      for (const star of boxes('.won-mark')) for (const card of boxes('.card'))
        if (meet(star, card)) hits.push('star over a card');
      const rows = boxes('.trick-row');
      for (let i = 0; i < rows.length; i++) for (let j = i + 1; j < rows.length; j++)
        if (meet(rows[i], rows[j])) hits.push(`rows ${i} and ${j}`);
      return { hits, stars: boxes('.won-mark').length };
    }""")
    assert over == {"hits": [], "stars": 1}, over
    assert page.js_errors == []


# -- 6. sign-in and the page's own dialogs ---------------------------------------------------
def test_leaving_a_table_asks_in_the_pages_own_dialog(new_page: Any, server: Server) -> None:
    native: list[str] = []
    page = new_page("phone", server.base)
    page.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
    t = create_table(server.base, "court-piece-2p",
                     [{"type": "human"}, {"type": "bot", "level": "easy"}])
    page.goto(f"/t/{t['id']}?seat=0&token={t['seats'][0]['token']}")
    page.wait_for_selector("main.table[data-version]")
    page.locator("[data-action='menu']").tap()
    page.locator("dialog[data-dialog='menu'] [data-action='leave']").tap()
    ask = page.locator("dialog[data-dialog='leave-confirm']")
    ask.wait_for()
    assert native == []
    assert "bot takes your seat" in ask.inner_text()
    # no: the seat stays
    ask.locator("[data-action='stay']").tap()
    ask.wait_for(state="detached")
    assert page.locator("main.table").count() == 1
    # yes: the table is left, a bot takes the seat
    page.locator("[data-action='menu']").tap()
    page.locator("dialog[data-dialog='menu'] [data-action='leave']").tap()
    page.locator("dialog[data-dialog='leave-confirm'] [data-action='leave-table']").tap()
    page.wait_for_selector("main[data-page='home']")
    pub = page.evaluate(f"() => fetch('/api/tables/{t['id']}').then((r) => r.json())")
    assert pub["table"]["seats"][0]["type"] == "bot", pub["table"]["seats"]
    assert native == [] and page.js_errors == []


def test_signed_in_devices_is_never_an_empty_box(new_page: Any, server: Server) -> None:
    held: list[Any] = []
    page = new_page("phone", server.base)
    page.route("**/api/me/sessions", lambda route: held.append(route))
    page.goto("/")
    page.locator("[data-player-name]").wait_for()
    page.locator("[data-action='show-sessions']").tap()
    box = page.locator("[data-sessions]")
    # while the list comes (its answer held back): it says so (the box opens in a task of its
    # own: waited for, not read at once)
    words = "() => document.querySelector('[data-sessions]').innerText.trim() !== ''"
    page.wait_for_function(words)
    wait_until(through(page, lambda: held), timeout=10, what="the sessions asked for")
    assert page.locator("[data-session]").count() == 0
    held[0].continue_()
    page.locator("[data-session-current]").wait_for()
    assert box.inner_text().strip() != ""
    # a list the server answers empty (a guest, on an older server) says so too
    page.unroute("**/api/me/sessions")
    page.route("**/api/me/sessions", lambda route: route.fulfill(
        content_type="application/json", body="[]"))
    page.locator("[data-action='show-sessions']").tap()  # closed
    page.locator("[data-action='show-sessions']").tap()  # and open again: asked anew
    page.wait_for_function("() => !document.querySelector('[data-session-current]')")
    page.wait_for_function(words)
    assert page.js_errors == []


# -- 7. the home page's rows say who plays and whose turn it is -------------------------------
TURN_WORDS = {"en": ("Your turn", "Dima's turn"), "ru": ("Ваш ход", "Ход: Dima"),
              "hi": ("आपकी बारी", "Dima की बारी"), "ur": ("آپ کی باری", "Dima کی باری")}


@pytest.mark.parametrize("lang", ["en", "hi", "ur", "ru"])
def test_home_rows_say_who_plays_and_whose_turn(new_page: Any, server: Server,
                                                lang: str) -> None:
    page = new_page("phone", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.goto("/")
    page.locator("[data-section='player'] [data-action='my-profile']").wait_for()
    made = {}
    for key, game, seats, first in (
            ("dima", "court-piece-2p", [{"type": "human"}, {"type": "human", "name": "Dima"}], 1),
            ("bot", "court-piece-2p",
             [{"type": "human"}, {"type": "bot", "level": "easy",
                                  "name": "Konstantin Prokhorovich"}], 0),
            ("goat", "goat", [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3,
             None)):
        made[key] = page.evaluate("""(body) => fetch('/api/tables', {method: 'POST',
            body: JSON.stringify(body), headers: {'Content-Type': 'application/json'}})
            .then((r) => r.json())""", {"game": game, "seats": seats, "live": True,
                                        "bot_delay_ms": 0, "first_seat": first})["id"]
    page.reload()
    page.locator("[data-my-table]").nth(2).wait_for()
    yours, dimas = TURN_WORDS[lang]
    row = page.locator(f"[data-my-table='{made['dima']}']")
    assert "Dima" in row.locator("small").inner_text()
    assert row.locator(".badge").inner_text() == dimas
    row = page.locator(f"[data-my-table='{made['bot']}']")
    assert "Konstantin Prokhorovich" in row.locator("small").inner_text()
    assert row.locator(".badge").inner_text() == yours
    # the bots' names, as the table names them (none given: Bilal, Chandni, Dima)
    goat = page.locator(f"[data-my-table='{made['goat']}'] small").inner_text()
    if lang == "en":
        assert all(name in goat for name in ("Bilal", "Chandni", "Dima")), goat
    rows = "[data-my-table] b, [data-my-table] small, [data-my-table] .badge"
    assert page.evaluate(CUT, rows) == []
    # each row within the screen's width
    assert page.evaluate("""() => [...document.querySelectorAll('[data-my-table]')]
        .every((li) => li.getBoundingClientRect().right <= window.innerWidth + 0.5)""")
    assert page.js_errors == []


# -- 8. "while you were away" only for what happened while you were away -----------------------
def new_anytime_table(page: Any, seat1: str) -> tuple[str, str | None]:
    """A play-anytime Court Piece for two made on the home page, seat 1 a human (its invite
    link's token returned) or a bot of that level; the page at the table."""
    page.goto("/")
    page.locator("[data-player-name]").wait_for()
    press(page, "[data-game-choice='court-piece-2p']")
    press(page, "[data-mode='friends']")
    page.select_option("[data-seat-type='1']", seat1)
    page.locator("[data-field='live']").uncheck()
    press(page, "[data-action='create-table']")
    invite = None
    if seat1 == "human":
        field = page.locator("[data-invite='1']")
        invite = (field.input_value().split("token=") + [""])[1] or None
        press(page, "[data-action='open-table']")
    page.wait_for_selector("main.table[data-version]")
    tid = page.evaluate("() => location.pathname.split('/')[2]")
    return tid, invite


def my_turn_played(page: Any) -> None:
    """Play this seat's turns until it is another's."""
    page.wait_for_selector("main.table[data-your-turn]")
    while page.locator("main.table[data-your-turn='true']").count():
        play_turn(page)


def comes_back(page: Any, tid: str) -> Any:
    """Leave for the home page and open the table again: the recap's answer."""
    page.goto("/")
    page.locator("[data-player-name]").wait_for()
    with page.expect_response(lambda r: "/away" in r.url) as got:
        page.goto(f"/t/{tid}?seat=0")
    page.wait_for_selector("main.table[data-version]")
    return got.value.json()


def test_no_recap_on_a_table_you_have_just_made(new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    tid, _ = new_anytime_table(page, "easy")
    page.wait_for_selector("main.table[data-recap='none']")
    assert page.locator("dialog[data-dialog='away']").count() == 0
    # moves of yours, the bot's answers seen as they came
    token = seat_token(page, tid, 0)
    for _ in range(6):
        page.wait_for_selector("main.table[data-your-turn='true']")
        if call(server.base, "GET", f"/api/tables/{tid}/away", token=token)["moves"]:
            break
        play_turn(page)
    away = comes_back(page, tid)
    assert [m["seat"] for m in away["moves"]] and {m["seat"] for m in away["moves"]} == {1}
    page.wait_for_selector("main.table[data-recap='none']")
    assert page.locator("dialog[data-dialog='away']").count() == 0
    assert page.js_errors == []


def test_a_recap_lists_what_others_did_while_you_were_away(new_page: Any,
                                                          server: Server) -> None:
    page = new_page("phone", server.base)
    tid, invite = new_anytime_table(page, "human")
    assert invite
    page.wait_for_selector("main.table[data-recap='none']")
    my_turn_played(page)
    page.goto("/")
    # seat 1 plays while seat 0 is away
    v = call(server.base, "GET", f"/api/tables/{tid}/view", token=invite)
    assert v["to_move"] == 1, v
    call(server.base, "POST", f"/api/tables/{tid}/actions",
         {"action": v["legal_actions"][0], "id": "away-1", "version": v["version"]}, invite)
    away = comes_back(page, tid)
    assert [m["seat"] for m in away["moves"]] == [1]
    page.wait_for_selector("main.table[data-recap='shown']")
    dlg = page.locator("dialog[data-dialog='away']")
    dlg.wait_for()
    assert dlg.locator(".away-move").count() == 1
    assert dlg.locator(".away-move").get_attribute("data-seat") == "1"
    assert page.js_errors == []
