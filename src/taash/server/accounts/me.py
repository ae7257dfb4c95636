"""The player behind a request: the session cookie (set on the first page load or
``GET /api/me``), the check that a cookie-authenticated change comes from this site's own
pages (CSRF), and the ``/api/me`` routes of docs/API.md."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from typing_extensions import TypedDict

from taash.server.accounts.countries import clean_country
from taash.server.accounts.deps import LinkerDep, PlayersDep, SignInDep
from taash.server.accounts.link import LinkCode, Linked
from taash.server.accounts.players import SESSION_S, MeJson, Players, SessionJson, Who
from taash.server.config import Settings
from taash.server.errors import CrossSite, Unauthorized
from taash.server.http.deps import SettingsDep
from taash.server.http.forwarded import forwarded_origin
from taash.server.social.deps import SocialDep
from taash.server.tables.deps import BusDep

COOKIE = "taash_session"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class LinkBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(..., max_length=40, examples=["K7QP-M3XZ"])
    merge: bool = Field(False, description="bring this device's guest tables into the account")


class MeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=200, examples=["Brave Otter 42"])
    language: str | None = Field(None, max_length=8, examples=["en"])
    country: str | None = Field(None, max_length=40, examples=["PK"], description=(
        "ISO 3166-1 alpha-2, shown as a flag on your public profile; \"\" for none"))
    puzzle_consent: StrictBool | None = Field(None, examples=[True], description=(
        "your finished deals may become puzzles (no name in them; off until you turn it on)"))


def _players(request: Request | WebSocket) -> Players:
    p: Players = request.app.state.players
    return p


async def who_of(request: Request | WebSocket) -> Who | None:
    """The live session of the request's cookie and its player (None: no such session);
    looked up once per request."""
    if hasattr(request.state, "who"):
        found: Who | None = request.state.who
        return found
    found = await _players(request).resolve(request.cookies.get(COOKIE))
    request.state.who = found
    return found


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def own_origins(request: Request | WebSocket, settings: Settings) -> set[str]:
    """This server's origins: the one the request was made to and the public URL's."""
    scheme = {"ws": "http", "wss": "https"}.get(request.url.scheme, request.url.scheme)
    out = set()
    host = request.headers.get("host")
    if host:
        out.add(f"{scheme}://{host}".lower())
    if settings.public_url:
        public = _origin(settings.public_url)
        if public:
            out.add(public)
    forwarded = forwarded_origin(request.headers)
    if forwarded:  # reached through another instance: the origin the client reached there
        out.add(forwarded)
    return out


def check_origin(request: Request | WebSocket, settings: Settings) -> None:
    """CrossSite unless the request's Origin (else its Referer) is this server's."""
    sent = request.headers.get("origin")
    origin = None
    if sent and sent != "null":
        origin = _origin(sent)
    elif not sent:
        referer = request.headers.get("referer")
        origin = _origin(referer) if referer else None
    if origin is None or origin not in own_origins(request, settings):
        raise CrossSite("a change made with the session cookie must come from this site's "
                        "pages: the request's Origin (or Referer) header is "
                        f"{sent or 'missing'!s}, not this server's; programs use a seat "
                        "token (Authorization: Bearer) instead")


async def cookie_player(request: Request | WebSocket, settings: Settings) -> Who | None:
    """The player a cookie-authenticated request acts for (None: no live session).  A
    change (any method but GET, HEAD and OPTIONS; a WebSocket, which acts) must come from this
    site: CrossSite otherwise."""
    who = await who_of(request)
    if who is not None:
        method = request.method if isinstance(request, Request) else "WEBSOCKET"
        if method not in SAFE_METHODS:
            check_origin(request, settings)
    return who


def set_cookie(response: Response, request: Request, settings: Settings, secret: str) -> None:
    secure = request.url.scheme == "https" or (settings.public_url or "").startswith("https:")
    response.set_cookie(COOKIE, secret, max_age=int(SESSION_S), path="/", httponly=True,
                        samesite="lax", secure=secure)


async def page_player(request: Request, response: Response, settings: Settings) -> Who:
    """The request's player; a new guest (and its cookie on ``response``) if it has no live
    session.  A live session's cookie is sent again, so its expiry slides in the browser
    too."""
    who = await who_of(request)
    if who is not None:
        secret = request.cookies.get(COOKIE)
        assert secret is not None
        set_cookie(response, request, settings, secret)
        return who
    who, secret = await _players(request).guest(
        request.headers.get("user-agent"), request.headers.get("accept-language"),
        request.client.host if request.client else "?")
    request.state.who = who
    set_cookie(response, request, settings, secret)
    return who


async def signed_in(request: Request, settings: Settings) -> Who:
    who = await cookie_player(request, settings)
    if who is None:
        raise Unauthorized("no session: open the site's page (or GET /api/me) to get one")
    return who


# ``/api/me``: the player of the session cookie, their tables and their sessions.
router = APIRouter()


class SessionEnded(TypedDict):
    id: str
    revoked: bool


@router.get("/api/me", tags=["players"])
async def get_me(sign_in: SignInDep, settings: SettingsDep, request: Request, response: Response
) -> MeJson:
    """The player of the session cookie; without a live session, a new guest player
    and the cookie of their session."""
    response.headers["Cache-Control"] = "no-store"
    who = await page_player(request, response, settings)
    return await sign_in.me(who.player, who.session)

@router.patch("/api/me", tags=["players"])
async def patch_me(players: PlayersDep, sign_in: SignInDep, social: SocialDep,
                   settings: SettingsDep, request: Request, body: MeBody) -> MeJson:
    """Change the player's name (plain text, 1 to 24 characters), language, country
    (ISO 3166-1 alpha-2, ``""`` for none: a flag on the public profile) or whether their
    finished deals may become puzzles (``puzzle_consent``)."""
    who = await signed_in(request, settings)
    country = clean_country(body.country) if body.country is not None else None
    out = await sign_in.me(await players.update(who, body.name, body.language,
                                                body.puzzle_consent), who.session)
    if body.country is not None:
        await social.store.set_country(who.player.id, country)
        out["country"] = country
    return out

@router.get("/api/me/tables", tags=["players"])
async def my_tables(players: PlayersDep, settings: SettingsDep, request: Request
) -> list[dict[str, object]]:
    """Every table with a seat of the player's, with whose turn it is."""
    who = await signed_in(request, settings)
    return await players.tables(who)

@router.get("/api/me/sessions", tags=["players"])
async def my_sessions(players: PlayersDep, settings: SettingsDep, request: Request
) -> list[SessionJson]:
    """The player's live sessions (their browsers): device, last seen, which is this."""
    who = await signed_in(request, settings)
    return await players.sessions(who)

@router.delete("/api/me/sessions/{session_id}", tags=["players"])
async def end_session(players: PlayersDep, settings: SettingsDep, request: Request,
                      response: Response, session_id: str) -> SessionEnded:
    """End one of the player's sessions at once (this one too: signed out here)."""
    who = await signed_in(request, settings)
    await players.revoke(who, session_id)
    if session_id == who.session.id:
        response.delete_cookie(COOKIE, path="/")
    return {"id": session_id, "revoked": True}

@router.post("/api/me/link", tags=["players"])
async def make_link_code(linker: LinkerDep, settings: SettingsDep, request: Request
) -> LinkCode:
    """A one-time code (``XXXX-XXXX``, ten minutes) that signs another device in as this
    player, with the sign-in URL and its QR image (SVG)."""
    who = await signed_in(request, settings)
    base = settings.public_url or str(request.base_url)
    return await linker.make(who, base)

@router.post("/api/link", tags=["players"])
async def link_device(bus: BusDep, linker: LinkerDep, players: PlayersDep, settings: SettingsDep,
                      request: Request, response: Response, body: LinkBody) -> Linked:
    """Sign this device in with a code made on another: its session is replaced by a new
    one of that player (a new cookie); with ``merge``, this device's guest tables become
    the player's."""
    who = await signed_in(request, settings)
    out, secret, old = await linker.link(
        who, body.code, body.merge, request.headers.get("user-agent"),
        request.client.host if request.client else "?")
    players.end_session(old)
    await bus.publish({"k": "revoked", "s": old})
    set_cookie(response, request, settings, secret)
    response.headers["Cache-Control"] = "no-store"
    return out
