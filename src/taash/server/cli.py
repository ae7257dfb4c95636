"""``taash serve``: the game server, on SQLite with no configuration, or PostgreSQL and Redis
to scale out.  Errors are one line on stderr, never a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from taash.server.config import ConfigError, Settings, parse_ice_servers

if TYPE_CHECKING:
    from taash.server.app import Services

log = logging.getLogger("taash.server")

SHUTDOWN_S = 10.0  # at most this long for each of the hub and the store to close


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"taash: {message}", err=True)
    return typer.Exit(code)


def bind(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise _fail(f"cannot listen on {host}:{port}: {e.strerror}") from None
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as e:
        sock.close()
        why = "the port is in use" if e.errno == errno.EADDRINUSE else e.strerror or str(e)
        raise _fail(f"cannot listen on {host}:{port}: {why}") from None
    sock.set_inheritable(True)
    return sock


async def open_hub(settings: Settings) -> Services:
    """The store (migrated), the bus and the process's services, or a one-line ConfigError."""
    from sqlalchemy.exc import SQLAlchemyError

    from taash.server.app import Services
    from taash.server.notify.notifier import NotifyConfigError
    from taash.server.store.db import Store
    from taash.server.tables.bus import Bus, RedisBus

    url = settings.resolved_db_url()
    store = Store(url, wal_limit=settings.wal_limit)
    try:
        await store.migrate()
    except (OSError, SQLAlchemyError) as e:
        await store.close()
        msg = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        where = url.render_as_string(hide_password=True)
        raise ConfigError(f"cannot open the database {where}: {msg}") from None
    bus: Bus = Bus()
    if settings.redis_url:
        try:
            rbus = RedisBus(settings.redis_url, settings.bus_channel())
            await rbus.check()
        except Exception as e:
            await store.close()
            raise ConfigError(f"cannot reach Redis at {settings.redis_url}: {e}") from None
        bus = rbus
    try:
        hub = Services(settings, store, bus)
    except NotifyConfigError as e:
        await store.close()
        raise ConfigError(str(e)) from None
    await hub.start()
    return hub


def check_config(settings: Settings) -> None:
    """``taash serve --check-config``: every setting parsed, the database and Redis reached,
    nothing started or changed (the schema is only read).  One line per part, exit 0; or one
    error line and exit 2."""
    from sqlalchemy.ext.asyncio import create_async_engine

    from taash.server.ops.db import head_revision, revision

    try:
        url = settings.resolved_db_url()
        settings.check_public_url()
        settings.check_forwarded()
        if settings.smtp_url:
            from taash.server.notify.notifier import NotifyConfigError, SmtpConfig
            try:
                SmtpConfig.parse(settings.smtp_url)
            except NotifyConfigError as e:
                raise ConfigError(str(e)) from None
    except ConfigError as e:
        raise _fail(str(e)) from None
    where = url.render_as_string(hide_password=True)

    async def reach() -> str | None:
        if url.get_backend_name() == "sqlite" and not Path(url.database or "").exists():
            return None  # the file is made at the first start, not by a check
        engine = create_async_engine(url)
        try:
            async with engine.connect():
                pass
        finally:
            await engine.dispose()
        return await revision(url)

    async def reach_all() -> str | None:
        rev = await reach()
        if settings.redis_url:
            import redis.asyncio as aioredis

            r = aioredis.from_url(settings.redis_url, socket_timeout=3)
            try:
                await r.ping()
            finally:
                await r.aclose()
        return rev

    try:
        rev = asyncio.run(reach_all())
    except Exception as e:
        msg = str(getattr(e, "orig", None) or e).strip().splitlines()
        part = "Redis" if "redis" in type(e).__module__ else f"the database {where}"
        raise _fail(f"cannot reach {part}: {msg[0] if msg else type(e).__name__}") from None
    head = head_revision()
    schema = ("new (made at start)" if rev is None else
              f"{rev}, up to date" if rev == head else f"{rev} (taken to {head} at start)")
    typer.echo(f"database: {where}, schema {schema}")
    typer.echo(f"redis: {settings.redis_url or 'none (one instance)'}")
    typer.echo(f"smtp: {settings.smtp_url or 'none (no e-mails)'}")
    typer.echo(f"public url: {settings.public_url or 'from the address served on'}")
    typer.echo(f"trusted proxies: {settings.forwarded_allow_ips or 'none'}")
    typer.echo("configuration ok")


def serve(settings: Settings, host: str, port: int, log_level: str) -> None:
    import uvicorn

    from taash.server.app import create_app

    try:
        url = settings.resolved_db_url()
        settings.check_public_url()
        settings.check_forwarded()
    except ConfigError as e:
        raise _fail(str(e)) from None
    if settings.smtp_url:
        from taash.server.notify.notifier import NotifyConfigError, SmtpConfig
        try:
            SmtpConfig.parse(settings.smtp_url)
        except NotifyConfigError as e:
            raise _fail(str(e)) from None
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    if not settings.public_url:
        settings.public_url = f"http://{shown}:{real_port}"
    from taash.server.http.logs import set_up

    set_up(log_level, settings.log_format)

    class _StoppingServer(uvicorn.Server):
        hub: Services | None = None

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # SIGTERM (containers, systemd) stops as gently as SIGINT: uvicorn stops accepting
            # and finishes its requests, then main() closes the hub (the bus hears "gone") and
            # the store (its writes finished, SQLite's log truncated).  uvicorn would raise the
            # signal again once it has served, which ends the process before that shutdown
            # (SIGTERM's default) or in the middle of it (SIGINT's): so it is not raised again,
            # and a second signal during the shutdown only asks again.
            if threading.current_thread() is threading.main_thread():
                for sig in (signal.SIGINT, signal.SIGTERM):
                    signal.signal(sig, self.handle_exit)
            yield

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            assert self.hub is not None
            self.hub.begin_close()  # end streams and sockets now, not after the grace time
            await super().shutdown(sockets)

    async def main() -> None:
        # the database driver's thread waits for the event loop's GIL at every step: hand it
        # over sooner than the default 5 ms, or a busy loop slows every commit
        sys.setswitchinterval(0.0005)
        hub = await open_hub(settings)
        from taash.server.ops.gcpause import GcPauses

        # thousands of tables' long-lived objects: young garbage collected less often, what
        # start-up loaded frozen out of the collections, every pause timed
        hub.metrics.gc = pauses = GcPauses()
        pauses.start()
        app = create_app(settings, services=hub)
        from taash.server.http.deadline import MAX_HEAD, deadline_protocol

        config = uvicorn.Config(app, log_level=log_level.lower(), access_log=False,
                                # JSON: uvicorn's own records go through our handler too
                                log_config=None if settings.log_format == "json" else
                                uvicorn.config.LOGGING_CONFIG,
                                timeout_graceful_shutdown=3, ws_max_size=settings.max_body,
                                lifespan="on", ws_ping_interval=20, ws_ping_timeout=20,
                                proxy_headers=True,
                                forwarded_allow_ips=settings.forwarded_allow_ips or [],
                                # slow and idle clients: a deadline on each request head, a
                                # short keep-alive, a bounded head, and a cap on connections
                                # (503 past it)
                                http=deadline_protocol(settings.header_timeout_s),
                                timeout_keep_alive=max(1, round(settings.keep_alive_s)),
                                h11_max_incomplete_event_size=MAX_HEAD,
                                limit_concurrency=settings.max_connections or None)
        server = _StoppingServer(config)
        server.hub = hub
        where = url.render_as_string(hide_password=True)
        typer.echo(f"taash serving on {settings.public_url} (database {where}"
                   f"{', redis ' + settings.redis_url if settings.redis_url else ''})")
        sys.stdout.flush()
        try:
            await server.serve(sockets=[sock])
        finally:
            try:  # bounded: a stuck bus or database does not keep the process alive
                await asyncio.wait_for(hub.close(), SHUTDOWN_S)
            except TimeoutError:
                log.warning("the hub did not close in %s s", SHUTDOWN_S)
            pauses.stop()
            try:
                await asyncio.wait_for(hub.store.close(), SHUTDOWN_S)
            except TimeoutError:
                log.warning("the database did not close in %s s", SHUTDOWN_S)

    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(main())
    except ConfigError as e:
        raise _fail(str(e)) from None
    except KeyboardInterrupt:
        pass
    typer.echo("taash: server stopped")


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (uvicorn[standard] brings it, except on
    Windows): its sockets, timers and callbacks cost the server a fraction of asyncio's own
    loop's CPU per action (bench/RESULTS.md, 2026-12-04).  None: asyncio's default."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_command(
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=0, max=65535, help="port (0: any free)")] = 8000,
        db: Annotated[str | None, typer.Option(
            "--db", envvar="TAASH_DATABASE_URL",
            help="database URL (default: a SQLite file in your data folder), e.g. "
                 "postgresql+asyncpg://user@host/taash")] = None,
        redis: Annotated[str | None, typer.Option(
            "--redis", envvar="TAASH_REDIS_URL",
            help="Redis URL: share live events between several servers")] = None,
        smtp: Annotated[str | None, typer.Option(
            "--smtp", envvar="TAASH_SMTP_URL",
            help="SMTP server for turn emails: smtp://host:port?from=address")] = None,
        public_url: Annotated[str | None, typer.Option(
            "--public-url", envvar="TAASH_PUBLIC_URL",
            help="the address players reach, for links in notices")] = None,
        remind_after: Annotated[float | None, typer.Option(
            "--remind-after", min=0, help="remind a player waited for this many seconds "
            "[env TAASH_REMIND_AFTER, default a day]")] = None,
        sweep: Annotated[float | None, typer.Option(
            "--sweep", min=0.05, help="seconds between looks for reminders, stalled bots and "
            "turn timers [env TAASH_SWEEP_INTERVAL, default 30]")] = None,
        rate_limit: Annotated[float | None, typer.Option(
            "--rate-limit", min=0, help="requests per second per seat (4 times as many per "
            "client address), 0 for no per-client limits [env TAASH_RATE_LIMIT, default 20; "
            "TAASH_RATE_BURST, default 60; TAASH_LIVE_PER_CLIENT live connections per address, "
            "default 64]")] = None,
        bot_delay: Annotated[int | None, typer.Option(
            "--bot-delay", min=0, help="default bot delay at live tables, ms "
            "[env TAASH_BOT_DELAY_MS, default 700]")] = None,
        idle_after: Annotated[float | None, typer.Option(
            "--idle-after", min=0, help="a table with no one connected and no human move "
            "for this many seconds stops its bots until someone comes back; 0: never "
            "[env TAASH_IDLE_AFTER, default 600]")] = None,
        webhook_allow_private: Annotated[bool, typer.Option(
            "--webhook-allow-private", help="let turn webhooks call private, loopback and "
            "link-local addresses; for a trusted network only "
            "[env TAASH_WEBHOOK_ALLOW_PRIVATE, default off]")] = False,
        vapid_private_key: Annotated[str | None, typer.Option(
            "--vapid-private-key", envvar="TAASH_VAPID_PRIVATE_KEY",
            help="Web Push VAPID private key, raw P-256 in base64url (default: made at "
                 "first start and kept in the database)")] = None,
        push_allow_origins: Annotated[str | None, typer.Option(
            "--push-allow-origins", envvar="TAASH_PUSH_ALLOW_ORIGINS",
            help="origins a push endpoint may have besides public https ones, "
                 "comma-separated (a test push service: http://127.0.0.1:PORT)")] = None,
        forwarded_allow_ips: Annotated[str | None, typer.Option(
            "--forwarded-allow-ips", envvar="TAASH_FORWARDED_ALLOW_IPS",
            help="proxies whose X-Forwarded-For/-Proto are believed, comma-separated "
                 "(default: none; 127.0.0.1 for Caddy on this machine)")] = None,
        log_format: Annotated[str, typer.Option(
            "--log-format", envvar="TAASH_LOG_FORMAT",
            help="text, or json: one object a line, a line per request with its id")] = "text",
        metrics_token: Annotated[str | None, typer.Option(
            "--metrics-token", envvar="TAASH_METRICS_TOKEN",
            help="turn GET /metrics (Prometheus) on for requests bearing this token")] = None,
        ice_servers: Annotated[str | None, typer.Option(
            "--ice-servers", envvar="TAASH_ICE_SERVERS",
            help="voice: STUN/TURN servers for the page, a JSON list of RTCIceServer "
                 "objects, e.g. '[{\"urls\": \"turn:turn.example.org:3478\"}]' "
                 "(default none: voice between players on the same network only)")] = None,
        turn_secret: Annotated[str | None, typer.Option(
            "--turn-secret", envvar="TAASH_TURN_SECRET",
            help="voice: the TURN server's static-auth-secret (coturn use-auth-secret); "
                 "each seat gets a time-limited credential")] = None,
        turn_ttl: Annotated[float | None, typer.Option(
            "--turn-ttl", min=60, help="seconds a TURN credential is valid "
            "[env TAASH_TURN_TTL, default 21600]")] = None,
        check: Annotated[bool, typer.Option(
            "--check-config", help="check the settings, reach the database and Redis, "
                                   "and exit without serving")] = False,
        log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "warning",
    ) -> None:
        """Run the game server: HTTP API, live channel and web interface."""
        try:
            settings = Settings.from_env()
        except ConfigError as e:
            raise _fail(str(e)) from None
        settings.db_url = db or ""
        settings.redis_url = redis or None
        settings.smtp_url = smtp or None
        settings.public_url = public_url.rstrip("/") if public_url else None
        if remind_after is not None:
            settings.remind_after_s = remind_after
        if sweep is not None:
            settings.sweep_s = sweep
        if rate_limit is not None:
            settings.rate_limit = rate_limit
        if bot_delay is not None:
            settings.bot_delay_ms = bot_delay
        if idle_after is not None:
            settings.idle_after_s = idle_after
        if webhook_allow_private:
            settings.webhook_allow_private = True
        if log_format not in ("text", "json"):
            raise _fail(f"--log-format: text or json, not {log_format!r}")
        settings.log_format = log_format
        if metrics_token:
            if len(metrics_token) < 16:
                raise _fail("--metrics-token: use at least 16 characters")
            settings.metrics_token = metrics_token
        if vapid_private_key is not None:
            settings.vapid_private_key = vapid_private_key.strip() or None
        if push_allow_origins is not None:
            settings.push_allow_origins = push_allow_origins
        if ice_servers is not None:
            try:
                settings.ice_servers = parse_ice_servers(ice_servers)
            except ConfigError as e:
                raise _fail(str(e)) from None
        if turn_secret:
            settings.turn_secret = turn_secret
        if turn_ttl is not None:
            settings.turn_ttl_s = turn_ttl
        if forwarded_allow_ips is not None:
            settings.forwarded_allow_ips = forwarded_allow_ips.strip()
        if log_level.lower() not in ("debug", "info", "warning", "error", "critical"):
            raise _fail(f"unknown log level {log_level!r}")
        if check:
            check_config(settings)
            return
        serve(settings, host, port, log_level)
