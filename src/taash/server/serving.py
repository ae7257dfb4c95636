"""``taash serve``'s work, loaded only when a server starts: checking the settings, opening the
store, the bus and the hub, and running uvicorn on them until a signal stops it.  Errors are one
line on stderr, never a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType

import redis.asyncio as aioredis
import typer
import uvicorn
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import create_async_engine

from taash.server.app import Services, create_app
from taash.server.config import ConfigError, Settings
from taash.server.http.deadline import MAX_HEAD, deadline_protocol
from taash.server.http.logs import set_up
from taash.server.notify.notifier import NotifyConfigError, SmtpConfig
from taash.server.ops.db import head_revision, revision
from taash.server.ops.gcpause import GcPauses
from taash.server.store.db import Store
from taash.server.tables.bus import Bus, RedisBus

uvloop: ModuleType | None
try:
    import uvloop
except ImportError:  # uvicorn[standard] brings it, except on Windows
    uvloop = None

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
    url = settings.resolved_db_url()
    store = Store(url, wal_limit=settings.wal_limit,
                  commit_wait_s=settings.commit_wait_ms / 1000)
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
    try:
        url = settings.resolved_db_url()
        settings.check_public_url()
        settings.check_forwarded()
        if settings.smtp_url:
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


def serve(settings: Settings, host: str, port: int, log_level: str) -> None:
    try:
        url = settings.resolved_db_url()
        settings.check_public_url()
        settings.check_forwarded()
    except ConfigError as e:
        raise _fail(str(e)) from None
    if settings.smtp_url:
        try:
            SmtpConfig.parse(settings.smtp_url)
        except NotifyConfigError as e:
            raise _fail(str(e)) from None
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    if not settings.public_url:
        settings.public_url = f"http://{shown}:{real_port}"
    if not settings.instance_url:  # where the other instances forward this one's tables
        near = socket.gethostname() if host in ("", "0.0.0.0", "::") else shown
        settings.instance_url = f"http://{near}:{real_port}"
    set_up(log_level, settings.log_format)

    async def main() -> None:
        # the database driver's thread waits for the event loop's GIL at every step: hand it
        # over sooner than the default 5 ms, or a busy loop slows every commit
        sys.setswitchinterval(0.0005)
        hub = await open_hub(settings)
        # thousands of tables' long-lived objects: young garbage collected less often, what
        # start-up loaded frozen out of the collections, every pause timed
        hub.metrics.gc = pauses = GcPauses()
        pauses.start()
        app = create_app(settings, services=hub)
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


def run(flags: Mapping[str, object], host: str, port: int, log_level: str, *,
        check: bool = False) -> None:
    """``taash serve``: the settings from the environment and the flags given (by field name),
    then the check (``--check-config``) or the server."""
    try:
        settings = Settings.load(flags)
    except ConfigError as e:
        raise _fail(str(e)) from None
    if log_level.lower() not in ("debug", "info", "warning", "error", "critical"):
        raise _fail(f"unknown log level {log_level!r}")
    if check:
        check_config(settings)
        return
    serve(settings, host, port, log_level)


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (uvicorn[standard] brings it, except on
    Windows): its sockets, timers and callbacks cost the server a fraction of asyncio's own
    loop's CPU per action (bench/RESULTS.md, 2026-12-04).  None: asyncio's default."""
    return None if uvloop is None else uvloop.new_event_loop
