"""Sound (issue 27): the table's sounds are small files the project makes itself
(scripts/make_sounds.py), fetched only when first played, and muted with a toggle this device
remembers."""

from __future__ import annotations

import runpy
import wave
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.helpers import ROOT, Server, attr, call, tap_card, through, wait_version_after
from tests.web.test_web import two_player_friends

SOUNDS = ROOT / "src" / "taash" / "web" / "sounds"


def test_the_sounds_are_made_by_the_project(tmp_path: Path) -> None:
    made = runpy.run_path(str(ROOT / "scripts" / "make_sounds.py"))["write"](tmp_path)
    names = sorted(p.name for p in made)
    assert names == ["lost.wav", "play.wav", "trick.wav", "turn.wav", "won.wav"]
    for p in made:
        shipped = SOUNDS / p.name
        assert shipped.read_bytes() == p.read_bytes(), f"{p.name}: run scripts/make_sounds.py"
        assert shipped.stat().st_size < 8_000
        with wave.open(str(shipped)) as w:
            assert w.getnchannels() == 1 and 0.04 < w.getnframes() / w.getframerate() < 0.6


def sound_requests(page: Any) -> list[str]:
    got: list[str] = []
    page.on("request", lambda r: got.append(r.url.rsplit("/", 1)[-1])
            if "/assets/sounds/" in r.url else None)
    return got


def fetched_so_far(page: Any) -> None:
    """Return once every request the page made so far has been seen here: the page fetches
    one more thing and waits for it (requests are reported in the order they are made), so a
    sound that was to be fetched by now has been."""
    page.evaluate("() => fetch('/api/health').then((r) => r.status)")


def play_a_card(page: Any) -> None:
    code = page.locator("[data-hand] [data-card][data-playable='true']").first.get_attribute(
        "data-card") or ""
    before = int(attr(page, "data-version") or -1)
    tap_card(page, code)
    wait_version_after(page, before)


@pytest.mark.browser
@pytest.mark.slow
def test_sounds_come_when_played_and_mute_is_remembered(new_page: Any, server: Server) -> None:
    tid, tokens = two_player_friends(server)
    page = new_page("phone", server.base)
    heard = sound_requests(page)
    page.goto(f"/t/{tid}?seat=0&token={tokens[0]}")
    page.wait_for_selector("main.table[data-version='2'][data-your-turn='true']")
    assert heard == []  # nothing fetched before a sound is played
    toggle = page.locator("[data-action='sound']")
    assert toggle.get_attribute("aria-pressed") == "true"
    play_a_card(page)  # completes the trick: the trick's sound
    wait_until(through(page, lambda: heard), timeout=10, what="a sound fetched")
    fetched_so_far(page)
    assert heard == ["trick.wav"], heard
    # muted, and still muted after a reload: the next plays fetch nothing
    toggle.tap()
    assert toggle.get_attribute("aria-pressed") == "false"
    page.reload()
    page.wait_for_selector("main.table[data-version]")
    assert page.locator("[data-action='sound']").get_attribute("aria-pressed") == "false"
    heard.clear()
    if attr(page, "data-your-turn") != "true":  # the other seat plays (a card's sound, muted)
        view = call(server.base, "GET", f"/api/tables/{tid}/view", token=tokens[1])
        before = int(attr(page, "data-version") or -1)
        call(server.base, "POST", f"/api/tables/{tid}/actions",
             {"action": view["legal_actions"][0], "id": "s1"}, tokens[1])
        wait_version_after(page, before)
    play_a_card(page)
    fetched_so_far(page)
    assert heard == []
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.slow
def test_a_deal_won_or_lost_is_heard(new_page: Any, server: Server) -> None:
    from tests.web.helpers import play_to_end
    from tests.web.test_web import start_against_bots

    page = new_page("phone", server.base)
    heard = sound_requests(page)
    start_against_bots(page, "court-piece-2p")
    play_to_end([page])
    wait_until(through(page, lambda: "won.wav" in heard or "lost.wav" in heard), timeout=10,
               what=f"the deal's end heard ({heard})")
    fetched_so_far(page)
    assert ("won.wav" in heard) != ("lost.wav" in heard), heard
    assert "play.wav" in heard and "trick.wav" in heard
    assert "turn.wav" not in heard  # against bots the turn comes at once: no chime
    assert page.js_errors == []
