"""Issue 43, "the first hour", more of it: pass and play on purpose, passkeys on a local
address, challenges, and the profile's stats (each checked in Chromium the way it was found)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.helpers import Server, attr, call, create_table, press

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def table_of(page: Any) -> str:
    return str(page.url.split("/t/")[1].split("?")[0])


# -- 1. pass and play on purpose --------------------------------------------------------------
def test_pass_and_play_is_asked_for_and_lets_the_host_take_a_second_seat(
        new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    page.goto("/")
    press(page, "[data-game-choice='court-piece']")
    press(page, "[data-mode='friends']")
    box = page.locator("[data-field='pass-and-play']")
    # offered only while another seat is a person's: with bots all round there is none to pass to
    for s in (1, 2, 3):
        page.select_option(f"[data-seat-type='{s}']", "easy")
    assert not box.is_visible()
    page.select_option("[data-seat-type='2']", "human")
    assert box.is_visible()
    assert "Pass and play" in page.locator("label:has([data-field='pass-and-play'])").inner_text()
    box.check()
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/api/tables") else None)
    press(page, "[data-action='create-table']")
    link = page.locator("dialog[data-dialog='invites'] [data-invite='2']").input_value()
    assert sent and sent[0]["pass_and_play"] is True, sent
    press(page, "dialog[data-dialog='invites'] [data-action='open-table']")
    page.wait_for_selector("main.table[data-version]")
    tid = table_of(page)
    assert call(server.base, "GET", f"/api/tables/{tid}")["table"]["pass_and_play"] is True
    # the host opens the second seat's invite on the same device: it is theirs too
    page.goto(link)
    page.wait_for_selector("main.table[data-version][data-seat='2']")
    assert page.locator("[data-toast='error']").count() == 0
    assert page.js_errors == []


def test_a_second_seat_is_refused_in_plain_words(new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    page.goto("/")
    press(page, "[data-game-choice='court-piece-2p']")
    press(page, "[data-mode='friends']")
    assert not page.locator("[data-field='pass-and-play']").is_checked()
    sent: list[Any] = []
    page.on("request", lambda r: sent.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/api/tables") else None)
    press(page, "[data-action='create-table']")
    link = page.locator("dialog[data-dialog='invites'] [data-invite='1']").input_value()
    assert sent and sent[0]["pass_and_play"] is False, sent
    press(page, "dialog[data-dialog='invites'] [data-action='open-table']")
    page.wait_for_selector("main.table[data-version][data-seat='0']")
    # the host opens their friend's invite link themselves: the page says why it is not theirs,
    # in its own words, and shows them their own seat
    page.goto(link)
    note = page.locator("[data-toast]").filter(has_text="Seat 1")
    note.wait_for()
    text = note.inner_text()
    assert "already" in text and "pass and play" in text.lower(), text
    assert "seated_already" not in text and "Error" not in text, text
    page.wait_for_selector("main.table[data-version][data-seat='0']")
    assert attr(page, "data-seat") == "0"
    # in Russian too
    page.evaluate("localStorage.setItem('taash.lang', 'ru')")
    page.goto(link)
    page.locator("[data-toast]").filter(has_text="Место 1").wait_for()
    # the link pasted on the home page: the same words
    page.evaluate("localStorage.setItem('taash.lang', 'en')")
    page.goto("/")
    page.fill("[data-field='link']", link)
    press(page, "[data-action='join']")
    note = page.locator("[data-toast]").filter(has_text="Seat 1")
    note.wait_for()
    assert "pass and play" in note.inner_text().lower()
    assert page.js_errors == []


# -- 2. passkeys on a local address say what they need ----------------------------------------
# The browser's refusal where the page is served from 127.0.0.1 (an address, not a name, cannot
# be a passkey's site): the same DOMException Chromium gives there.
REFUSE = """(() => {
  const no = (name) => () => Promise.reject(new DOMException('This is an invalid domain.', name));
  navigator.credentials.create = no('SecurityError');
  navigator.credentials.get = no('NotAllowedError');
})();"""
NO_API = "delete window.PublicKeyCredential;"


def test_passkeys_on_a_local_address_say_what_they_need(new_page: Any, server: Server) -> None:
    page = new_page("phone", server.base)
    page.add_init_script(REFUSE)
    page.goto("/")
    press(page, "[data-sign-in-methods] [data-action='add-passkey']")
    note = page.locator("[data-toast]").filter(has_text="https")
    note.wait_for()
    text = note.inner_text()
    assert "e-mail" in text and "localhost" in text, text
    assert "invalid domain" not in text and "Error" not in text, text
    # the account's panel keeps it in sight after the toast has gone
    assert "https" in page.locator("[data-section='account'] [data-passkey-note]").inner_text()
    # signing in with a passkey, refused the same way: the same sentence, not "No passkey was used"
    press(page, "[data-action='passkey-sign-in']")
    status = page.locator("[data-sign-in-status]")
    page.wait_for_function("(el) => el.textContent.includes('https')", arg=status.element_handle())
    assert "No passkey was used" not in status.inner_text()
    assert page.js_errors == []


def test_a_browser_without_passkeys_says_what_works_instead(new_page: Any,
                                                          server: Server) -> None:
    page = new_page("phone", server.base)
    page.add_init_script(NO_API)
    page.goto("/")
    page.locator("[data-sign-in-methods] [data-action='add-passkey'][disabled]").wait_for()
    for where in ("[data-section='account']", "[data-section='sign-in']"):
        note = page.locator(f"{where} [data-passkey-note]")
        assert note.is_visible(), where
        assert "https" in note.inner_text() and "e-mail" in note.inner_text(), where
    assert page.js_errors == []


# -- 3. challenges: a button like the others, the game asked, the challenger told -------------
BOX = """(el) => { const s = getComputedStyle(el);
  return [s.borderRadius, s.minHeight, s.backgroundColor, s.fontWeight].join(' '); }"""


def test_a_challenge_asks_the_game_and_its_acceptance_is_told(new_page: Any,
                                                               server: Server) -> None:
    from tests.web.test_friends_notice import befriend, player
    from tests.web.test_friends_notice import call as page_call

    a = new_page("desktop", server.base)
    b = new_page("phone", server.base)
    for p in (a, b):
        p.goto("/")
        p.locator("[data-player-name]").wait_for()
    page_call(b, "PATCH", "/api/me", {"name": "Dima"})
    befriend(a, b)
    a.goto(f"/p/{player(b)}")
    button = a.locator("[data-section='challenge'] [data-action='challenge']")
    button.wait_for()
    # which game is asked, not taken silently: none is chosen until the player chooses one
    game = a.locator("[data-section='challenge'] [data-field='challenge-game']")
    assert game.input_value() == ""
    assert button.is_disabled()
    # styled as the page's other controls: the button as the home page's, the list as a field
    assert button.evaluate(BOX) == a.locator("[data-action='leaderboard']").evaluate(
        "() => { const b = document.createElement('button'); b.className = 'btn primary';"
        " document.body.append(b); const s = getComputedStyle(b); const out = [s.borderRadius,"
        " s.minHeight, s.backgroundColor, s.fontWeight].join(' '); b.remove(); return out; }")
    assert game.evaluate("(el) => getComputedStyle(el).borderRadius") != "0px"
    assert game.evaluate("(el) => el.getBoundingClientRect().height") >= 44
    game.select_option("court-piece-2p")
    sent: list[Any] = []
    a.on("request", lambda r: sent.append(r.post_data_json)
         if r.method == "POST" and r.url.endswith("/api/me/challenges") else None)
    press(a, "[data-section='challenge'] [data-action='challenge']")
    a.locator("[data-toast]").filter(has_text="Dima").wait_for()
    assert sent and sent[0]["game"] == "court-piece-2p", sent

    # the challenger waits on the home page; the friend accepts: the challenger is told
    a.goto("/")
    a.locator("[data-player-name]").wait_for()
    status, open_ = page_call(b, "GET", "/api/me/challenges")
    assert status == 200 and len(open_["received"]) == 1, open_
    status, r = page_call(b, "POST", f"/api/me/challenges/{open_['received'][0]['id']}/accept")
    assert status == 200 and r["table"], r
    told = a.locator("[data-challenge-answer]")
    told.wait_for(timeout=20_000)
    assert "Dima accepted" in told.inner_text(), told.inner_text()
    press(a, "[data-challenge-answer] [data-action='answer-open-table']")
    a.wait_for_selector("main.table[data-version][data-seat='0']")
    assert table_of(a) == r["table"]
    # told once: back home, the notice does not come again
    a.goto("/")
    a.locator("[data-player-name]").wait_for()
    a.locator("[data-section='friends'] [data-friend-code], [data-friend-code]").first.wait_for()
    assert a.locator("[data-challenge-answer]").count() == 0
    assert a.js_errors == [] and b.js_errors == []


# -- 4. the profile's stats: headers apart, a provisional rating in words ---------------------
TALLY = {"played": 3, "won": 2, "lost": 1, "drawn": 0}
PROFILE = {
    "id": "pz", "name": "Zara", "member_since": "2026-11-01T00:00:00Z", "country": None,
    "ratings": {"court-piece-2p": {"rating": 1703, "deviation": 300, "provisional": True,
                                   "shown": "1703?", "matches": 3},
                "goat": {"rating": 1620, "deviation": 80, "provisional": False,
                         "shown": "1620", "matches": 40}},
    "stats": {"court-piece-2p": {"matches": TALLY, "deals": {"played": 9, "won": 5},
                                 "by_opponent": {"people": TALLY, "bot:easy": TALLY},
                                 "best_streak": 2, "streak": 1}},
}
# Each header's text box against its neighbours': the gap between the words.
GAPS = """(sel) => { const ths = [...document.querySelectorAll(sel)].filter((th) => th.textContent);
  const boxes = ths.map((th) => { const r = document.createRange(); r.selectNodeContents(th);
    return r.getBoundingClientRect(); });
  return boxes.slice(1).map((b, i) => b.left - boxes[i].right); }"""


@pytest.mark.parametrize("lang,words", [("en", "1703, provisional"),
                                        ("ru", "1703, предварительный")])
def test_the_profiles_stats_read_as_words(new_page: Any, server: Server, lang: str,
                                          words: str) -> None:
    page = new_page("phone", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.route("**/api/players/pz", lambda route: route.fulfill(json=PROFILE))
    page.route("**/api/players/pz/history**",
               lambda route: route.fulfill(json={"matches": [], "next": None}))
    page.goto("/p/pz")
    page.locator("[data-stats='court-piece-2p'] th").first.wait_for()
    text = page.locator("main[data-page='profile']").inner_text()
    assert "?" not in text, text
    assert words in page.locator("[data-rating='court-piece-2p']").inner_text()
    assert "1620" in page.locator("[data-rating='goat']").inner_text()
    assert "provisional" not in page.locator("[data-rating='goat']").inner_text()
    # the column headers stand apart, each a word of its own (they ran into one another)
    gaps = page.evaluate(GAPS, "[data-stats='court-piece-2p'] thead th")
    assert len(gaps) == 3 and min(gaps) >= 8, gaps
    assert page.js_errors == []


def test_a_new_friends_table_has_a_turn_timer_unless_the_player_turns_it_off(
        new_page: Any, server: Server) -> None:
    # Issue 43: with no timer a friend who leaves stalls the table for good.  A new browser's
    # form offers 2 minutes a turn for a live table and a day for one played at one's own
    # pace; a choice the player makes ("off" included) is kept for the next table.
    page = new_page("phone", server.base)
    page.goto("/")
    press(page, "[data-game-choice='court-piece-2p']")
    press(page, "[data-mode='friends']")
    timer = page.locator("[data-field='turn_timer']")
    assert timer.input_value() == "120"
    page.uncheck("[data-field='live']")
    assert timer.input_value() == "86400"
    page.check("[data-field='live']")
    assert timer.input_value() == "120"
    press(page, "[data-action='create-table']")
    press(page, "dialog[data-dialog='invites'] [data-action='open-table']")
    page.wait_for_selector("main.table[data-version='0']")
    made = page.url.split("/t/")[1].split("?")[0]
    assert call(server.base, "GET", f"/api/tables/{made}")["table"]["turn_timer_s"] == 120
    page.goto("/")
    press(page, "[data-game-choice='court-piece-2p']")
    press(page, "[data-mode='friends']")
    page.select_option("[data-field='turn_timer']", "")
    page.uncheck("[data-field='live']")  # a choice made stays whatever the pace
    assert page.locator("[data-field='turn_timer']").input_value() == ""
    press(page, "[data-action='create-table']")
    press(page, "dialog[data-dialog='invites'] [data-action='open-table']")
    page.wait_for_selector("main.table[data-version='0']")
    made = page.url.split("/t/")[1].split("?")[0]
    assert call(server.base, "GET", f"/api/tables/{made}")["table"]["turn_timer_s"] is None


def test_a_friend_who_leaves_is_marked_and_the_timer_plays_for_them(
        new_page: Any, server: Server) -> None:
    # Issue 43: a friend who leaves a live table is shown as gone, the status says a bot
    # plays for them, and when their turn's timer runs out it does: the table goes on.
    t = create_table(server.base, "court-piece-2p",
                     [{"type": "human", "name": "Asha"}, {"type": "human", "name": "Bilal"}],
                     options={"target": 1}, first_seat=1, turn_timer_s=8,
                     wait=True)  # the timer counts from the friend's arrival, not before
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    mine = new_page("phone", server.base)
    mine.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    friend = new_page("phone", server.base)
    friend.goto(f"/t/{tid}?seat=1&token={tokens[1]}")
    friend.wait_for_selector("main.table[data-version]")
    mine.wait_for_selector(".seat[data-seat='1'] .dot.on")
    assert "left the table" not in mine.inner_text(".status")
    friend.close()  # the friend leaves, at their turn (the call of trumps)
    mine.wait_for_function("""() => {
      const s = document.querySelector(".seat[data-seat='1']");
      return s && s.innerText.includes('away') && !s.querySelector('.dot.on'); }""")
    assert "Bilal has left the table: a bot plays for them" in mine.inner_text(".status")
    # the timer's bot calls trumps for them: the table goes on, and it is Asha's turn
    mine.wait_for_selector("main.table[data-version='1']", timeout=25_000)
    assert call(server.base, "GET", f"/api/tables/{tid}")["version"] >= 1


def test_a_live_table_waits_for_the_invited_friend_or_for_the_host_to_start(
        new_page: Any, server: Server) -> None:
    # Issue 43: a live table made for a friend does not deal its first moves (nor run its
    # timer) before the friend has come, unless the host starts it.
    def made(page: Any) -> tuple[str, str]:
        page.goto("/")
        press(page, "[data-game-choice='court-piece-2p']")
        press(page, "[data-mode='friends']")
        press(page, "[data-action='create-table']")
        link = page.locator("dialog[data-dialog='invites'] [data-invite='1']").input_value()
        press(page, "dialog[data-dialog='invites'] [data-action='open-table']")
        page.wait_for_selector("main.table[data-version='0'][data-seat='0']")
        return table_of(page), link

    host = new_page("phone", server.base)
    tid, link = made(host)
    status = host.locator(".status")
    status.filter(has_text="Waiting for").wait_for()
    assert "to join" in status.inner_text()
    assert host.locator(".seat .timer").count() == 0  # no timer runs for nobody
    assert host.locator("main.table").get_attribute("data-your-turn") == "false"
    assert host.locator(".actions button").count() == 0  # no trump to call yet
    assert call(server.base, "GET", f"/api/tables/{tid}")["table"]["waiting"] == [1]
    # the friend comes: both tables play, with the timer counting from now
    friend = new_page("phone", server.base)
    friend.goto(link)
    friend.wait_for_selector("main.table[data-version='0'][data-seat='1']")
    host.wait_for_selector("[data-action='start-table']", state="detached")
    host.locator(".seat[data-turn='true'] .timer").wait_for()
    assert call(server.base, "GET", f"/api/tables/{tid}")["table"]["waiting"] == []
    # another table: the host does not wait for the friend and starts it
    tid2, _link = made(host)
    press(host, "[data-action='start-table']")
    host.locator(".seat[data-turn='true'] .timer").wait_for()
    assert "to join" not in host.locator(".status").inner_text()
    assert call(server.base, "GET", f"/api/tables/{tid2}")["table"]["waiting"] == []
    assert host.js_errors == [] and friend.js_errors == []
