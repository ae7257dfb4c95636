"""The moderators' page (issue 48): the host grants the role with `taash moderator grant`, a
flagged player's case waits in the queue, the moderator opens it (the evidence, the deals to
replay) and decides it with a note; a player who is not a moderator is told in their language
that the queue is for moderators.  A banned player reads the notice on their home page once, in
their language; the moderator lifts the ban from the case's page, and the player is told that
too.  A partnership's case names both players, and the moderator bans one of the two.  Under
the page's Content-Security-Policy, with no script error."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from taash.server.config import Settings
from taash.server.fairplay.service import FairPlay
from taash.server.store.db import Store
from taash.server.store.fairplay import FairPlayStore, ScanRow
from taash.server.store.fairplay_pairs import PairScanRow, pair_key
from tests.web.helpers import ROOT, Server, home_ready, press

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""
GAME = "court-piece-2p"


async def _flag(url: str, player_id: str, partner_id: str | None = None) -> str:
    """Twenty deals of the player (with ``partner_id``: of the two as partners) scanned, each
    a chance taken: weighed, a case opens."""
    settings = Settings(db_url=url)
    store = Store(settings.resolved_db_url())
    try:
        fp = FairPlayStore(store)
        for d in range(20):
            if partner_id is None:
                await fp.scanned(f"tab{d}", [ScanRow(player_id, f"tab{d}", GAME, 1000.0 + d, 1,
                                                     5, [(0, 10, GAME, "follow", True)])])
            else:
                one, two = pair_key(player_id, partner_id)
                await fp.scanned(f"pair{d}", [], [PairScanRow(
                    one, two, f"pair{d}", "court-piece", 1000.0 + d, 1, 9,
                    [(0, 10, "court-piece/single", "follow", True)])])

        async def unrate(_p: str) -> int:
            return 0  # (no rated results here)

        service = FairPlay(settings, store, unrate)
        case = await (service.weigh(player_id) if partner_id is None
                      else service.weigh_pair(player_id, partner_id))
        assert case is not None
        return case
    finally:
        await store.close()


def me(page: Any) -> str:
    return str(page.evaluate("fetch('/api/me').then((r) => r.json()).then((m) => m.id)"))


def flag_and_grant(server: Server, mod_id: str, suspect: str, partner: str | None = None
                   ) -> str:
    url = f"sqlite+aiosqlite:///{server.db}"
    with ThreadPoolExecutor(1) as aside:  # Playwright's own loop runs in this thread
        case = aside.submit(asyncio.run, _flag(url, suspect, partner)).result(timeout=120)
    done = subprocess.run([sys.executable, "-m", "taash", "moderator", "grant", mod_id, "--db",
                           url], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          check=False)
    assert done.returncode == 0, done.stderr
    return case


def test_a_moderator_decides_a_case_from_the_queue(server: Server, new_page: Any) -> None:
    mod = new_page("desktop", server.base)
    other = new_page("phone", server.base)
    for p in (mod, other):
        p.context.add_init_script(WATCH)
    other.context.add_init_script("localStorage.setItem('taash.lang', 'ru');")
    mod.goto("/")
    other.goto("/")
    case = flag_and_grant(server, me(mod), me(other))

    # not a moderator: told so, in Russian
    other.goto("/moderate")
    err = other.locator(".mod-error")
    err.wait_for()
    assert err.inner_text() == "Очередь честной игры видят только модераторы."
    assert other.locator(".mod-queue").is_hidden()

    mod.goto("/moderate")
    item = mod.locator(f".mod-open li[data-case='{case}']")
    item.wait_for()
    assert "p = " in item.inner_text() and "20 deals" in item.inner_text()
    item.locator("a").click()
    mod.wait_for_url(f"**/moderate?case={case}")
    box = mod.locator(".mod-case[data-status='open']")
    box.wait_for()
    assert "20 of 20 chances taken" in box.locator(".mod-hits").inner_text()
    replay = mod.locator(".mod-replay a")
    assert replay.count() >= 1
    assert replay.first.get_attribute("href").startswith("/review?table=tab")
    mod.locator(".mod-choice").select_option("warned")
    mod.locator(".mod-note").fill("every follow taken: told them once")
    mod.locator(".mod-submit").click()
    mod.locator(".mod-case[data-status='warned']").wait_for()
    assert "warned, decided by" in mod.locator(".mod-decision").inner_text()
    assert mod.locator(".mod-decision-note").inner_text() == "every follow taken: told them once"
    assert mod.locator(".mod-decide").count() == 0
    mod.goto("/moderate")
    mod.locator(f".mod-decided li[data-case='{case}'][data-status='warned']").wait_for()
    wide = other.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the phone's screen"
    for p in (mod, other):
        assert p.evaluate("window.__csp") == [] and p.js_errors == []


def test_a_banned_player_is_told_once_and_a_moderator_lifts_the_ban(server: Server,
                                                                    new_page: Any) -> None:
    mod = new_page("desktop", server.base)
    suspect = new_page("phone", server.base)
    for p in (mod, suspect):
        p.context.add_init_script(WATCH)
    suspect.context.add_init_script("localStorage.setItem('taash.lang', 'hi');")
    mod.goto("/")
    suspect.goto("/")
    home_ready(suspect)
    assert suspect.locator(".fairplay-notice").count() == 0  # nothing decided: nothing told
    case = flag_and_grant(server, me(mod), me(suspect))

    mod.goto(f"/moderate?case={case}")
    mod.locator(".mod-case[data-status='open']").wait_for()
    mod.locator(".mod-choice").select_option("banned")
    mod.locator(".mod-note").fill("secret-note: every follow taken")
    mod.locator(".mod-submit").click()
    mod.locator(".mod-case[data-status='banned'] .mod-lift").wait_for()

    suspect.goto("/")
    home_ready(suspect)
    notice = suspect.locator(".fairplay-notice[data-kind='banned']")
    notice.wait_for()
    assert suspect.locator(".fairplay-notice").count() == 1
    assert notice.locator(".fairplay-notice-text").inner_text() == (
        "एक मॉडरेटर ने आपके हाल के खेल देखे और आपको रेटेड खेल से प्रतिबंधित कर दिया है। आप बिना "
        "रेटिंग के खेल सकते हैं: पास करके खेलने वाली मेज़ पर और ऑफ़लाइन। आपके रेटेड नतीजे रेटिंग से "
        "हटा दिए गए हैं।")
    assert notice.locator(".fairplay-notice-contact").inner_text() == (
        "इस बारे में पूछने के लिए इस सर्वर को चलाने वालों को लिखें।")
    assert "secret-note" not in suspect.locator("main.home").inner_text()
    press(suspect, "[data-action='fairplay-notice-read']")
    suspect.locator(".fairplay-notice").wait_for(state="detached")
    suspect.reload()
    home_ready(suspect)
    assert suspect.locator(".fairplay-notice").count() == 0  # told once

    mod.locator(".mod-lift-note").fill("explained: a shared screen")
    mod.locator(".mod-lift-submit").click()
    mod.locator(".mod-case[data-lifted='yes']").wait_for()
    assert mod.locator(".mod-lifted").inner_text().startswith("Ban lifted by ")
    assert mod.locator(".mod-lift-reason").inner_text() == "explained: a shared screen"
    assert mod.locator(".mod-lift").count() == 0
    mod.goto("/moderate")
    mod.locator(f".mod-decided li[data-case='{case}'][data-lifted='yes']").wait_for()

    suspect.goto("/")
    home_ready(suspect)
    suspect.locator(".fairplay-notice[data-kind='lifted']").wait_for()
    wide = suspect.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the phone's screen"
    for p in (mod, suspect):
        assert p.evaluate("window.__csp") == [] and p.js_errors == []


def test_a_moderator_bans_one_player_of_a_partnership(server: Server, new_page: Any) -> None:
    mod = new_page("desktop", server.base)
    one, two = new_page("phone", server.base), new_page("phone", server.base)
    mod.context.add_init_script(WATCH)
    for p in (mod, one, two):
        p.goto("/")
    a, b = me(one), me(two)
    case = flag_and_grant(server, me(mod), a, b)

    mod.goto("/moderate")
    item = mod.locator(f".mod-open li[data-case='{case}'][data-pair='yes']")
    item.wait_for()
    assert " & " in item.locator("a").inner_text() and "20 deals" in item.inner_text()
    item.locator("a").click()
    mod.wait_for_url(f"**/moderate?case={case}")
    box = mod.locator(".mod-case[data-status='open'][data-pair='yes']")
    box.wait_for()
    assert box.locator("h2").inner_text().startswith("Case of the partnership ")
    assert box.locator("h2 a").count() == 2  # both players' profiles
    assert "partner's hidden hand" in box.locator(".mod-pair-note").inner_text()
    assert "20 of 20 chances taken where the partnership's" in box.locator(
        ".mod-hits").inner_text()
    assert "following suit, fitting the partner's hand: 20 of 20" in box.locator(
        ".mod-kinds").inner_text()
    assert mod.locator(".mod-replay a").first.get_attribute("href").startswith(
        "/review?table=pair")
    # the warning or ban for one of the two: the other's box unticked
    mod.locator(f".mod-for[value='{b}']").uncheck()
    mod.locator(".mod-choice").select_option("banned")
    mod.locator(".mod-note").fill("a's leads fit b's hand")
    mod.locator(".mod-submit").click()
    mod.locator(".mod-case[data-status='banned'] .mod-lift").wait_for()
    assert mod.locator(".mod-decided-for").inner_text().startswith("Applies to: ")
    names = mod.locator(".mod-decided-for").inner_text().removeprefix("Applies to: ")
    assert ", " not in names  # one player
    banned = "fetch('/api/me/fairplay').then((r) => r.json()).then((m) => m.banned)"
    assert one.evaluate(banned) is True and two.evaluate(banned) is False
    assert mod.evaluate("window.__csp") == [] and mod.js_errors == []
