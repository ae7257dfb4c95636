"""Voice signalling over the table's WebSocket: relayed only between the human seats of one
table that turned voice on, stamped with the sender's seat by the server, refused to
spectators, bots, read-only tokens, oversized and too fast messages; carried across instances
by the bus; and GET /ice with coturn's time-limited TURN credentials."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from tests.server.helpers import Api, Server, tokens_of
from tests.server.tables.test_live import ws_open
from tests.waiting import wait_until

OFFER = {"description": {"type": "offer", "sdp": "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n"}}


def voice_msgs(ws: ClientConnection, want: int = 1, timeout: float = 10,
               types: tuple[str, ...] = ("voice", "error")) -> list[dict[str, Any]]:
    """The next ``want`` voice and error messages on a socket (others skipped)."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while len(got) < want:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"waited for {want} voice messages, got {got}")
        msg = json.loads(ws.recv(timeout=left))
        if msg["type"] in types:
            got.append(msg)
    return got


def quiet(ws: ClientConnection) -> list[dict[str, Any]]:
    """The voice messages a socket has been sent by now (expected: none): it pings and reads
    up to the pong.  What the caller checks was refused (its error read) before this ping was
    sent, and a relay is queued for this socket while the refusal is handled, so the socket's
    sender has had that round trip and this one to send it before the pong: a positive sign
    instead of a fixed wait (a relay could only slip past it in a race, never the reverse)."""
    got: list[dict[str, Any]] = []
    ws.send(json.dumps({"type": "ping"}))
    while (msg := json.loads(ws.recv(timeout=10)))["type"] != "pong":
        if msg["type"] == "voice":
            got.append(msg)
    return got


def presence(ws: ClientConnection, seats: list[int]) -> None:
    """Read until the socket is told exactly these seats have voice on."""
    deadline = time.monotonic() + 10
    while True:
        (m,) = voice_msgs(ws, 1, deadline - time.monotonic(), ("voice",))
        if m.get("on") == seats:
            return


def signal(ws: ClientConnection) -> dict[str, Any]:
    """The next relayed signal on a socket (presence messages skipped)."""
    deadline = time.monotonic() + 10
    while True:
        (m,) = voice_msgs(ws, 1, deadline - time.monotonic(), ("voice",))
        if "from" in m:
            return m


def send(ws: ClientConnection, msg: dict[str, Any]) -> None:
    ws.send(json.dumps(msg))


@pytest.fixture
def duo(api: Api, server: Server) -> Iterator[tuple[str, dict[int, str], ClientConnection,
                                                     ClientConnection]]:
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
    tid, tokens = t["id"], tokens_of(t)
    a, b = ws_open(server, tid, tokens[0]), ws_open(server, tid, tokens[1])
    yield tid, tokens, a, b
    a.close()
    b.close()


def test_signals_reach_the_named_seat_stamped_by_the_server(duo: Any) -> None:
    _tid, _tokens, a, b = duo
    send(a, {"type": "voice", "on": True})
    presence(b, [0])
    presence(a, [0])
    send(b, {"type": "voice", "on": True})
    presence(a, [0, 1])
    presence(b, [0, 1])
    # "from" is the server's: a seat cannot speak for another
    send(a, {"type": "voice", "to": 1, "from": 1, "data": OFFER})
    assert signal(b) == {"type": "voice", "from": 0, "data": OFFER}
    send(b, {"type": "voice", "to": 0, "data": {"candidate": {"candidate": "c", "sdpMid": "0"}}})
    m = signal(a)
    assert m["from"] == 1 and m["data"]["candidate"]["candidate"] == "c"
    # voice off, then a closed socket: the other side is told
    send(b, {"type": "voice", "on": False})
    presence(a, [0])
    send(b, {"type": "voice", "on": True})
    presence(a, [0, 1])
    b.close()
    presence(a, [0])


def test_a_seat_without_voice_on_gets_no_offer(duo: Any) -> None:
    _tid, _tokens, a, b = duo
    send(a, {"type": "voice", "to": 1, "data": OFFER, "id": "x"})
    (m,) = voice_msgs(a)  # a has not turned voice on
    assert m["type"] == "error" and m["error"]["code"] == "conflict" and m["id"] == "x"
    send(a, {"type": "voice", "on": True})
    presence(a, [0])
    send(a, {"type": "voice", "to": 1, "data": OFFER})
    (m,) = voice_msgs(a)  # b has not
    assert m["error"]["code"] == "conflict" and "seat 1" in m["error"]["message"]
    assert all("from" not in m for m in quiet(b))


@pytest.mark.parametrize(("msg", "code"), [
    ({"type": "voice", "to": 0, "data": OFFER}, "bad_request"),  # oneself
    ({"type": "voice", "to": 2, "data": OFFER}, "bad_request"),  # no such seat
    ({"type": "voice", "to": "1", "data": OFFER}, "bad_request"),
    ({"type": "voice", "to": 1, "data": {"offer": "x", "bye": True}}, "bad_request"),
    ({"type": "voice", "to": 1, "data": "sdp"}, "bad_request"),
    ({"type": "voice", "on": "yes"}, "bad_request"),
    ({"type": "voice", "to": 1, "data": {"description": {"sdp": "x" * 17000}}}, "too_large"),
])
def test_malformed_and_oversized_voice_messages_are_refused(duo: Any, msg: dict[str, Any],
                                                            code: str) -> None:
    _tid, _tokens, a, b = duo
    for ws in (a, b):
        send(ws, {"type": "voice", "on": True})
    presence(a, [0, 1])
    send(a, msg)
    (m,) = voice_msgs(a, types=("error",))
    assert m["error"]["code"] == code, m
    assert [m for m in quiet(b) if "from" in m] == []


@pytest.mark.slow
def test_voice_messages_are_rate_limited(duo: Any) -> None:
    _tid, _tokens, a, b = duo
    for ws in (a, b):
        send(ws, {"type": "voice", "on": True})
    presence(a, [0, 1])
    cand = {"type": "voice", "to": 1, "data": {"candidate": {"candidate": "c"}}}
    for _ in range(150):
        send(a, cand)
    errors = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            m = json.loads(a.recv(timeout=0.5))
        except TimeoutError:
            break
        if m["type"] == "error":
            errors.append(m["error"]["code"])
    assert errors and set(errors) == {"rate_limited"}
    assert len(errors) < 150 - 60  # the burst went through


def test_spectators_and_bot_seats_take_no_part(api: Api, server: Server) -> None:
    t = api.create("court-piece", None, [{"type": "human"}, {"type": "bot"},
                                         {"type": "human"}, {"type": "human"}])
    tid, tokens = t["id"], tokens_of(t)
    a, c = ws_open(server, tid, tokens[0]), ws_open(server, tid, tokens[2])
    spy = ws_open(server, tid, None)
    try:
        send(a, {"type": "voice", "on": True})
        send(c, {"type": "voice", "on": True})
        presence(a, [0, 2])
        for msg in ({"type": "voice", "on": True}, {"type": "voice", "to": 0, "data": OFFER}):
            send(spy, msg)
            (m,) = voice_msgs(spy, types=("error",))
            assert m["error"]["code"] == "forbidden" and "spectator" in m["error"]["message"]
        send(a, {"type": "voice", "to": 1, "data": OFFER})
        (m,) = voice_msgs(a, types=("error",))
        assert m["error"]["code"] == "forbidden" and "seat 1" in m["error"]["message"]
        send(a, {"type": "voice", "to": 2, "data": OFFER})
        assert signal(c)["from"] == 0
        assert quiet(spy) == []  # the spectator saw neither who talks nor any signal
    finally:
        for ws in (a, c, spy):
            ws.close()


def test_another_tables_seat_cannot_reach_this_table(api: Api, server: Server) -> None:
    one = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
    two = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
    mine = ws_open(server, one["id"], tokens_of(one)[0])
    other = ws_open(server, two["id"], tokens_of(two)[0])
    try:
        send(mine, {"type": "voice", "on": True})
        send(other, {"type": "voice", "on": True})
        presence(mine, [0])
        send(other, {"type": "voice", "to": 1, "data": OFFER})
        (m,) = voice_msgs(other, types=("error",))
        assert m["error"]["code"] == "conflict"
        assert [m for m in quiet(mine) if "from" in m] == []
        # and another table's token does not open this table's socket at all
        intruder = ws_open(server, one["id"], tokens_of(two)[1])
        first = json.loads(intruder.recv(timeout=5))
        assert first["type"] == "error" and first["error"]["code"] == "forbidden"
        intruder.close()
    finally:
        mine.close()
        other.close()


def test_ice_without_configuration_is_empty(api: Api) -> None:
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
    r = api.http.get(f"/api/tables/{t['id']}/ice", headers=api.auth(tokens_of(t)[1]))
    assert r.status_code == 200, r.text
    assert r.json() == {"ice_servers": [], "ttl": None, "same_network_only": True}
    assert api.http.get(f"/api/tables/{t['id']}/ice").status_code == 401


@pytest.mark.slow
def test_ice_hands_out_coturn_credentials(tmp_path: Path) -> None:
    servers = [{"urls": "stun:127.0.0.1:3478"},
               {"urls": ["turn:127.0.0.1:3478?transport=udp"]},
               {"urls": "turn:turn.example.org", "username": "u", "credential": "p"}]
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'ice.db'}", "--ice-servers",
                 json.dumps(servers), "--turn-ttl", "600",
                 env={"TAASH_TURN_SECRET": "s3cret"}).start()
    try:
        api = Api(srv.base)
        t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
        before = time.time()
        r = api.http.get(f"/api/tables/{t['id']}/ice", headers=api.auth(tokens_of(t)[1]))
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["ttl"] == 600 and got["same_network_only"] is False
        stun, turn, fixed = got["ice_servers"]
        assert stun == {"urls": ["stun:127.0.0.1:3478"]}
        assert fixed == {"urls": ["turn:turn.example.org"], "username": "u", "credential": "p"}
        expiry, user = turn["username"].split(":")
        assert user == f"{t['id']}.1" and before + 599 <= int(expiry) <= time.time() + 601
        want = hmac.new(b"s3cret", turn["username"].encode(), hashlib.sha1).digest()
        assert turn["credential"] == base64.b64encode(want).decode()
        api.close()
    finally:
        srv.stop()


@pytest.mark.slow
def test_bad_ice_servers_stop_the_server_with_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.server.helpers import ROOT

    for bad, says in (("[{", "not JSON"), ('[{"urls": "http://x"}]', "stun:, turn:")):
        out = subprocess.run(
            [sys.executable, "-m", "taash", "serve", "--db",
             f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", "--ice-servers", bad, "--check-config"],
            capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert out.returncode != 0 and says in out.stderr and "Traceback" not in out.stderr


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_signals_cross_instances(pg_url: str, redis_url: str, tmp_path: Path) -> None:
    a = Server(pg_url, "--redis", redis_url, log=tmp_path / "a.log").start()
    b = Server(pg_url, "--redis", redis_url, log=tmp_path / "b.log").start()
    try:
        api = Api(a.base)
        t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
        tid, tokens = t["id"], tokens_of(t)
        s0 = ws_open(a, tid, tokens[0])
        send(s0, {"type": "voice", "on": True})
        presence(s0, [0])
        s1 = ws_open(b, tid, tokens[1])  # b opens the table after seat 0 turned voice on
        presence(s1, [0])
        send(s1, {"type": "voice", "on": True})
        presence(s0, [0, 1])
        send(s0, {"type": "voice", "to": 1, "data": OFFER})
        assert signal(s1) == {"type": "voice", "from": 0, "data": OFFER}
        send(s1, {"type": "voice", "to": 0, "data": {"bye": True}})
        assert signal(s0) == {"type": "voice", "from": 1, "data": {"bye": True}}
        s1.close()
        presence(s0, [0])
        s0.close()
        api.close()
    finally:
        a.stop()
        b.stop()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_a_killed_instances_seats_are_not_relayed_to(pg_url: str, redis_url: str,
                                                     tmp_path: Path) -> None:
    a = Server(pg_url, "--redis", redis_url, log=tmp_path / "a.log").start()
    b = Server(pg_url, "--redis", redis_url, log=tmp_path / "b.log").start()
    try:
        api = Api(a.base)
        t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
        tid, tokens = t["id"], tokens_of(t)
        s0, s1 = ws_open(a, tid, tokens[0]), ws_open(b, tid, tokens[1])
        for ws in (s0, s1):
            send(ws, {"type": "voice", "on": True})
        presence(s0, [0, 1])
        send(s0, {"type": "voice", "to": 1, "data": OFFER})
        assert signal(s1)["from"] == 0
        b.kill()  # SIGKILL: b never says it is gone
        def refused() -> bool:  # presence forgets b within a few of its intervals (1 s here)
            send(s0, {"type": "voice", "to": 1, "data": OFFER, "id": "k"})
            try:
                (got,) = voice_msgs(s0, 1, types=("error",), timeout=1)
            except (TimeoutError, AssertionError):  # relayed: no answer
                return False
            return bool(got["error"]["code"] == "conflict")

        wait_until(refused, timeout=15, what="a dead instance's seat no longer relayed to",
                   every=0.5)
        s0.close()
        api.close()
    finally:
        a.stop()
        b.stop()
