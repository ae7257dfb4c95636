"""Every table playable by keyboard (issue 50): a whole deal of two-player Court Piece and a Goat
trick of several cards played against bots with the keys alone (no click once the page is
open).  The hand is one Tab stop (arrows, Home and End move in it), Enter or Space plays or
selects, Goat's L, B and P act on the selection, Escape clears it; the focus is on the table,
visible, after every drawing; T, H and W read the trick, the hand by suit and what the rules ask
into the live log; ? lists the keys in a dialog that Escape closes, the focus returned."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.helpers import (
    Server,
    attr,
    call,
    create_table,
    seat_token,
    wait_version_after,
)
from tests.web.test_a11y import assert_clean

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RANK = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "10"}
SUIT = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


def rank(code: str) -> str:
    return RANK.get(code[0], code[0])


def card_name(code: str) -> str:
    return f"{rank(code)} of {SUIT[code[1]].lower()}"


# where the focus is: its card or action, whether it is in the hand, shown (:focus-visible,
# with an outline), and how many of the hand's cards Tab reaches
FOCUS = """() => {
  const a = document.activeElement;
  const hand = document.querySelector('[data-hand]');
  const style = a ? getComputedStyle(a) : null;
  return {
    card: a && a.dataset ? a.dataset.card || null : null,
    action: a && a.dataset ? a.dataset.action || null : null,
    inHand: !!a && hand.contains(a),
    inTable: !!a && document.querySelector('main.table').contains(a),
    visible: !!a && a !== document.body && a.matches(':focus-visible')
      && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
    stops: [...hand.querySelectorAll('[data-card]')].filter((c) => c.tabIndex >= 0).length,
    cards: hand.querySelectorAll('[data-card]').length,
  };
}"""


def focus(page: Any) -> Any:
    return page.evaluate(FOCUS)


def assert_focus_on_table(page: Any) -> Any:
    """The focus is on a control of the table, shown; the hand is one Tab stop."""
    f = focus(page)
    assert f["inTable"] and f["visible"], f
    assert f["stops"] == (1 if f["cards"] else 0), f
    return f


def read_key(page: Any, key: str) -> str:
    """Press a reading key: the line it adds to the live log."""
    page.evaluate("() => document.querySelectorAll('[data-announce] p')"
                  ".forEach((p) => { p.dataset.old = '1'; })")
    page.keyboard.press(key)
    line = page.locator("[data-announce] p:not([data-old])").first
    line.wait_for()
    return str(line.text_content())


def hand_said(text: str) -> dict[str, list[str]]:
    """'5 cards. Hearts, trumps: Queen and 10. Spades: Ace, 9, and 7.' as {suit: [ranks]}."""
    head, *groups = [x for x in text.split(".") if x.strip()]
    assert re.fullmatch(r"\d+ cards?", head), text
    out = {}
    for part in groups:
        suit, _, ranks = part.strip().partition(": ")
        out[suit.removesuffix(", trumps")] = re.split(r", and |, | and ", ranks)
    return out


def assert_hand_read(page: Any, hand: list[str]) -> None:
    text = read_key(page, "h")
    want: dict[str, list[str]] = {}
    for c in hand:
        want.setdefault(SUIT[c[1]], []).append(rank(c))
    got = hand_said(text)
    assert text.startswith(f"{len(hand)} card"), text
    assert {s: sorted(r) for s, r in got.items()} == {s: sorted(r) for s, r in want.items()}, text


def move_to(page: Any, code: str) -> None:
    """The arrows, from the focused card to `code` (the hand shows left to right)."""
    for _ in range(30):
        order = page.evaluate("() => [...document.querySelectorAll('[data-hand] [data-card]')]"
                              ".map((c) => c.dataset.card)")
        now = focus(page)["card"]
        if now == code:
            return
        assert now in order, (now, order)
        page.keyboard.press("ArrowRight" if order.index(code) > order.index(now) else "ArrowLeft")
    raise AssertionError(f"the arrows did not reach {code}")


def tab_into_hand(page: Any) -> None:
    for _ in range(40):
        page.keyboard.press("Tab")
        if focus(page)["inHand"]:
            return
    raise AssertionError("Tab does not reach the hand")


# every line the live log is given, kept (the log itself keeps its last few)
HEAR = """() => {
  window.heard = [];
  new MutationObserver((rs) => rs.forEach((r) => r.addedNodes.forEach(
    (n) => window.heard.push(n.textContent))))
    .observe(document.querySelector('[data-announce]'), { childList: true });
}"""


def view_of(server: Server, tid: str, token: str) -> Any:
    return call(server.base, "GET", f"/api/tables/{tid}/view", token=token)


def wait_turn(page: Any) -> None:
    page.wait_for_function("""() => {
      const t = document.querySelector('main.table');
      return t.dataset.yourTurn === 'true' || t.dataset.over === 'true'
        || !!document.querySelector('dialog[open]');
    }""", timeout=20_000)


def test_a_court_piece_deal_is_played_by_keyboard_alone(new_page: Any, server: Server) -> None:
    bot = {"type": "bot", "level": "easy"}
    t = create_table(server.base, "court-piece-2p", [{"type": "human"}, bot],
                     options={"target": 1}, first_seat=0)
    tid, token = t["id"], t["seats"][0]["token"]
    page = new_page("desktop", server.base)
    page.goto(f"/t/{tid}?seat=0&token={token}")
    page.wait_for_selector("main.table[data-version][data-your-turn='true']")
    token = seat_token(page, tid, 0)
    # the trump call is ours: its buttons come before the hand, Tab reaches them
    assert page.locator("[data-action^='trump:'][aria-disabled='false']").count() == 4
    assert read_key(page, "w") == "Your turn to call trump: pick one of the four suits."
    for _ in range(30):
        page.keyboard.press("Tab")
        if (focus(page)["action"] or "").startswith("trump:"):
            break
    else:
        raise AssertionError("Tab does not reach the trump call")
    before = int(attr(page, "data-version") or -1)
    page.keyboard.press("Enter")
    wait_version_after(page, before)
    # the call's buttons are gone: the focus went to the hand, shown
    page.wait_for_function("() => !document.querySelector(\"[data-action^='trump:']\")")
    f = assert_focus_on_table(page)
    assert f["inHand"], f
    # S reads the score chips, the trump named in words (no suit sign)
    trump = view_of(server, tid, token)["trump"]
    score = read_key(page, "s")
    assert score.startswith(f"Trump: {SUIT[trump]}. Tricks: You 0") and "Points: 0" in score, score
    assert not re.search("[\u2660-\u2667]", score), score
    # the hand is one Tab stop: Tab leaves it at once, either way
    page.keyboard.press("Tab")
    assert not focus(page)["inHand"]
    page.keyboard.press("Shift+Tab")
    assert focus(page)["inHand"]
    page.keyboard.press("Shift+Tab")
    assert not focus(page)["inHand"]
    page.keyboard.press("Tab")
    f = focus(page)
    assert f["inHand"] and f["visible"], f
    # Home and End
    page.keyboard.press("End")
    order = page.evaluate("() => [...document.querySelectorAll('[data-hand] [data-card]')]"
                          ".map((c) => c.dataset.card)")
    assert focus(page)["card"] == order[-1]
    page.keyboard.press("Home")
    assert focus(page)["card"] == order[0]
    # ? lists the keys; Escape closes the list and the focus is back on the card
    page.keyboard.press("?")
    keys = page.locator("dialog[data-dialog='keys'][open]")
    keys.wait_for()
    assert "Read your hand by suit" in keys.inner_text()
    assert "Lead, beat or pass" not in keys.inner_text()  # Goat's verbs: not here
    assert_clean(page)  # axe: the list is a dialog with a title, its keys named
    # a key of the table does nothing while a dialog is open
    lines = page.locator("[data-announce] p").count()
    page.keyboard.press("h")
    assert page.locator("[data-announce] p").count() == lines
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-dialog='keys']", state="detached")
    f = focus(page)
    assert f["card"] == order[0] and f["visible"], f

    refused = False
    plays = 0
    for _ in range(60):
        wait_turn(page)
        if page.locator("dialog[open]").count() or attr(page, "data-over") == "true":
            break
        v = view_of(server, tid, token)
        if v["to_move"] != 0 or v["phase"] != "play":
            page.wait_for_timeout(50)
            continue
        assert_focus_on_table(page)
        hand, legal = v["hand"], [a[5:] for a in v["legal_actions"] if a.startswith("play:")]
        assert_hand_read(page, hand)
        said = read_key(page, "w")
        if v["trick"]:
            led = v["trick"][0]["card"]
            held = [c for c in hand if c[1] == led[1]]
            suit = SUIT[led[1]].lower()
            if not held:
                assert said == f"Your turn. You hold no {suit}: any card may be played.", said
            else:
                n = "one" if len(held) == 1 else str(len(held))
                assert said == f"Your turn. You must follow {suit}: you hold {n}.", said
            on_table = read_key(page, "t")
            assert on_table.startswith("On the table: ") and card_name(led) in on_table, on_table
        else:
            assert said == "Your turn. You lead: any card may be played.", said
            assert read_key(page, "t") == "No cards on the table."
        if not refused and len(legal) < len(hand):
            # a card the rules refuse: said why, as a tap is; the focus stays on it
            bad = next(c for c in hand if c not in legal)
            move_to(page, bad)
            page.keyboard.press("Enter")
            page.locator("[data-toast='error']").wait_for()
            assert "Not allowed" in page.locator("[data-toast='error']").last.inner_text()
            assert focus(page)["card"] == bad
            refused = True
        move_to(page, legal[0])
        before = int(attr(page, "data-version") or -1)
        page.keyboard.press("Enter" if plays % 2 == 0 else " ")
        page.wait_for_function(
            "([v, c]) => Number(document.querySelector('main.table').dataset.version) > v"
            " && !document.querySelector(`[data-hand] [data-card='${c}']`)",
            arg=[before, legal[0]])
        plays += 1
        if page.locator("dialog[open]").count() == 0 and attr(page, "data-over") != "true":
            assert_focus_on_table(page)
    # the whole deal, by the keys: it ends once a seat has won seven tricks
    assert plays >= 7, plays
    # the deal (and so the match of one point) is over: its summary opened; Escape closes it
    # and the focus comes back to the table
    page.wait_for_selector("dialog[open]")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    page.wait_for_function("() => document.activeElement !== document.body")
    assert_focus_on_table(page)
    assert page.js_errors == []


def test_a_goat_trick_of_several_cards_by_keyboard_alone(new_page: Any, server: Server) -> None:
    bot = {"type": "bot", "level": "easy"}
    t = create_table(server.base, "goat", [{"type": "human"}, bot, bot, bot])
    tid, token = t["id"], t["seats"][0]["token"]
    page = new_page("desktop", server.base)
    page.goto(f"/t/{tid}?seat=0&token={token}")
    page.wait_for_selector("main.table[data-game='goat'][data-version]")
    token = seat_token(page, tid, 0)
    page.evaluate(HEAR)
    tab_into_hand(page)
    # Goat's list of keys has its verbs; Escape closes it, the focus back in the hand
    page.keyboard.press("?")
    keys = page.locator("dialog[data-dialog='keys'][open]")
    keys.wait_for()
    assert "Lead, beat or pass the cards selected" in keys.inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-dialog='keys']", state="detached")
    assert focus(page)["inHand"]
    cleared = False
    for _ in range(40):
        wait_turn(page)
        if page.locator("dialog[open]").count():
            page.keyboard.press("Enter")  # a game's summary: Continue
            page.wait_for_function("() => !document.querySelector('dialog[open]')")
            continue
        v = view_of(server, tid, token)
        if v["to_move"] != 0:
            page.wait_for_timeout(50)
            continue
        assert_focus_on_table(page)
        if not focus(page)["inHand"]:
            tab_into_hand(page)
        options = [a for a in v["legal_actions"] if not a.startswith("molodka:")]
        action = max(options, key=lambda a: len(a.split(":")[1].split(",")))
        verb, cards = action.split(":")[0], action.split(":")[1].split(",")
        said = read_key(page, "w")
        if v["trick"]:
            assert said.startswith(f"Your turn: beat or pass {v['k']} card"), said
        else:
            assert said == "Your turn to lead: select cards of one suit, then lead them.", said
        if not cleared:
            # a card selected, then Escape: the selection let go
            move_to(page, cards[0])
            page.keyboard.press(" ")
            page.wait_for_selector(f"[data-hand] [data-card='{cards[0]}'].selected")
            assert read_key(page, "w").endswith(f"Selected: {card_name(cards[0])}.")
            page.keyboard.press("Escape")
            page.wait_for_function("() => !document.querySelector('[data-hand] .selected')")
            cleared = True
        for i, c in enumerate(cards):
            move_to(page, c)
            page.keyboard.press("Enter" if i % 2 == 0 else " ")
            page.wait_for_selector(f"[data-hand] [data-card='{c}'][aria-pressed='true']")
        before = int(attr(page, "data-version") or -1)
        page.keyboard.press({"lead": "l", "beat": "b", "pass": "p"}[verb])
        wait_version_after(page, before)
        # a move that ends a game opens its summary a moment later, its Continue focused: read
        # the focus first, then whether a dialog is open (the other order raced that dialog)
        f = focus(page)
        if f.get("action") != "continue" and page.locator("dialog[open]").count() == 0:
            assert_focus_on_table(page)
        if len(cards) > 1:
            # the play of several cards was made, and said in the log
            # (a pass lies face down: its count is said)
            said = [{"lead": "You lead ", "beat": "You beat with ", "pass": "You pass "}[verb]]
            said += ([f"{len(cards)} cards face down."] if verb == "pass"
                     else [card_name(c).lower() for c in cards])
            page.wait_for_function("(s) => window.heard.some((line) => line.startsWith(s[0])"
                                   " && s.every((w) => line.includes(w)))", arg=said)
            break
    else:
        raise AssertionError("no play of several cards came")
    assert cleared
    assert page.js_errors == []
