"""A warned or banned player told by Web Push (docs/fairplay.md, "In the server"), through the
push service of tests/server/notify/test_push.py: once per decision, in the subscription's
language, with whom to write to (``fairplay_contact``) and nothing of the evidence, the note or
the moderator; a player not decided about is told nothing."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from taash.server.config import Settings
from tests.server.events.helpers import Player, Site, served
from tests.server.fairplay.helpers import flagged, moderator
from tests.server.notify.test_push import Browser, service

__all__ = ["service"]  # the push service on 127.0.0.1, a fixture of this module too

pytestmark = pytest.mark.slow  # a server in process, a push service beside it

T = TypeVar("T")


async def until(condition: Callable[[], T], what: str) -> T:
    """``condition()`` once it holds (the pushes go out in the background)."""
    for _ in range(1500):
        got = condition()
        if got:
            return got
        await asyncio.sleep(0.02)
    raise AssertionError(f"gave up waiting for {what}")


def told(browser: Browser) -> list[dict[str, Any]]:
    return [m for m in map(browser.decrypt, browser.messages()) if m["type"] == "fairplay"]


async def subscribed(p: Player, service: str, language: str) -> Browser:
    b = Browser(f"{service}/fairplay/{p.id}/{time.time_ns()}")
    r = await p.post("/api/me/push", {"subscription": b.json(), "language": language})
    assert r.status_code == 201, r.text
    return b


async def test_a_banned_player_is_pushed_the_ban_and_its_lift_once(tmp_path: Path,
                                                                    service: str) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'told.db'}", sweep_s=60,
                        push_allow_origins=service, fairplay_contact="fair@example.org")
    async with served(settings, Site) as s:
        banned, warned, bystander = await s.player(), await s.player(), await s.player()
        to_banned = await subscribed(banned, service, "ru")
        to_warned = await subscribed(warned, service, "en")
        to_bystander = await subscribed(bystander, service, "en")
        mod = await moderator(s)
        for who, decision in ((banned, "banned"), (warned, "warned")):
            case = await flagged(s, who.id)
            await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                         {"decision": decision, "note": f"secret-note {decision}"})
        (ban,) = await until(lambda: told(to_banned), "the ban's push")
        (warn,) = await until(lambda: told(to_warned), "the warning's push")
        assert ban["kind"] == "banned" and ban["lang"] == "ru"
        assert ban["title"] == "Решение о честной игре по вашему аккаунту"  # noqa: RUF001
        assert ban["body"].startswith("Модератор проверил ваши последние игры и отстранил вас")
        assert "офлайн" in ban["body"]  # what still stays open to them
        assert ban["body"].endswith("Вопросы об этом решении: fair@example.org")  # noqa: RUF001
        assert warn["kind"] == "warned" and warn["lang"] == "en"
        assert warn["body"].startswith("A moderator reviewed your recent games and has warned")
        assert warn["body"].endswith("To ask about it, write to: fair@example.org")
        assert warn["url"] == "/" and warn["tag"] == "taash-fairplay"
        for m in (ban, warn):
            text = json.dumps(m)
            assert "secret-note" not in text and mod.id not in text and "p_value" not in text
        # and the page's notice names the same contact
        assert (await banned.ok("GET", "/api/me/fairplay"))["contact"] == "fair@example.org"

        queue = await mod.ok("GET", "/api/fairplay/queue")
        ban_case = next(c["id"] for c in queue["decided"] if c["player"] == banned.id)
        await mod.ok("POST", f"/api/fairplay/cases/{ban_case}/lift", {"note": "secret-note"})
        await until(lambda: len(told(to_banned)) == 2, "the lift's push")
        kinds = [m["kind"] for m in told(to_banned)]
        assert kinds == ["banned", "lifted"]  # each once
        lifted = told(to_banned)[1]
        assert lifted["body"].startswith("Модератор снял с вас запрет на рейтинговую игру")  # noqa: RUF001
        assert [m["kind"] for m in told(to_warned)] == ["warned"]
        assert told(to_bystander) == []
