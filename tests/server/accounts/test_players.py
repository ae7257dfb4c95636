"""Players (issue 24): a guest player and its session from the first page load, ``/api/me``
and its rules, seats that belong to players, sessions that end at once, and the CSRF check on
cookie-authenticated changes."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.helpers import Server, tokens_of, ws_closes
from tests.waiting import wait_until

NAME = re.compile(r"^[A-Z][a-z]+ [A-Z][a-z]+ [1-9][0-9]$")
YEAR = 365 * 86400


class Browser:
    """A browser: its own cookie jar, and an Origin header (this site's) on every change, as a
    page's fetch sends it."""

    def __init__(self, server: Server, agent: str = "TestBrowser/1.0") -> None:
        self.base = server.base
        self.http = httpx.Client(base_url=server.base, timeout=20,
                                 headers={"User-Agent": agent})

    def first_visit(self) -> httpx.Response:
        r = self.http.get("/")
        assert r.status_code == 200
        return r

    def send(self, method: str, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        headers = {"Origin": self.base, **kw.pop("headers", {})}
        return self.http.request(method, path, json=body, headers=headers, **kw)

    def me(self) -> dict[str, Any]:
        r = self.http.get("/api/me")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def create(self, game: str = "court-piece-2p", **kw: Any) -> dict[str, Any]:
        body = {"game": game, "options": {"target": 1}, "live": False, "first_seat": 0, **kw}
        r = self.send("POST", "/api/tables", body)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def browsers(server: Server) -> Iterator[Any]:
    made: list[Browser] = []

    def make(agent: str = "TestBrowser/1.0") -> Browser:
        b = Browser(server, agent)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def session_cookie(r: httpx.Response) -> str:
    found = [v for k, v in r.headers.multi_items() if k == "set-cookie"
             and v.startswith("taash_session=")]
    assert len(found) == 1, r.headers
    return found[0]


def test_first_visit_makes_a_guest_once_with_a_safe_cookie(browsers: Any) -> None:
    b = browsers()
    r = b.first_visit()
    cookie = session_cookie(r)
    attrs = [a.strip().lower() for a in cookie.split(";")]
    assert "httponly" in attrs and "samesite=lax" in attrs and "path=/" in attrs
    assert "secure" not in attrs  # served over http
    assert f"max-age={YEAR}" in attrs
    secret = cookie.split(";")[0].split("=", 1)[1]
    assert len(secret) >= 40
    me = b.me()
    assert NAME.match(me["name"]), me
    assert me["language"] == "en" and me["sign_in_methods"] == []
    assert me["guest"] is True and me["email_available"] is False  # this server sends none
    assert me["guest_tables_waiting"] == 0
    assert me["puzzle_consent"] is False  # off until the player turns it on
    assert set(me) == {"id", "name", "language", "created", "sign_in_methods", "guest",
                       "email_available", "guest_tables_waiting", "puzzle_consent"}
    # the same browser again, on any page: the same player, the cookie sent again (sliding)
    b.http.get("/t/whatever")
    again = b.first_visit()
    assert session_cookie(again).split(";")[0] == cookie.split(";")[0]
    assert b.me()["id"] == me["id"]
    # another browser: another guest
    assert browsers().me()["id"] != me["id"]


def test_api_me_alone_makes_the_guest_and_takes_the_language(browsers: Any) -> None:
    b = browsers()
    r = b.http.get("/api/me", headers={"Accept-Language": "ur-PK,ur;q=0.9,en;q=0.5"})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    assert r.json()["language"] == "ur"
    assert session_cookie(r)
    assert b.me()["id"] == r.json()["id"]


def test_without_a_session_me_routes_say_401(server: Server) -> None:
    with httpx.Client(base_url=server.base) as h:
        for path in ("/api/me/tables", "/api/me/sessions"):
            r = h.get(path)
            assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    with httpx.Client(base_url=server.base, cookies={"taash_session": "made-up"}) as h:
        assert h.get("/api/me/tables").status_code == 401


def test_patch_me_checks_name_and_language(browsers: Any) -> None:
    b = browsers()
    b.first_visit()
    ok = b.send("PATCH", "/api/me", {"name": "  Ayesha  "})
    assert ok.status_code == 200 and ok.json()["name"] == "Ayesha"
    assert b.me()["name"] == "Ayesha"
    for name, says in [("", "empty"), ("   ", "empty"), ("x" * 25, "at most 24"),
                       ("a\nb", "control"), ("tab\there", "control"),
                       ("\u202eevil", "control"), ("nul\x00", "control")]:
        r = b.send("PATCH", "/api/me", {"name": name})
        assert r.status_code == 400, name
        err = r.json()["error"]
        assert err["code"] == "bad_request" and says in err["message"], (name, err)
    assert b.send("PATCH", "/api/me", {"name": 42}).status_code == 400
    assert b.send("PATCH", "/api/me", {"nickname": "x"}).status_code == 400
    r = b.send("PATCH", "/api/me", {"language": "fr"})
    assert r.status_code == 400 and "en, hi, ur, ru" in r.json()["error"]["message"]
    # scripts that need joiners keep them; 24 characters is the limit, not 24 bytes
    for name in ("अंकित", "عائشہ", "Алёна", "क्\u200dष", "ع" * 24):
        r = b.send("PATCH", "/api/me", {"name": name})
        assert r.status_code == 200 and r.json()["name"] == name, name
    r = b.send("PATCH", "/api/me", {"language": "hi", "name": "<b>Ravi</b>"})
    assert r.json()["language"] == "hi" and r.json()["name"] == "<b>Ravi</b>"  # plain text
    assert b.me()["language"] == "hi"


def test_a_players_seat_plays_by_cookie_and_token_and_no_one_elses(browsers: Any,
                                                                  server: Server) -> None:
    a, other = browsers(), browsers()
    a.first_visit()
    other.first_visit()
    a.send("PATCH", "/api/me", {"name": "Ayesha"})
    t = a.create(seats=[{"type": "human"}, {"type": "bot", "level": "random"}])
    tid, token = t["id"], tokens_of(t)[0]
    assert t["seats"][0]["token"]  # the API answer is as before
    mine = a.http.get("/api/me/tables").json()
    assert [(m["id"], m["seat"], m["your_turn"], m["over"]) for m in mine] == [
        (tid, 0, True, False)]
    assert set(mine[0]) == {"id", "game", "seat", "your_turn", "over", "version", "live",
                            "updated", "to_move", "seats"}
    assert other.http.get("/api/me/tables").json() == []
    # the seat is named after its player
    view = a.http.get(f"/api/tables/{tid}/view?seat=0")
    assert view.status_code == 200 and view.json()["hand"]
    assert view.json()["table"]["seats"][0]["name"] == "Ayesha"
    assert a.http.get(f"/api/tables/{tid}/view").json()["seat"] == 0  # their only seat
    # another player's cookie: refused, and shown no card of the hand
    for path in (f"/api/tables/{tid}/view?seat=0", f"/api/tables/{tid}/view",
                 f"/api/tables/{tid}/hint?seat=0"):
        r = other.http.get(path)
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", path
        assert "hand" not in r.text and not any(c in r.text for c in view.json()["hand"])
    action = view.json()["legal_actions"][0]
    r = other.send("POST", f"/api/tables/{tid}/actions?seat=0", {"action": action})
    assert r.status_code == 403
    assert other.http.get(f"/api/tables/{tid}/view?seat=1").status_code == 403
    # the player acts with the cookie alone; the seat's token still works beside it
    r = a.send("POST", f"/api/tables/{tid}/actions?seat=0",
               {"action": action, "version": view.json()["version"]})
    assert r.status_code == 200, r.text
    with httpx.Client(base_url=server.base) as bare:
        v = bare.get(f"/api/tables/{tid}/view", headers={"Authorization": f"Bearer {token}"})
        assert v.status_code == 200 and v.json()["version"] >= 1
        # neither token nor cookie: refused as before
        r = bare.get(f"/api/tables/{tid}/view")
        assert r.status_code == 401
        assert r.json()["error"]["message"] == \
            "a seat token is needed: Authorization: Bearer TOKEN"
    # the stream by cookie: the seat's own view first
    with a.http.stream("GET", f"/api/tables/{tid}/stream?seat=0") as s:
        first = json.loads(next(s.iter_lines()))
        assert first["type"] == "view" and first["view"]["seat"] == 0
    assert other.http.get(f"/api/tables/{tid}/stream?seat=0").status_code == 403


def test_joining_an_open_table_binds_the_seat(browsers: Any, server: Server) -> None:
    with httpx.Client(base_url=server.base) as program:  # a program: tokens only
        r = program.post("/api/tables", json={"game": "court-piece-2p", "live": False,
                                              "open": True, "options": {"target": 1}})
        assert r.status_code == 201
        tid = r.json()["id"]
    b = browsers()
    b.first_visit()
    b.send("PATCH", "/api/me", {"name": "Ravi"})
    joined = b.send("POST", f"/api/tables/{tid}/join", {})
    assert joined.status_code == 200 and joined.json()["token"]
    seat = joined.json()["seat"]
    assert [(m["id"], m["seat"]) for m in b.http.get("/api/me/tables").json()] == [(tid, seat)]
    info = b.http.get(f"/api/tables/{tid}/view?seat={seat}").json()["table"]
    assert info["seats"][seat]["name"] == "Ravi"


def test_sessions_are_listed_and_a_revoked_one_stops_at_once(browsers: Any,
                                                             server: Server) -> None:
    b = browsers("Mozilla/5.0 (Linux; Android 14) TestPhone")
    b.first_visit()
    me = b.me()
    t = b.create(seats=[{"type": "human"}, {"type": "bot"}])
    tid = t["id"]
    sessions = b.http.get("/api/me/sessions").json()
    assert len(sessions) == 1
    s = sessions[0]
    assert s["current"] is True and s["device"] == "Mozilla/5.0 (Linux; Android 14) TestPhone"
    assert set(s) == {"id", "device", "created", "last_seen", "expires", "current"}
    assert b.send("DELETE", "/api/me/sessions/not-a-session").status_code == 404
    # another player cannot end it
    stranger = browsers()
    stranger.first_visit()
    assert stranger.send("DELETE", f"/api/me/sessions/{s['id']}").status_code == 404
    secret = b.http.cookies["taash_session"]
    r = b.send("DELETE", f"/api/me/sessions/{s['id']}")
    assert r.status_code == 200 and r.json() == {"id": s["id"], "revoked": True}
    assert "taash_session=" in r.headers["set-cookie"]  # the browser forgets it
    with httpx.Client(base_url=server.base, cookies={"taash_session": secret}) as old:
        assert old.get(f"/api/tables/{tid}/view?seat=0").status_code == 401
        r = old.post(f"/api/tables/{tid}/actions?seat=0", json={"action": "x"},
                     headers={"Origin": server.base})
        assert r.status_code == 401
        assert old.get("/api/me/tables").status_code == 401
        assert old.get("/api/me").json()["id"] != me["id"]  # a new guest
    # the table is still there for its token
    assert httpx.get(f"{server.base}/api/tables/{tid}/view",
                     headers={"Authorization": f"Bearer {tokens_of(t)[0]}"}).status_code == 200


def test_cookie_changes_need_this_sites_origin(browsers: Any, server: Server) -> None:
    b = browsers()
    b.first_visit()
    t = b.create(seats=[{"type": "human"}, {"type": "bot"}])
    tid, token = t["id"], tokens_of(t)[0]
    evil = {"Origin": "https://evil.example"}
    cases = [("PATCH", "/api/me", {"name": "Hacked"}),
             ("POST", "/api/tables", {"game": "goat"}),
             ("POST", f"/api/tables/{tid}/actions?seat=0", {"action": "x"}),
             ("POST", f"/api/tables/{tid}/leave", None),
             ("DELETE", "/api/me/sessions/x", None)]
    for method, path, body in cases:
        for headers in (evil, {"Origin": "null"}, {}):
            r = b.http.request(method, path, json=body, headers=headers)
            assert r.status_code == 403, (method, path, headers, r.text)
            err = r.json()["error"]
            assert err["code"] == "cross_site" and "Origin" in err["message"]
    r = b.http.request("PATCH", "/api/me", json={"name": "Hacked"},
                       headers={"Referer": "https://evil.example/page"})
    assert r.status_code == 403
    assert b.me()["name"] != "Hacked"
    # the site's own page: its Origin, or without one its Referer
    assert b.send("PATCH", "/api/me", {"name": "Mine"}).status_code == 200
    r = b.http.patch("/api/me", json={"name": "Mine2"}, headers={"Referer": f"{server.base}/"})
    assert r.status_code == 200
    # a seat token is not a cookie: unaffected, whatever the origin and the cookie
    v = b.http.get(f"/api/tables/{tid}/view", headers={"Authorization": f"Bearer {token}"})
    r = b.http.post(f"/api/tables/{tid}/actions", json={"action": v.json()["legal_actions"][0]},
                    headers={"Authorization": f"Bearer {token}", **evil})
    assert r.status_code == 200, r.text
    r = b.http.get(f"/api/tables/{tid}/view?token={token}", headers=evil)
    assert r.status_code == 200
    # reading with the cookie needs no Origin (GET changes nothing)
    assert b.http.get("/api/me/tables", headers=evil).status_code == 200


def _ws(server: Server, tid: str, secret: str, origin: str) -> Any:
    url = f"{server.ws_base}/api/tables/{tid}/ws?seat=0"
    headers = {"Cookie": f"taash_session={secret}", "Origin": origin}
    try:  # websockets 16+ wants this said to connect without a with block
        return connect(url, open_timeout=10, close_timeout=2, additional_headers=headers,
                       legacy=True)
    except TypeError:
        return connect(url, open_timeout=10, close_timeout=2, additional_headers=headers)


def test_websocket_by_cookie_only_from_this_site(browsers: Any, server: Server) -> None:
    b = browsers()
    b.first_visit()
    t = b.create(seats=[{"type": "human"}, {"type": "bot"}])
    secret = b.http.cookies["taash_session"]
    ws = _ws(server, t["id"], secret, server.base)
    try:
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "view" and msg["view"]["seat"] == 0
        ws.send(json.dumps({"type": "action", "id": "c1",
                            "action": msg["view"]["legal_actions"][0]}))
        while (got := json.loads(ws.recv(timeout=10)))["type"] != "ack":
            assert got["type"] != "error", got
    finally:
        ws.close()
    ws = _ws(server, t["id"], secret, "https://evil.example")
    try:
        msg = json.loads(ws.recv(timeout=10))
        assert msg["type"] == "error" and msg["error"]["code"] == "cross_site"
        with pytest.raises(Exception):  # noqa: B017 - closed, whatever the library calls it
            ws.recv(timeout=10)
        assert ws.close_code == 4403
    finally:
        ws.close()


@pytest.mark.slow
def test_secure_cookie_and_origin_from_the_public_url(tmp_path: Path) -> None:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", "--public-url",
                 "https://cards.example").start()
    try:
        with httpx.Client(base_url=srv.base) as h:
            cookie = session_cookie(h.get("/"))
        assert "secure" in [a.strip().lower() for a in cookie.split(";")]
        secret = cookie.split(";")[0].split("=", 1)[1]
        # httpx keeps no Secure cookie over http: send it as the proxy in front would
        with httpx.Client(base_url=srv.base, cookies={"taash_session": secret}) as h:
            r = h.patch("/api/me", json={"name": "Public"},
                        headers={"Origin": "https://cards.example"})
            assert r.status_code == 200, r.text
            assert r.json()["name"] == "Public"
            r = h.patch("/api/me", json={"name": "Other"},
                        headers={"Origin": "https://other.example"})
            assert r.status_code == 403
    finally:
        srv.stop()


def test_a_rematch_by_cookie_keeps_the_seat_the_players(browsers: Any, server: Server) -> None:
    import random

    b = browsers()
    b.first_visit()
    t = b.create(seats=[{"type": "human"}, {"type": "bot", "level": "random"}])
    tid, token = t["id"], tokens_of(t)[0]
    rng = random.Random(5)
    for _ in range(400):
        v = b.http.get(f"/api/tables/{tid}/view?seat=0").json()
        if v["over"]:
            break
        if v["to_move"] != 0 or not v["legal_actions"]:
            continue
        r = b.send("POST", f"/api/tables/{tid}/actions?seat=0",
                   {"action": rng.choice(v["legal_actions"]), "version": v["version"]})
        assert r.status_code in (200, 409), r.text
    assert v["over"]
    r = b.send("POST", f"/api/tables/{tid}/rematch")
    assert r.status_code == 200, r.text
    rid = r.json()["id"]
    assert r.json() == {"id": rid, "seat": 0, "token": None, "url": f"/t/{rid}?seat=0"}
    assert rid in {m["id"] for m in b.http.get("/api/me/tables").json()}
    assert b.http.get(f"/api/tables/{rid}/view?seat=0").status_code == 200
    # the seat's token asks too: its derived token, and the seat stays the player's
    with httpx.Client(base_url=server.base) as program:
        r = program.post(f"/api/tables/{tid}/rematch", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200 and r.json()["id"] == rid and r.json()["token"]
    assert b.http.get(f"/api/tables/{rid}/view?seat=0").status_code == 200
    # a new name: the unfinished rematch's seat takes it, the finished table keeps the old
    old_name = b.me()["name"]
    assert b.send("PATCH", "/api/me", {"name": "Renamed"}).status_code == 200
    assert b.http.get(f"/api/tables/{rid}").json()["table"]["seats"][0]["name"] == "Renamed"
    assert b.http.get(f"/api/tables/{tid}").json()["table"]["seats"][0]["name"] == old_name
    # someone else's cookie is no seat at the finished table, so asks no rematch
    other = browsers()
    other.first_visit()
    assert other.send("POST", f"/api/tables/{tid}/rematch").status_code == 403


def test_an_invite_link_is_claimed_once(browsers: Any, server: Server) -> None:
    host, friend, late = browsers(), browsers(), browsers()
    for b in (host, friend, late):
        b.first_visit()
    friend.send("PATCH", "/api/me", {"name": "Friend"})
    t = host.create(seats=[{"type": "human"}, {"type": "human"}])
    tid, invite = t["id"], tokens_of(t)[1]
    bearer = {"Authorization": f"Bearer {invite}"}
    # a claim needs a session, and comes from this site
    with httpx.Client(base_url=server.base) as program:
        r = program.post(f"/api/tables/{tid}/claim", headers=bearer)
        assert r.status_code == 401 and "session" in r.json()["error"]["message"]
    r = friend.http.post(f"/api/tables/{tid}/claim", headers={**bearer,
                                                              "Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
    # the first player to open it takes the seat, with a new token
    r = friend.send("POST", f"/api/tables/{tid}/claim", headers=bearer)
    assert r.status_code == 200, r.text
    claimed = r.json()
    assert claimed["seat"] == 1 and claimed["token"] not in (None, invite)
    assert [(m["id"], m["seat"]) for m in friend.http.get("/api/me/tables").json()] == [(tid, 1)]
    view = friend.http.get(f"/api/tables/{tid}/view?seat=1").json()
    assert view["table"]["seats"][1]["name"] == "Friend"
    assert friend.http.get(f"/api/tables/{tid}/view",
                           headers={"Authorization": f"Bearer {claimed['token']}"}).status_code \
        == 200
    # the link works no more: as a token, and as a claim by anyone else, saying why
    assert late.http.get(f"/api/tables/{tid}/view", headers=bearer).status_code == 401
    r = late.send("POST", f"/api/tables/{tid}/claim", headers=bearer)
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "invite_used" and "another player" in err["message"]
    assert late.http.get(f"/api/tables/{tid}/view?seat=1").status_code == 403
    # the claimer opening it again: their seat still, no new token
    again = friend.send("POST", f"/api/tables/{tid}/claim", headers=bearer)
    assert again.status_code == 200 and again.json()["token"] is None
    assert again.json()["seat"] == 1
    # the creator cannot re-invite a seat a player holds
    r = host.send("POST", f"/api/tables/{tid}/invite", {"seat": 1})
    assert r.status_code == 409


def test_the_creator_makes_a_new_invite_link(browsers: Any, server: Server) -> None:
    host, friend = browsers(), browsers()
    host.first_visit()
    friend.first_visit()
    t = host.create("goat", options={"target": 1},
                    seats=[{"type": "human"}, {"type": "human"}, {"type": "bot"},
                           {"type": "human"}])
    tid, old = t["id"], tokens_of(t)[1]
    # only the creator's seat makes links, and only for another human seat
    r = friend.send("POST", f"/api/tables/{tid}/invite", {"seat": 1})
    assert r.status_code == 403
    with httpx.Client(base_url=server.base) as program:
        r = program.post(f"/api/tables/{tid}/invite", json={"seat": 1},
                         headers={"Authorization": f"Bearer {tokens_of(t)[3]}"})
        assert r.status_code == 403 and "creator" in r.json()["error"]["message"]
    assert host.send("POST", f"/api/tables/{tid}/invite", {"seat": 2}).status_code == 409
    assert host.send("POST", f"/api/tables/{tid}/invite", {"seat": 0}).status_code == 400
    r = host.send("POST", f"/api/tables/{tid}/invite", {"seat": 1})
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert new != old and r.json()["url"] == f"/t/{tid}?seat=1&token={new}"
    # the lost link works no more; the new one is claimed as any
    r = friend.send("POST", f"/api/tables/{tid}/claim",
                    headers={"Authorization": f"Bearer {old}"})
    assert r.status_code == 401
    r = friend.send("POST", f"/api/tables/{tid}/claim",
                    headers={"Authorization": f"Bearer {new}"})
    assert r.status_code == 200 and r.json()["seat"] == 1


async def test_sessions_slide_expire_and_are_stored_hashed(tmp_path: Path) -> None:
    """In the store: the cookie's secret is not kept, only its sha256; a session used after an
    hour is seen again and lasts a year from then; an expired or revoked one is no session."""
    import hashlib

    from sqlalchemy import select, update
    from sqlalchemy.engine import make_url

    from taash.server.accounts.players import SESSION_S, Players
    from taash.server.config import Settings
    from taash.server.store.db import Store
    from taash.server.store.schema import sessions
    from taash.server.tables.bus import Bus

    async def go() -> None:
        store = Store(make_url(f"sqlite+aiosqlite:///{tmp_path / 's.db'}"))
        await store.migrate()
        try:
            players = Players(Settings(rate_limit=0), store, Bus(), {}, dict)
            who, secret = await players.guest("Agent/1", "ru-RU,ru")
            assert who.player.language == "ru"
            async with store.engine.connect() as conn:
                row = (await conn.execute(select(sessions))).one()
            assert row.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
            assert secret not in str(tuple(row))
            again = await players.resolve(secret)
            assert again is not None and again.player.id == who.player.id
            assert again.session.last_seen == who.session.last_seen  # not written each time

            async def set_(**values: float | None) -> None:
                async with store.engine.begin() as conn:
                    await conn.execute(update(sessions).values(**values))

            await set_(last_seen=time.time() - 7200, expires=time.time() + 60)
            slid = await players.resolve(secret)
            assert slid is not None and slid.session.last_seen > time.time() - 5
            async with store.engine.connect() as conn:
                row = (await conn.execute(select(sessions))).one()
            assert row.expires > time.time() + SESSION_S - 10
            await set_(expires=time.time() - 1)
            assert await players.resolve(secret) is None
            await set_(expires=time.time() + 600, revoked=time.time())
            assert await players.resolve(secret) is None
            await set_(revoked=None)
            assert await players.resolve(secret) is not None
            assert await players.resolve("x" * 200) is None
            assert await players.resolve(None) is None
        finally:
            await store.close()

    await go()


async def test_new_guests_per_address_are_limited(tmp_path: Path) -> None:
    """One address cannot fill the store with guests: past the burst, GET /api/me answers 429
    and a page load serves the page with no new session; a session already made still works."""

    from taash.server.app import Services, create_app
    from taash.server.config import Settings
    from taash.server.store.db import Store

    async def go() -> None:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'g.db'}", rate_limit=1000,
                            rate_burst=10, sweep_s=60)  # guests: 50/s, a burst of 5
        store = Store(settings.resolved_db_url())
        await store.migrate()
        services = Services(settings, store)
        await services.start()
        services.players.new_guests.rate = 0.001  # none come back during the test
        transport = httpx.ASGITransport(app=create_app(settings, services=services))
        try:
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as first:
                assert (await first.get("/api/me")).status_code == 200
                codes = []
                async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                    for _ in range(6):  # each time with no cookie: a new guest asked for
                        c.cookies.clear()
                        codes.append((await c.get("/api/me")).status_code)
                assert codes == [200, 200, 200, 200, 429, 429], codes
                async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                    r = await c.get("/api/me")
                    assert r.json()["error"]["code"] == "rate_limited"
                    page = await c.get("/")
                    assert page.status_code == 200 and "set-cookie" not in page.headers
                me = await first.get("/api/me")
                assert me.status_code == 200
        finally:
            await services.close()
            await store.close()

    await go()


def test_a_revoked_session_closes_its_stream_and_socket_at_once(browsers: Any,
                                                                server: Server) -> None:
    import threading

    b = browsers()
    b.first_visit()
    t = b.create(seats=[{"type": "human"}, {"type": "bot"}])
    tid, token = t["id"], tokens_of(t)[0]
    secret = b.http.cookies["taash_session"]
    ws = _ws(server, tid, secret, server.base)
    assert json.loads(ws.recv(timeout=10))["type"] == "view"
    # a socket by the seat's token is not the session's: it stays open
    try:
        by_token = connect(f"{server.ws_base}/api/tables/{tid}/ws?token={token}",
                           open_timeout=10, close_timeout=2, legacy=True)
    except TypeError:
        by_token = connect(f"{server.ws_base}/api/tables/{tid}/ws?token={token}",
                           open_timeout=10, close_timeout=2)
    assert json.loads(by_token.recv(timeout=10))["type"] == "view"
    stream_lines: list[str] = []
    stream_done = threading.Event()

    def read_stream() -> None:
        with httpx.Client(base_url=server.base, cookies={"taash_session": secret},
                          timeout=30) as h, \
                h.stream("GET", f"/api/tables/{tid}/stream?seat=0") as s:
            for line in s.iter_lines():
                stream_lines.append(line)
        stream_done.set()

    reader = threading.Thread(target=read_stream, daemon=True)
    reader.start()
    wait_until(lambda: stream_lines, timeout=10, what="the stream's first line")
    assert json.loads(stream_lines[0])["type"] == "view"
    session = b.http.get("/api/me/sessions").json()[0]["id"]
    assert b.send("DELETE", f"/api/me/sessions/{session}").status_code == 200
    assert stream_done.wait(5), "the stream of the revoked session is still open"
    ws_closes(ws, ("ping", "table", "event"))  # the socket of the revoked session
    by_token.send(json.dumps({"type": "ping"}))
    while json.loads(by_token.recv(timeout=5))["type"] != "pong":
        pass
    by_token.close()
    ws.close()


def test_a_new_name_reaches_the_players_seats_live(browsers: Any, server: Server) -> None:
    b = browsers()
    b.first_visit()
    t = b.create(seats=[{"type": "human"}, {"type": "bot"}])
    tid = t["id"]
    ws = _ws(server, tid, b.http.cookies["taash_session"], server.base)
    try:
        assert json.loads(ws.recv(timeout=10))["type"] == "view"
        assert b.send("PATCH", "/api/me", {"name": "Zara"}).status_code == 200
        while (msg := json.loads(ws.recv(timeout=10)))["type"] != "table":
            pass
        assert msg["table"]["seats"][0]["name"] == "Zara"
    finally:
        ws.close()
    assert b.http.get(f"/api/tables/{tid}").json()["table"]["seats"][0]["name"] == "Zara"


async def test_the_sweeper_forgets_expired_and_revoked_sessions(tmp_path: Path) -> None:

    from sqlalchemy import select, update

    from taash.server.app import Services
    from taash.server.config import Settings
    from taash.server.store.db import Store
    from taash.server.store.schema import sessions

    async def go() -> None:
        settings = Settings(db_url=f"sqlite:///{tmp_path / 'w.db'}", sweep_s=60, rate_limit=0)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        services = Services(settings, store)
        try:
            made = [await services.players.guest("A", None) for _ in range(4)]
            ids = [who.session.id for who, _ in made]
            now = time.time()
            async with store.engine.begin() as conn:
                await conn.execute(update(sessions).where(sessions.c.id == ids[0])
                                   .values(expires=now - 1))
                await conn.execute(update(sessions).where(sessions.c.id == ids[1])
                                   .values(revoked=now - 2 * 86400))
                await conn.execute(update(sessions).where(sessions.c.id == ids[2])
                                   .values(revoked=now - 60))  # kept a day, then forgotten
            await services.hub.sweep(starting=True)
            async with store.engine.connect() as conn:
                left = {r.id for r in await conn.execute(select(sessions.c.id))}
            assert left == {ids[2], ids[3]}
            assert await services.players.resolve(made[3][1]) is not None
        finally:
            await services.close()
            await store.close()

    await go()


async def test_revocations_lost_while_the_bus_was_away_end_their_connections(
        tmp_path: Path) -> None:
    """A session or token revoked on another instance while Redis was away: its "revoked"
    message never came.  When the bus is back ("rejoined" here, or "reread" from an instance
    that could not publish), the store is asked which of the live connections' sessions and
    tokens still stand, and the others end (seen as a socket left open after an outage)."""
    import asyncio

    from sqlalchemy import update

    from taash.server.app import Services
    from taash.server.config import Settings
    from taash.server.store.db import Store
    from taash.server.store.schema import sessions
    from taash.server.store.tokens import TokenStore

    settings = Settings(db_url=f"sqlite:///{tmp_path / 'r.db'}", rate_limit=0)
    store = Store(settings.resolved_db_url())
    await store.migrate()
    services = Services(settings, store)
    try:
        made = [await services.players.guest("A", None) for _ in range(3)]
        ids = [who.session.id for who, _ in made]
        tokens = [await services.tokens.create(made[0][0].player, name, ["play"])
                  for name in ("kept", "gone")]
        class Sub:  # what Players uses of a live connection
            def __init__(self) -> None:
                self.ended = False
                self.wake = asyncio.Event()

        subs = {}
        for key in [*ids, *(f"pat:{t['id']}" for t in tokens), "pat:nosuchtoken"]:
            subs[key] = Sub()
            services.players.watch(key, subs[key])  # type: ignore[arg-type]
        now = time.time()
        async with store.engine.begin() as conn:  # as another instance would, bus away
            await conn.execute(update(sessions).where(sessions.c.id == ids[0])
                               .values(revoked=now))
            await conn.execute(update(sessions).where(sessions.c.id == ids[1])
                               .values(expires=now - 1))
        assert await TokenStore(store).revoke(made[0][0].player.id, tokens[1]["id"], now)
        assert not any(s.ended for s in subs.values())  # nothing told this instance
        await services.hub.on_bus({"k": "reread"})
        ended = {k for k, s in subs.items() if s.ended}
        assert ended == {ids[0], ids[1], f"pat:{tokens[1]['id']}", "pat:nosuchtoken"}
        assert all(subs[k].wake.is_set() for k in ended)
        assert set(services.players.live) == {ids[2], f"pat:{tokens[0]['id']}"}
        await services.hub.on_bus({"k": "rejoined"})  # again: nothing more to end
        assert set(services.players.live) == {ids[2], f"pat:{tokens[0]['id']}"}
    finally:
        await services.close()
        await store.close()
