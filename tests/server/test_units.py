"""In-process checks of the pieces: settings, limits, SMTP URLs, the record of a deal in
progress, and the app's rate limit (429) without a server process."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from taash.server.app import Services, create_app
from taash.server.config import ConfigError, Settings, normalize_db_url
from taash.server.http.guard import TokenBuckets
from taash.server.notify.notifier import NotifyConfigError, SmtpConfig, valid_email, valid_webhook
from taash.server.store.db import Store
from taash.server.tables import wire
from taash.server.tables.match import fork
from taash.server.tables.seat_tokens import derived_token, token_hash


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


async def test_webhook_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    import ipaddress

    from taash.server.notify.notifier import (
        WebhookRefused,
        pinned,
        public_address,
        webhook_addresses,
    )

    for a in ("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "2002:5db8:d70e::1"):
        assert public_address(ipaddress.ip_address(a)), a
    for a in ("10.0.0.1", "172.16.5.4", "192.168.1.1", "127.0.0.1", "169.254.169.254",
              "100.64.0.1", "0.0.0.0", "255.255.255.255", "224.0.0.1", "240.0.0.1", "::1",
              "::", "fe80::1", "fc00::1", "::ffff:10.0.0.1", "2002:0a00:0001::1",
              "64:ff9b::7f00:1", "ff02::1"):
        assert not public_address(ipaddress.ip_address(a)), a

    async def check(url: str, allow: bool = False) -> list[str]:
        return [str(a) for a in await webhook_addresses(url, allow)]

    assert await check("https://93.184.215.14/h") == ["93.184.215.14"]
    assert await check("http://127.0.0.1:9/h", allow=True) == ["127.0.0.1"]
    with pytest.raises(WebhookRefused, match=r"resolves to (127\.0\.0\.1|::1)"):
        await check("http://localhost:8000/h")
    with pytest.raises(WebhookRefused, match="does not resolve"):
        await check("http://no-such-host.invalid/h", allow=True)
    url, headers, ext = pinned("https://u@hooks.example:8443/a?b=1", ipaddress.ip_address("::5"))
    assert url == "https://[::5]:8443/a?b=1"
    assert headers == {"Host": "hooks.example:8443"} and ext == {"sni_hostname": "hooks.example"}
    monkeypatch.setenv("TAASH_WEBHOOK_ALLOW_PRIVATE", "1")
    assert Settings.from_env().webhook_allow_private
    monkeypatch.setenv("TAASH_WEBHOOK_ALLOW_PRIVATE", "maybe")
    with pytest.raises(ConfigError):
        Settings.from_env()
    monkeypatch.delenv("TAASH_WEBHOOK_ALLOW_PRIVATE")
    assert not Settings.from_env().webhook_allow_private


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


async def test_rate_limit_answers_429(tmp_path: Path) -> None:
    async def go() -> list[int]:
        # one token a hundred seconds: the burst of 3 is all there is during the test, however
        # slowly a loaded machine runs it (at 2 a second a slow run refilled one: a flake)
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'u.db'}", rate_limit=0.01,
                            rate_burst=3, address_rate_factor=1, sweep_s=60)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        services = Services(settings, store)
        await services.start()
        app = create_app(settings, services=services)
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
            await services.close()
            await store.close()
        return codes

    assert await go() == [200, 200, 200, 429, 429, 200]


async def test_group_commit_checks_each_action(tmp_path: Path) -> None:
    """Two writers of one version in one batch (and a bystander): one wins, one conflicts,
    the bystander is committed."""
    from taash.server.store.db import SeatRow, TableRow, VersionConflict

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

    out = await go()
    assert isinstance(out[0], float) and isinstance(out[2], float)
    assert isinstance(out[1], VersionConflict)


async def test_the_sqlite_log_is_truncated_now_and_then_while_the_store_is_open(
        tmp_path: Path) -> None:
    """The periodic checkpoint: a log far under its size limit is still emptied once its time
    is up, while the store stays open (not only at close, which SQLite does by itself)."""
    from taash.server.store.db import SeatRow, TableRow

    db = tmp_path / "t.db"
    wal = Path(f"{db}-wal")

    async def go() -> tuple[int, int, int]:
        store = Store(Settings(db_url=f"sqlite:///{db}").resolved_db_url())
        await store.migrate()
        writer = store._sqlite_writer
        assert writer is not None
        try:
            await store.create_table(TableRow(
                id="a", game="goat", options={}, seed=1, first_seat=0, live=False, open=False,
                bot_delay_ms=0, turn_timer_s=None, created=0, updated=0,
                seats=[SeatRow(s, "human") for s in range(4)]))
            await store.append_action("a", 0, 1, "lead:6S", None, [], 2, False)
            before = wal.stat().st_size
            truncated = writer.truncated
            task = asyncio.create_task(store._checkpoints(every=0.05, truncate_every=0.3))
            end = asyncio.get_running_loop().time() + 10
            while writer.truncated == truncated and asyncio.get_running_loop().time() < end:
                await asyncio.sleep(0.05)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            after = wal.stat().st_size if wal.exists() else 0
            assert [r.action for r in await store.load_actions("a")] == ["lead:6S"]
            return before, writer.truncated - truncated, after
        finally:
            await store.close()

    before, made, after = await go()
    assert 0 < before < 16 * 1024 * 1024  # written, and far under the size limit
    assert made >= 1 and after == 0, (made, after)


async def test_presence_of_seats_on_other_instances(tmp_path: Path) -> None:
    """What other instances tell of their connected seats: shown, ordered by message number,
    forgotten when they go or fall silent; and this instance tells its own."""
    import json
    import time

    from taash.server.tables.bus import Bus

    class Heard(Bus):
        shared = True

        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        async def publish(self, message: dict[str, Any]) -> None:
            self.sent.append(message)

    async def go() -> None:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'p.db'}", sweep_s=60)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        bus = Heard()
        services = Services(settings, store, bus)
        hub = services.hub
        try:
            t, _ = await services.tables.create("court-piece-2p", None, None, True, False,
                                                None, None, 0)
            room = hub.rooms[t.id]
            watcher = room.subscribe(None)  # a spectator: not a seat, not told to others

            def seats() -> list[bool]:
                return [s["connected"] for s in wire.table_info(room)["seats"]]

            def heard() -> list[list[bool]]:
                out = [[s["connected"] for s in json.loads(text)["table"]["seats"]]
                       for _, text in watcher.queue]
                watcher.queue.clear()
                return out

            # the table's own news of one more spectator (its count), nothing on the bus
            assert bus.sent == [] and heard() == [[False, False]]
            assert wire.table_info(room)["spectators"] == 1

            here = {"k": "here", "i": "other", "rooms": {t.id: [1]}}
            hub.presence.on_message({**here, "n": 5})
            assert seats() == [False, True] and heard() == [[False, True]]
            hub.presence.on_message({**here, "n": 4, "rooms": {t.id: []}})  # late: ignored
            mine = {**here, "i": hub.instance, "n": 9, "rooms": {t.id: [0]}}
            hub.presence.on_message(mine)  # this instance's own: ignored
            assert seats() == [False, True] and heard() == []
            hub.presence.on_message({"k": "gone", "i": "other"})
            assert seats() == [False, False] and heard() == [[False, False]]
            hub.presence.on_message({**here, "n": 6})
            hub.presence.forget(time.monotonic() - 60)  # heard lately: kept
            assert seats() == [False, True]
            hub.presence.forget(time.monotonic() + 1)  # silent too long: forgotten
            assert seats() == [False, False] and heard() == [[False, True], [False, False]]
            sub = room.subscribe(0)  # a seat here: the others are told, numbered
            await asyncio.sleep(0)
            room.unsubscribe(sub)
            await asyncio.sleep(0)
            told = [(m["k"], m["rooms"]) for m in bus.sent]
            assert told == [("here", {t.id: [0]}), ("here", {t.id: []})]
            assert bus.sent[0]["n"] < bus.sent[1]["n"]
            quiet = hub.presence.n
            hub.presence.on_message({"k": "who", "i": "other", "t": t.id})  # nothing here to tell
            assert hub.presence.n == quiet  # decided at once: no message made, none to wait for
            room.subscribe(0)
            hub.presence.on_message({"k": "who", "i": "other", "t": t.id})  # now there is
            for _ in range(100):
                if len(bus.sent) == 4:
                    break
                await asyncio.sleep(0)
            assert [(m["k"], m["rooms"], m["n"]) for m in bus.sent[2:]] == [
                ("here", {t.id: [0]}, quiet + 1), ("here", {t.id: [0]}, quiet + 2)]
        finally:
            await services.close()
            await store.close()

    await go()


async def test_an_unexpected_error_is_json_without_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def go() -> httpx.Response:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'e.db'}", sweep_s=60)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        services = Services(settings, store)

        async def broken() -> list[dict[str, object]]:
            raise RuntimeError("the lobby fell over")

        services.tables.lobby = broken  # type: ignore[method-assign]
        app = create_app(settings, services=services)
        try:
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                return await c.get("/api/lobby")
        finally:
            await services.close()
            await store.close()

    caplog.set_level(logging.INFO)
    r = await go()
    assert r.status_code == 500
    rid = r.headers["x-request-id"]
    assert len(rid) == 16
    assert r.json() == {"error": {"code": "internal", "rule": None,
                                  "message": f"internal error {rid}; it has been logged"},
                        "request_id": rid}
    assert "fell over" not in r.text and "Traceback" not in r.text
    # one line in the log, with the request id, and no traceback
    errors = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert len(errors) == 1 and rid in errors[0].getMessage()
    assert errors[0].exc_info is None and "\n" not in errors[0].getMessage()


async def test_an_instance_behind_the_store_judges_an_action_after_catching_up(
        tmp_path: Path) -> None:
    """Two instances on one database: a move committed on one, the next move sent to the
    other before its bus brought the news.  It is taken (the room reads what it missed from
    the store and judges again), not refused on the old state; a move that is illegal on the
    latest state too is still refused, and so is a stale version."""

    from taash.games.base import IllegalAction
    from taash.server.errors import Stale
    from taash.server.tables.bus import Bus

    class Deaf(Bus):  # shared, but nothing published reaches the other instance
        shared = True

        async def publish(self, message: dict[str, Any]) -> None:
            return None

    async def go() -> None:
        url = f"sqlite:///{tmp_path / 'two.db'}"
        hubs: list[Services] = []
        stores: list[Store] = []
        try:
            for _ in range(2):
                settings = Settings(db_url=url, sweep_s=60)
                store = Store(settings.resolved_db_url())
                await store.migrate()
                stores.append(store)
                hubs.append(Services(settings, store, Deaf()))
            a, b = hubs
            seats = [{"type": "human"}, {"type": "human"}]
            t, _ = await a.tables.create("court-piece-2p", None, seats, True, False, None,
                                         None, 0)  # type: ignore[arg-type]
            on_a, on_b = a.hub.rooms[t.id], await b.room(t.id)
            for n in range(3):  # b moves; the next move goes to a, which has not heard
                seat = on_b.state.turn()
                assert seat is not None
                await on_b.submit(seat, on_b.state.legal_actions(seat)[0], f"b{n}")
                assert on_a.version == on_b.version - 1  # a is behind
                nxt = on_b.state.turn()
                assert nxt is not None
                move = on_b.state.legal_actions(nxt)[0]
                # with the version acted on (the page's way), then without (the terminal's)
                answer = await on_a.submit(nxt, move, f"a{n}",
                                           expected=on_b.version if n % 2 == 0 else None)
                assert answer["version"] == on_a.version == on_b.version + 1
                await on_b.on_remote(on_a.version)  # b hears of it (as by the bus)
            with pytest.raises(Stale):  # acted on an old version: refused all the same
                await on_a.submit(nxt, move, "old", expected=1)
            now = on_a.state.turn()
            assert now is not None
            wrong = 1 - now
            with pytest.raises(IllegalAction):  # illegal on the latest state too
                await on_a.submit(wrong, on_a.state.legal_actions(now)[0], "wrong")
        finally:
            for h in hubs:
                await h.close()
            for s in stores:
                await s.close()

    await go()


async def test_a_reminder_never_comes_before_the_turns_first_notice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn whose first notice has not gone yet when the sweeper looks (its move's notice
    was slow on a busy machine, or the process stopped first) gets that notice, "your turn",
    from the sweeper, and only at a later sweep the reminder: a player was told "still your
    turn" before "your turn" (seen in tests/server/notify/test_push.py under load)."""
    from taash.server import app as app_module
    from taash.server.notify import notices

    sent: list[str] = []
    real = notices.send_notice

    async def recorded(hub: Any, room: Any, seat: int, version: int, kind: str) -> bool:
        done = await real(hub, room, seat, version, kind)
        if done:
            sent.append(kind)
        return done

    monkeypatch.setattr(app_module, "send_notice", recorded)
    monkeypatch.setattr(app_module, "notify_turn", lambda hub, room: None)  # the move's own
    # notice does not go: as if it were still on its way

    async def go() -> None:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'n.db'}", sweep_s=60,
                            remind_after_s=0.0)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        services = Services(settings, store)
        hub = services.hub
        services.notifier.send = lambda *a, **k: None  # type: ignore[method-assign]
        try:
            t, _ = await services.tables.create("court-piece-2p", None, None, True, False,
                                                None, None, 1)
            room = hub.rooms[t.id]
            caller = room.state.actors()[0]
            await hub.store.update_seat(t.id, caller, webhook="https://example.org/hook")
            await room.reload_meta()
            while room.meta.to_move in (None, caller):  # the caller calls trump and leads
                seat = room.state.actors()[0]
                await room.submit(seat, room.state.legal_actions(seat)[0])
            to_move = room.meta.to_move
            assert to_move is not None and to_move != caller
            await hub.store.update_seat(t.id, to_move, webhook="https://example.org/hook")
            await asyncio.sleep(0.01)  # the move is older than remind_after
            await hub.sweep()
            assert sent == ["notified"]
            await hub.sweep()
            assert sent == ["notified", "reminded"]
            await hub.sweep()
            assert sent == ["notified", "reminded"]  # once each
        finally:
            await services.close()
            await store.close()

    await go()
