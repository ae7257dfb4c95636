"""Personal API tokens (issue 24, part 4): made once, kept hashed, listed without the secret,
scoped (play, read), acting for their player at every table where the player sits and nowhere
else, and stopped at once by a revoke on HTTP, the stream and the WebSocket."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.accounts.test_players import Browser
from tests.server.helpers import Server, tokens_of, ws_closes
from tests.waiting import wait_until


@pytest.fixture
def player(server: Server) -> Iterator[Browser]:
    b = Browser(server)
    b.first_visit()
    yield b
    b.close()


def make_token(b: Browser, name: str = "my bot", scopes: Any = ("play",)) -> dict[str, Any]:
    r = b.send("POST", "/api/me/tokens", {"name": name, "scopes": list(scopes)})
    assert r.status_code == 201, r.text
    assert r.headers["cache-control"] == "no-store"
    out: dict[str, Any] = r.json()
    return out


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ws_connect(url: str, headers: dict[str, str]) -> Any:
    try:  # websockets 16+ wants this said to connect without a with block
        return connect(url, open_timeout=10, close_timeout=2, additional_headers=headers,
                       legacy=True)
    except TypeError:
        return connect(url, open_timeout=10, close_timeout=2, additional_headers=headers)


def test_a_token_is_shown_once_kept_hashed_and_listed_without_it(
        player: Browser, server: Server, server_dir: Path) -> None:
    made = make_token(player, "Arena bot", ["read", "play"])
    token = made["token"]
    assert token.startswith("taash_pat_") and len(token) >= 10 + 43
    assert made["scopes"] == ["play", "read"] and made["name"] == "Arena bot"
    assert made["last_used"] is None
    listed = player.http.get("/api/me/tokens").json()
    assert listed == [{k: v for k, v in made.items() if k != "token"}]
    assert token not in json.dumps(listed)
    db = sqlite3.connect(server_dir / "shared.db")
    try:
        (h,) = db.execute("SELECT token_hash FROM api_tokens WHERE id = ?",
                          (made["id"],)).fetchone()
        assert h == hashlib.sha256(token.encode()).hexdigest()
        dump = "\n".join(db.iterdump())
        assert token not in dump and token[10:] not in dump
    finally:
        db.close()
    # the rules: a known scope, a plain-text name; another browser does not see them
    for body in ({"name": "x", "scopes": ["admin"]}, {"name": "x", "scopes": []},
                 {"name": "a\u202eb", "scopes": ["read"]}, {"name": " ", "scopes": ["read"]}):
        r = player.send("POST", "/api/me/tokens", body)
        assert r.status_code == 400, (body, r.text)
    assert player.send("POST", "/api/me/tokens", {"name": "x", "scopes": ["read"]},
                       headers={"Origin": "https://evil.example"}).status_code == 403
    other = Browser(server)
    try:
        other.first_visit()
        assert other.http.get("/api/me/tokens").json() == []
        assert other.send("DELETE", f"/api/me/tokens/{made['id']}").status_code == 404
    finally:
        other.close()


def test_a_play_token_acts_for_its_player_and_only_at_their_seats(player: Browser,
                                                                   server: Server) -> None:
    token = make_token(player)["token"]
    mine = player.create(seats=[{"type": "human"}, {"type": "bot", "level": "random"}])
    with httpx.Client(base_url=server.base, headers=bearer(token), timeout=20) as program:
        v = program.get(f"/api/tables/{mine['id']}/view")
        assert v.status_code == 200 and v.json()["seat"] == 0 and v.json()["hand"]
        r = program.post(f"/api/tables/{mine['id']}/actions",
                         json={"action": v.json()["legal_actions"][0], "id": "p1"})
        assert r.status_code == 200, r.text
        with program.stream("GET", f"/api/tables/{mine['id']}/stream") as s:
            first = json.loads(next(s.iter_lines()))
            assert first["type"] == "view" and first["view"]["seat"] == 0
        # a table made with the token is the player's
        r = program.post("/api/tables", json={"game": "court-piece-2p", "live": False,
                                              "options": {"target": 1}, "first_seat": 0})
        assert r.status_code == 201, r.text
        made = r.json()["id"]
        assert made in [t["id"] for t in player.http.get("/api/me/tables").json()]
        assert program.get(f"/api/tables/{made}/view?seat=0").status_code == 200
        # someone else's table: refused, and no card of its hands is shown
        with httpx.Client(base_url=server.base) as stranger:
            theirs = stranger.post("/api/tables", json={
                "game": "court-piece-2p", "live": False, "options": {"target": 1}}).json()
            hand = stranger.get(f"/api/tables/{theirs['id']}/view",
                                headers=bearer(tokens_of(theirs)[0])).json()["hand"]
        for path in (f"/api/tables/{theirs['id']}/view", f"/api/tables/{theirs['id']}/view?seat=0",
                     f"/api/tables/{theirs['id']}/hint?seat=1",
                     f"/api/tables/{theirs['id']}/stream?seat=0"):
            r = program.get(path)
            assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", path
            assert not any(c in r.text for c in hand)
        r = program.post(f"/api/tables/{theirs['id']}/actions?seat=0", json={"action": "x"})
        assert r.status_code == 403
        # the other seat of the player's own table is not theirs either
        assert program.get(f"/api/tables/{mine['id']}/view?seat=1").status_code == 403
        # a made-up token: 401, as an unknown seat token is
        r = program.get(f"/api/tables/{mine['id']}/view", headers=bearer("taash_pat_nope"))
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_a_read_token_sees_but_does_not_act(player: Browser, server: Server) -> None:
    token = make_token(player, "viewer", ["read"])["token"]
    t = player.create(seats=[{"type": "human"}, {"type": "bot"}])
    with httpx.Client(base_url=server.base, headers=bearer(token), timeout=20) as program:
        v = program.get(f"/api/tables/{t['id']}/view")
        assert v.status_code == 200 and v.json()["hand"]
        assert program.get(f"/api/tables/{t['id']}/hint").status_code == 200
        r = program.post(f"/api/tables/{t['id']}/actions",
                         json={"action": v.json()["legal_actions"][0]})
        assert r.status_code == 403 and "play scope" in r.json()["error"]["message"]
        r = program.post("/api/tables", json={"game": "court-piece-2p", "live": False})
        assert r.status_code == 403
    ws = ws_connect(f"{server.ws_base}/api/tables/{t['id']}/ws", bearer(token))
    try:
        assert json.loads(ws.recv(timeout=10))["type"] == "view"
        ws.send(json.dumps({"type": "action", "id": "r1",
                            "action": v.json()["legal_actions"][0]}))
        while (got := json.loads(ws.recv(timeout=10)))["type"] != "error":
            assert got["type"] != "ack", got
        assert got["error"]["code"] == "forbidden" and got["id"] == "r1"
    finally:
        ws.close()


def test_last_used_is_written_at_most_once_a_minute(player: Browser, server: Server,
                                                    server_dir: Path) -> None:
    made = make_token(player, "counter", ["read"])
    t = player.create(seats=[{"type": "human"}, {"type": "bot"}])
    with httpx.Client(base_url=server.base, headers=bearer(made["token"])) as program:
        assert program.get(f"/api/tables/{t['id']}/view").status_code == 200
        first = player.http.get("/api/me/tokens").json()[0]["last_used"]
        assert first is not None
        db = sqlite3.connect(server_dir / "shared.db")
        try:
            (stamp,) = db.execute("SELECT last_used FROM api_tokens WHERE id = ?",
                                  (made["id"],)).fetchone()
            for _ in range(5):
                assert program.get(f"/api/tables/{t['id']}/view").status_code == 200
            (again,) = db.execute("SELECT last_used FROM api_tokens WHERE id = ?",
                                  (made["id"],)).fetchone()
        finally:
            db.close()
        assert again == stamp


def test_a_revoked_token_stops_at_once_on_http_stream_and_socket(player: Browser,
                                                                 server: Server) -> None:
    made = make_token(player, "revoked soon", ["play"])
    token, tid = made["token"], player.create(seats=[{"type": "human"},
                                                      {"type": "bot"}])["id"]
    ws = ws_connect(f"{server.ws_base}/api/tables/{tid}/ws", bearer(token))
    assert json.loads(ws.recv(timeout=10))["type"] == "view"
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        with httpx.Client(base_url=server.base, headers=bearer(token), timeout=30) as h, \
                h.stream("GET", f"/api/tables/{tid}/stream") as s:
            for line in s.iter_lines():
                lines.append(line)
        done.set()

    threading.Thread(target=read, daemon=True).start()
    wait_until(lambda: lines, timeout=10, what="the stream's first line")
    assert json.loads(lines[0])["type"] == "view"
    r = player.send("DELETE", f"/api/me/tokens/{made['id']}")
    assert r.status_code == 200 and r.json() == {"id": made["id"], "revoked": True}
    with httpx.Client(base_url=server.base, headers=bearer(token)) as program:
        r = program.get(f"/api/tables/{tid}/view")
        assert r.status_code == 401 and "revoked" in r.json()["error"]["message"]
    assert done.wait(5), "the stream of the revoked token is still open"
    ws_closes(ws, ("ping", "table", "event"))  # the socket of the revoked token
    ws.close()
    assert player.http.get("/api/me/tokens").json() == []
    assert player.send("DELETE", f"/api/me/tokens/{made['id']}").status_code == 404


@pytest.mark.slow
def test_token_requests_are_rate_limited(tmp_path: Path) -> None:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", "--rate-limit", "2").start()
    try:
        b = Browser(srv)
        b.first_visit()
        token = make_token(b, "fast", ["read"])["token"]
        t = b.create(seats=[{"type": "human"}, {"type": "bot"}])
        with httpx.Client(base_url=srv.base, headers=bearer(token)) as program:
            codes = [program.get(f"/api/tables/{t['id']}/view").status_code for _ in range(90)]
        assert codes[0] == 200 and 429 in codes, codes  # a burst of 60, then 2 a second
        b.close()
    finally:
        srv.stop()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_a_token_revoked_on_one_instance_ends_on_the_other(pg_url: str, redis_url: str,
                                                           tmp_path: Path) -> None:
    """Two instances on one database and one bus: a token's socket and stream on one close at
    once when the token is revoked through the other, and its requests there are refused."""
    a = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", log=tmp_path / "a.log")
    b = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", log=tmp_path / "b.log")
    a.start()
    b.start()
    try:
        player = Browser(b)
        player.first_visit()
        made = make_token(player, "two instances", ["read"])
        tid = player.create(seats=[{"type": "human"}, {"type": "bot"}])["id"]
        ws = ws_connect(f"{a.ws_base}/api/tables/{tid}/ws", bearer(made["token"]))
        assert json.loads(ws.recv(timeout=10))["type"] == "view"
        done = threading.Event()

        streamed: list[str] = []

        def read() -> None:
            with httpx.Client(base_url=a.base, headers=bearer(made["token"]), timeout=30) as h, \
                    h.stream("GET", f"/api/tables/{tid}/stream") as s:
                for line in s.iter_lines():
                    streamed.append(line)
            done.set()

        threading.Thread(target=read, daemon=True).start()
        wait_until(lambda: streamed, timeout=10, what="the stream's first line")
        assert player.send("DELETE", f"/api/me/tokens/{made['id']}").status_code == 200
        ws_closes(ws, ("ping", "table"))  # the socket on the other instance
        ws.close()
        assert done.wait(5), "the stream on the other instance is still open"
        with httpx.Client(base_url=a.base, headers=bearer(made["token"])) as again:
            assert again.get(f"/api/tables/{tid}/view").status_code == 401
        player.close()
    finally:
        a.stop()
        b.stop()


def test_a_play_token_claims_an_invite_for_its_player(player: Browser, server: Server) -> None:
    made = make_token(player, "claimer")
    with httpx.Client(base_url=server.base) as host:
        t = host.post("/api/tables", json={"game": "court-piece-2p", "live": False}).json()
    invite = tokens_of(t)[1]
    with httpx.Client(base_url=server.base, headers=bearer(made["token"])) as program:
        r = program.post(f"/api/tables/{t['id']}/claim")
        assert r.status_code == 401 and "invite's token" in r.json()["error"]["message"]
        r = program.post(f"/api/tables/{t['id']}/claim?token={invite}")
        assert r.status_code == 200 and r.json()["seat"] == 1, r.text
        assert program.get(f"/api/tables/{t['id']}/view").json()["seat"] == 1
    assert [(m["id"], m["seat"]) for m in player.http.get("/api/me/tables").json()
            if m["id"] == t["id"]] == [(t["id"], 1)]
    read = make_token(player, "reader", ["read"])["token"]
    with httpx.Client(base_url=server.base, headers=bearer(read)) as program:
        assert program.post(f"/api/tables/{t['id']}/claim?token=x").status_code == 403
