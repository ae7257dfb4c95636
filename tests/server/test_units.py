"""In-process checks of the pieces: settings, limits, SMTP URLs, the record of a deal in
progress, and the app's rate limit (429) without a server process."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from taash.server.app import TokenBuckets, create_app
from taash.server.config import ConfigError, Settings, normalize_db_url
from taash.server.notify import NotifyConfigError, SmtpConfig, valid_email, valid_webhook
from taash.server.rooms import Hub, derived_token, fork, token_hash
from taash.server.store import Store


def test_database_urls(tmp_path: Path) -> None:
    assert normalize_db_url(f"sqlite:///{tmp_path}/a.db").drivername == "sqlite+aiosqlite"
    assert normalize_db_url("postgresql://u@h/db").drivername == "postgresql+asyncpg"
    for bad in ("mysql://u@h/db", "nonsense", "sqlite://", "postgresql://u@h"):
        with pytest.raises(ConfigError):
            normalize_db_url(bad)


def test_channel_follows_the_database() -> None:
    a = Settings(db_url="postgresql://u:secret@h/one")
    b = Settings(db_url="postgresql://u:other@h/one")
    c = Settings(db_url="postgresql://u@h/two")
    assert a.bus_channel() == b.bus_channel() != c.bus_channel()


def test_token_buckets() -> None:
    b = TokenBuckets(rate=1, burst=3)
    assert [b.allow("k") for _ in range(4)] == [True, True, True, False]
    assert b.allow("other")
    assert all(TokenBuckets(0, 1).allow("k") for _ in range(100))


def test_smtp_urls_and_addresses() -> None:
    c = SmtpConfig.parse("smtp+starttls://me%40x:pw@mail.example:2525?from=t@x.example")
    assert (c.host, c.port, c.mode, c.user, c.password, c.sender) == (
        "mail.example", 2525, "starttls", "me@x", "pw", "t@x.example")
    assert SmtpConfig.parse("smtps://mail.example").port == 465
    with pytest.raises(NotifyConfigError):
        SmtpConfig.parse("http://mail.example")
    assert valid_email("a@b.example") and not valid_email("a b@c")
    assert valid_webhook("https://x.example/h") and not valid_webhook("file:///etc/passwd")


def test_tokens() -> None:
    assert len(token_hash("t")) == 64
    assert derived_token("t", "r:1") == derived_token("t", "r:1") != derived_token("u", "r:1")


def test_fork_keeps_dealing() -> None:
    from taash.games import new_match

    m = new_match("court-piece-2p", {"target": 3}, seed=4, first_seat=0)
    f = fork(m)
    while f.view(0)["deal_number"] == 0:
        seat = f.actors()[0]
        f.apply(seat, f.legal_actions(seat)[0])
    assert not f.needs_deal() and f.view(0)["hand"]
    assert m.public_view()["history"] == []  # the original is untouched


def test_rate_limit_answers_429(tmp_path: Path) -> None:
    async def go() -> list[int]:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'u.db'}", rate_limit=2,
                            rate_burst=3, sweep_s=60)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        hub = Hub(settings, store)
        await hub.start()
        app = create_app(settings, hub=hub)
        codes = []
        try:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                for _ in range(5):
                    codes.append((await c.get("/api/lobby")).status_code)
                r = await c.get("/api/lobby")
                assert r.json()["error"]["code"] == "rate_limited"
                assert r.headers["retry-after"] == "1"
                codes.append((await c.get("/")).status_code)  # pages are not limited
        finally:
            await hub.close()
            await store.close()
        return codes

    assert asyncio.run(go()) == [200, 200, 200, 429, 429, 200]


def test_group_commit_checks_each_action(tmp_path: Path) -> None:
    """Two writers of one version in one batch (and a bystander): one wins, one conflicts,
    the bystander is committed."""
    from taash.server.store import SeatRow, TableRow, VersionConflict

    async def go() -> list[object]:
        store = Store(Settings(db_url=f"sqlite:///{tmp_path / 'g.db'}").resolved_db_url())
        await store.migrate()
        for tid in ("a", "b"):
            await store.create_table(TableRow(
                id=tid, game="goat", options={}, seed=1, first_seat=0, live=False, open=False,
                bot_delay_ms=0, turn_timer_s=None, created=0, updated=0,
                seats=[SeatRow(s, "human") for s in range(4)]))
        try:
            return await asyncio.gather(
                store.append_action("a", 0, 1, "lead:6S", None, [], 2, False),
                store.append_action("a", 0, 2, "lead:7S", None, [], 3, False),
                store.append_action("b", 0, 1, "lead:8S", "c1", [], 2, False),
                return_exceptions=True)
        finally:
            rows_a = await store.load_actions("a")
            rows_b = await store.load_actions("b")
            await store.close()
            assert [(r.version, r.action) for r in rows_a] == [(1, "lead:6S")]
            assert [(r.version, r.client_id) for r in rows_b] == [(1, "c1")]

    out = asyncio.run(go())
    assert isinstance(out[0], float) and isinstance(out[2], float)
    assert isinstance(out[1], VersionConflict)


def test_an_unexpected_error_is_json_without_a_traceback(tmp_path: Path) -> None:
    async def go() -> httpx.Response:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'e.db'}", sweep_s=60)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        hub = Hub(settings, store)

        async def broken() -> list[dict[str, object]]:
            raise RuntimeError("the lobby fell over")

        hub.lobby = broken  # type: ignore[method-assign]
        app = create_app(settings, hub=hub)
        try:
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                return await c.get("/api/lobby")
        finally:
            await hub.close()
            await store.close()

    r = asyncio.run(go())
    assert r.status_code == 500
    assert r.json() == {"error": {"code": "internal", "rule": None,
                                  "message": "internal error; it has been logged"}}
    assert "fell over" not in r.text and "Traceback" not in r.text
