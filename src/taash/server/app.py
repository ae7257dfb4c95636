"""The ASGI app: each domain's router (the HTTP API of docs/API.md and the live channel),
the guards in front of them and the web interface's files; and the composition of one
process's services (``Services``: each built once, handed its collaborators), which the
lifespan puts where the routes ask for them (``taash.server.http.deps``).  The HTTP status of
each refusal is chosen in ``taash.server.http.errors``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES

from taash.games import describe_games
from taash.server.accounts import me, me_data, sign_in_routes
from taash.server.accounts.deletion import finish_deletions
from taash.server.accounts.email_sign_in import EmailSignIn
from taash.server.accounts.identity import Identity
from taash.server.accounts.link import Linker
from taash.server.accounts.me import page_player
from taash.server.accounts.passkeys import Passkeys
from taash.server.accounts.players import Players
from taash.server.accounts.sign_in import SignIn
from taash.server.accounts.tokens import Tokens
from taash.server.clubs import routes as club_routes
from taash.server.clubs.play import ClubPlay
from taash.server.clubs.service import Clubs
from taash.server.config import Settings
from taash.server.errors import DomainError, RateLimited
from taash.server.events import routes as event_routes
from taash.server.events.best import BestResults
from taash.server.events.play import Boards
from taash.server.events.service import Events
from taash.server.fairplay import routes as fairplay_routes
from taash.server.fairplay.service import FairPlay
from taash.server.http.errors import STATUS, STATUS_CODES, error_response, refusal, status_of
from taash.server.http.guard import Guard, TokenBuckets
from taash.server.http.handlers import add_error_handlers
from taash.server.http.offline_files import (
    OFFLINE_PATH,
    GZipUnlessOffline,
    OfflineListing,
    Precompressed,
)
from taash.server.http.openapi import documented
from taash.server.notify import push_routes, turn_routes
from taash.server.notify.event_notice import EventPlace, events_closed
from taash.server.notify.fairplay_notice import fairplay_told
from taash.server.notify.notices import notify_turn, send_notice
from taash.server.notify.notifier import Notifier
from taash.server.notify.push import Pusher
from taash.server.ops import routes as ops_routes
from taash.server.ops.metrics import Metrics
from taash.server.puzzles import routes as puzzle_routes
from taash.server.puzzles.service import Puzzles
from taash.server.puzzles_mining.service import Mining
from taash.server.review import routes as review_routes
from taash.server.review.analyses import Analyses
from taash.server.social import routes as social_routes
from taash.server.social.friends import Friends
from taash.server.social.profiles import Social
from taash.server.store.db import Store
from taash.server.tables import chat, live
from taash.server.tables import routes as table_routes
from taash.server.tables.access import Callers
from taash.server.tables.bus import Bus, Heard
from taash.server.tables.deps import Signals
from taash.server.tables.forward import Forward
from taash.server.tables.hub import Hub
from taash.server.tables.room import Room
from taash.server.tables.service import Tables
from taash.server.tournaments import routes as tournament_routes
from taash.server.tournaments.play import Running
from taash.server.tournaments.service import Tournaments
from taash.server.voice import routes as voice_routes
from taash.server.voice.relay import Voice

__all__ = ["ROUTERS", "STATUS", "STATUS_CODES", "Services", "add_error_handlers", "create_app",
           "status_of"]

log = logging.getLogger("taash.server")

def web_dir() -> Path:
    return Path(str(resources.files("taash"))) / "web"


NO_WEB = ("<!doctype html><meta charset=utf-8><title>taash</title><p>This taash server has no "
          "web interface installed. The API is described at <a href=/docs>/docs</a>.</p>")


# Every domain's routes, in the order they are matched.
ROUTERS = tuple(m.router for m in (ops_routes, table_routes, turn_routes, review_routes, me,
                                   me_data, sign_in_routes, push_routes, social_routes, live,
                                   voice_routes, chat, event_routes, club_routes,
                                   tournament_routes, fairplay_routes, puzzle_routes))

# The services the routes ask for by name (``taash.server.http.deps.service``).
SERVICES = ("store", "bus", "tables", "players", "tokens", "identity", "linker", "sign_in",
            "passkeys", "email", "analyses", "push", "social", "friends", "voice", "metrics",
            "events", "event_boards", "clubs", "club_play", "tournaments",
            "tournament_play", "fairplay", "puzzles")


#: the addresses that are the web interface's page: home, a table, an offline table (played in
#: the page) and offline play's screen, a deal's review, a profile, the leaderboards, a friend
#: code's link, a link code, an e-mail sign-in
PAGES = ("/", "/t/{table_id}", "/offline/{game}", "/offline", "/review", "/p/{player_id}",
         "/leaderboard", "/friend/{code}", "/link", "/email/{what}", "/learn/{game}",
         "/rules/{game}", "/puzzles", "/puzzles/{puzzle_id}")
SESSIONS_SWEEP_S = 3600  # expired and revoked sessions are forgotten this often


class Services:
    """Every service of one server process, each built once and handed what it uses: the
    tables' hub (rooms, bus, presence, bot pool, sweeper) and the other domains' services
    around it, subscribed to what the hub tells (``Hub.match_ended``, ``turn_moved``...).
    ``taash serve``, the tests and the benchmarks build the process with this alone."""

    def __init__(self, settings: Settings, store: Store, bus: Bus | None = None) -> None:
        self.settings, self.store = settings, store
        self.public_url = settings.public_url or ""
        self.notifier = Notifier(settings.smtp_url, settings.webhook_allow_private)
        self.metrics = Metrics()
        store.on_write = self.metrics.wrote
        self.hub = hub = Hub(settings, store, bus, self.metrics)
        self.bus = hub.bus
        self.tables = Tables(hub)
        self.players = Players(settings, store, self.bus, hub.rooms, self.tables.my_row)
        self.linker = Linker(settings, store, self.players)
        self.tokens = Tokens(store, self.players, self.bus)
        self.identity: Callers = Identity(self.players, self.tokens)  # who calls, for tables
        self.voice = Voice(hub.rooms, self.bus, hub.instance)
        signals: Signals = self.voice  # checked here: the table's socket takes it as Signals
        del signals
        self.sign_in = SignIn(settings, store, self.players, self.notifier, self.bus)
        self.passkeys = Passkeys(store)
        self.email = EmailSignIn(store, self.notifier, hub.spawn)
        self.analyses = Analyses(store, settings.analysis_solver_time)
        self.push = Pusher(settings, store)
        self.social = Social(store, hub.room)
        self.friends = Friends(self)
        self.events = Events(store)
        self.event_boards = Boards(self.events, BestResults(store, settings.event_best_time))
        self.clubs = Clubs(store, self.events)
        self.club_play = ClubPlay(self.clubs, self.tables)
        self.events.gate = self.clubs  # a club's event: its members enter, unlisted
        self.tournaments = Tournaments(store)
        self.tournaments.clubs = self.clubs  # a club's tournament: its admins, its members
        self.tournament_play = Running(self.tournaments, self.tables)
        # the shipped set (read on the first puzzle asked), then the puzzles mined here
        self.puzzles = Puzzles(store)
        self.social.finals = self.tournament_play.finals  # featured first on home
        # fair play: finished matches to the detector; a ban from rated play reaches the
        # ratings (social) and the seats (tables)
        self.fairplay = FairPlay(settings, store, self.social.unrate,
                                 tell=lambda p, kind: fairplay_told(self.push, p, kind))
        self.social.banned = self.fairplay.banned
        hub.bars = self.fairplay.bars
        self.mining = Mining(settings, store, self.metrics.registry)
        self._forgot = -float("inf")
        hub.match_ended.append(self.social.match_over)
        hub.match_ended.append(self.tournament_over)
        hub.match_ended.append(self.fairplay.match_over)
        self.mining.listen(hub)
        hub.turn_moved.append(self.turn_changed)
        hub.seat_freed.append(self.push.store.drop_seat)
        hub.room_dropped.append(self.voice.forget)
        hub.owners.forwarded = lambda kind: self.metrics.forwarded.labels(kind).inc()
        hub.listen(("here", "gone", "who", "vp", "vs"), self.voice.on_bus)
        hub.listen(("revoked",), self.revoked)
        hub.listen(("rejoined", "reread"), self.recheck)
        hub.blocks = self.friends.store.blocked_by_any
        hub.chores += [self.caught_up, self.remind, self.forget_expired,
                       self.tournament_play.tick, self.events_closed]

    # what the services ask of the process (notify.notices.Host, social.friends.Host)
    def spawn(self, coro: Awaitable[object]) -> None:
        self.hub.spawn(coro)

    async def room(self, table_id: str) -> Room:
        return await self.hub.room(table_id)

    async def meta_changed(self, room: Room) -> None:
        await self.hub.meta_changed(room)

    # what the hub tells
    async def tournament_over(self, room: Room) -> None:
        """A match ended: its tournament's game, if it is one, takes the result."""
        try:
            await self.tournament_play.table_over(room.id)
        except Exception:  # the match is committed; the tournament's sweep takes it later
            log.exception("table %s: tournament result", room.id)

    def turn_changed(self, room: Room) -> None:
        """A move here: tell the human seat to move now, unless it is connected."""
        notify_turn(self, room)

    async def revoked(self, msg: Heard) -> None:
        """A session revoked on another instance: its live connections here end."""
        self.players.end_session(str(msg.get("s")))

    async def recheck(self, msg: Heard) -> None:
        """The bus was away: revocations said meanwhile were lost; the store has them."""
        ended = await self.players.recheck()
        if ended:
            log.warning("%d sessions or tokens revoked while the bus was away: their live "
                     "connections ended", len(ended))

    async def caught_up(self, starting: bool) -> None:
        if starting:  # results a stop kept from being written (issue 28)
            await self.social.catch_up()

    async def remind(self, starting: bool) -> None:
        """Remind the humans who have kept a table waiting."""
        for table_id, seat, version in await self.store.waiting_humans(
                time.time() - self.settings.remind_after_s):
            try:
                room = await self.hub.room(table_id)
            except DomainError:
                continue
            # a turn's first notice goes before its reminder: one that has not gone yet (its
            # move's own notice was slow, or the process stopped first) goes now, and the
            # reminder at a later sweep
            if room.version == version and not await send_notice(self, room, seat, version,
                                                                  "notified"):
                await send_notice(self, room, seat, version, "reminded")

    async def events_closed(self, starting: bool) -> None:
        """Tell the entrants of each event that has closed their place, by push (issue 45):
        once, by whichever instance claims the event first."""
        events_closed(self.push, [EventPlace(n.player, n.event, n.game, n.rank, n.field,
                                             n.percent)
                                  for n in await self.event_boards.closed_notices()])

    async def forget_expired(self, starting: bool) -> None:
        """Hourly: forget the sessions, link codes, challenges and e-mail links that expired
        or were revoked a day ago."""
        if time.monotonic() - self._forgot < SESSIONS_SWEEP_S:
            return
        self._forgot = time.monotonic()
        now = time.time()
        await self.store.drop_sessions(now, now - 86400)
        await self.store.drop_link_codes(now - 86400)
        await self.store.drop_challenges(now)
        await self.store.drop_email_links(now - 86400)
        await finish_deletions(self.store)  # account deletions a stop left half done

    async def start(self) -> None:
        self.metrics.watch(self.hub.rooms)
        self.metrics.watch_reads(self.store.engine)
        await self.push.start()
        await self.hub.start()
        self.fairplay.start()
        self.mining.start()

    def begin_close(self) -> None:
        """Stop serving live connections: every stream and socket ends."""
        self.hub.begin_close()

    async def close(self) -> None:
        await self.hub.close()
        await self.fairplay.close()
        await self.mining.close()
        await self.notifier.close()
        await self.push.close()
        self.metrics.stop()
        self.analyses.close()
        await self.event_boards.best.close()


def expose(app: FastAPI, services: Services) -> None:
    """Each service of the process on ``app.state``, where the routes' ``Depends`` find it."""
    app.state.hub = services.hub
    for name in SERVICES:
        setattr(app.state, name, getattr(services, name))


def create_app(settings: Settings, services: Services | None = None,
               open_services: Callable[[], Awaitable[Services]] | None = None) -> FastAPI:
    """The app; ``services`` if already running, else the lifespan has ``open_services``
    build and start them (and closes them at the end)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        s = (services if services is not None
             else await open_services() if open_services is not None else None)
        if s is None:
            raise RuntimeError("create_app needs services or open_services")
        expose(app, s)
        try:
            yield
        finally:
            if services is None:
                await s.close()
                await s.store.close()

    app = FastAPI(title="taash", version="1", lifespan=lifespan,
                  description="Court Piece, two-player Court Piece and Goat: tables, seats, "
                  "actions, live events.  See docs/API.md.")

    # a table another instance owns: its requests pass on to the owner (inside the guard, so
    # this instance's limits apply first; the owner's apply again)
    app.add_middleware(Forward)
    app.add_middleware(Guard, settings=settings, refuse=refusal)
    # the NDJSON stream stays uncompressed: each line leaves as it is written, and a stream
    # holds no compressor; offline play's files are compressed once, at build
    app.add_middleware(GZipUnlessOffline, minimum_size=500, compresslevel=6,
                       exclude_content_types=(*DEFAULT_EXCLUDED_CONTENT_TYPES,
                                              "application/x-ndjson"))
    app.state.settings = settings
    if services is not None:
        expose(app, services)
    # a checked seat's requests, whatever address they come from (the HTTP API's and the live
    # channel's actions)
    app.state.seat_buckets = TokenBuckets(settings.rate_limit, settings.rate_burst)
    app.state.chat_buckets = chat.chat_buckets()
    add_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    add_pages(app, settings)
    app.openapi = lambda: documented(app)  # type: ignore[method-assign]
    return app


def add_pages(app: FastAPI, settings: Settings) -> None:
    """The web interface: its page for ``/`` and each table, and its files.  A page load
    without a live session makes the visitor a guest player (the session cookie)."""

    async def index(request: Request) -> Response:
        page = web_dir() / "index.html"
        response = HTMLResponse(page.read_text(encoding="utf-8") if page.is_file() else NO_WEB)
        try:
            await page_player(request, response, settings)
        except RateLimited:  # too many new guests from this address: the page, no session
            pass
        except Exception as e:  # the page still loads; its /api/me asks again
            log.error("no session for a page load: %r", e)
        return response

    # the page's own addresses: it reads which screen from the path (and ?table=&deal= on
    # /review, ?code= on /link, #secret on /email/...)
    for path in PAGES:
        app.add_api_route(path, index, methods=["GET"], include_in_schema=False)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        """The page's service worker, at the site's root so that it may serve every page
        (offline); always asked anew, so a new version is taken at once."""
        path = web_dir() / "sw.js"
        if not path.is_file():
            return error_response(404, "not_found", "nothing at /sw.js")
        return Response(path.read_bytes(), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    games_json = json.dumps(describe_games()).encode()

    @app.get("/assets/games.json", include_in_schema=False)
    async def games_file() -> Response:
        """GET /api/games as one of the page's files: the page builds its game picker and
        new-table form from it, and the service worker keeps it with the others (offline)."""
        return Response(games_json, media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    offline_listing = OfflineListing(web_dir(), games_json)

    @app.get("/assets/offline.json", include_in_schema=False)
    async def offline_files() -> Response:
        """What "Make available offline" downloads, with sizes, checksums and a version."""
        body = await run_in_threadpool(offline_listing)
        if body is None:
            return error_response(404, "not_found", "offline play's files are not built on "
                                  "this server (scripts/offline makes them)")
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})

    app.mount(OFFLINE_PATH, Precompressed(directory=web_dir() / "offline", check_dir=False),
              name="offline")
    app.mount("/assets", StaticFiles(directory=web_dir(), check_dir=False), name="assets")
