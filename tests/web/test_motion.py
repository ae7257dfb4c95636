"""Motion (issue 27): a card played flies to the trick in at most 300 ms and the trick sweeps to
its winner, never delaying the player's next input; with reduced motion asked for, nothing
moves."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.helpers import Server, attr, call, tap_card, wait_version_after
from tests.web.test_web import two_player_friends

# Every animation the page starts, with its duration (Web Animations and CSS ones alike).
WATCH = """(() => {
  window.__moves = [];
  const seen = new WeakSet();
  const look = () => {
    for (const a of document.getAnimations()) {
      if (seen.has(a)) continue;
      seen.add(a);
      const t = a.effect && a.effect.getComputedTiming();
      const el = a.effect && a.effect.target;
      window.__moves.push({ ms: t ? t.duration : 0, cls: el ? String(el.className) : '',
                            css: a instanceof CSSAnimation ? a.animationName
                              : a instanceof CSSTransition ? 'transition' : 'web' });
    }
    requestAnimationFrame(look);
  };
  document.addEventListener('DOMContentLoaded', look);
})();"""
FLIGHTS = "() => window.__moves.filter((m) => m.css === 'web' || m.css === 'collect')"
FLYING = """() => document.getAnimations().some((a) => a.playState === 'running'
  && !(a instanceof CSSTransition) && !(a instanceof CSSAnimation))"""


def table_with_a_friend(new_page: Any, server: Server, motion: str) -> tuple[Any, str, str]:
    """Seat 0's page (reduced motion or not) at a two-player table where seat 1 has led."""
    tid, tokens = two_player_friends(server)
    page = new_page("phone", server.base, fast=False)
    page.emulate_media(reduced_motion=motion)
    page.add_init_script(WATCH)
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    page.wait_for_selector("main.table[data-version='2'][data-your-turn='true']")
    return page, tid, tokens[1]


RANKS = "23456789TJQKA"


def strength(card: str, trump: str = "S") -> int:
    """How strong a card is at this table (trump is spades: seat 1 called it)."""
    return RANKS.index(card[0]) + (100 if card[1] == trump else 0)


def play_one(page: Any, weakest: bool = False) -> None:
    cards = page.locator("[data-hand] [data-card][data-playable='true']")
    codes = [cards.nth(i).get_attribute("data-card") or "" for i in range(cards.count())]
    code = min(codes, key=strength) if weakest else codes[0]
    before = int(attr(page, "data-version") or -1)
    tap_card(page, code)
    wait_version_after(page, before)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_card_flies_to_the_trick_unless_motion_is_reduced(new_page: Any, server: Server,
                                                           motion: str) -> None:
    page, _, _ = table_with_a_friend(new_page, server, motion)
    play_one(page)  # the trick is complete: shown for a moment, then swept to its winner
    page.wait_for_selector(".trick.done")
    page.wait_for_function("() => !document.querySelector('.trick.done')", timeout=5000)
    moves = page.evaluate(FLIGHTS)
    if motion == "reduce":
        assert moves == [], moves
        assert page.evaluate("() => document.getAnimations().length") == 0
    else:
        kinds = {m["css"] for m in moves}
        assert kinds == {"web", "collect"}, moves
        assert all(0 < m["ms"] <= 300 for m in moves), moves
    assert page.js_errors == []


def test_a_play_takes_the_next_input_at_once(new_page: Any, server: Server) -> None:
    """While a card flies, the hand answers: the next tap is posted without waiting."""
    page, tid, theirs = table_with_a_friend(new_page, server, "no-preference")
    # play on until the other seat is to lead; it leads while the page's animations run ten
    # times slower, so that its card is still flying when seat 0 taps.  Seat 0 plays its weakest
    # card and seat 1 its strongest, so that seat 1 soon wins a trick (with the first card each
    # time, seat 0 could win every trick of a random deal and seat 1 never lead)
    for n in range(200):
        page.wait_for_function("() => !document.querySelector('.trick.done')", timeout=5000)
        if attr(page, "data-your-turn") == "true":
            play_one(page, weakest=True)
            continue
        view = call(server.base, "GET", f"/api/tables/{tid}/view", token=theirs)
        if view.get("to_move") != view.get("seat") or not view.get("legal_actions"):
            page.wait_for_timeout(50)  # seat 0's turn, and the page is not there yet
            continue
        leading = not view["trick"]
        if leading:
            cdp = page.context.new_cdp_session(page)
            cdp.send("Animation.enable")
            cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.1})
        before = int(attr(page, "data-version") or -1)
        plays = [a for a in view["legal_actions"] if a.startswith("play:")]
        action = max(plays, key=lambda a: strength(a[5:])) if plays else view["legal_actions"][0]
        call(server.base, "POST", f"/api/tables/{tid}/actions",
             {"action": action, "id": f"m{n}"}, theirs)
        wait_version_after(page, before)
        if leading:
            break
    else:
        raise AssertionError("the other seat never led")
    page.wait_for_selector("main.table[data-your-turn='true']")
    assert page.evaluate(FLYING), "no card is flying"
    code = page.locator("[data-hand] [data-card][data-playable='true']").first.get_attribute(
        "data-card") or ""
    start = time.monotonic()
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/actions"),
                             timeout=2000):
        tap_card(page, code)
    assert time.monotonic() - start < 1.0
    assert page.evaluate(FLYING), "the tap waited for the card to land"
    assert page.js_errors == []

