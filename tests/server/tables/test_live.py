"""The live channel: whole matches over WebSockets, reconnecting with ``since``, the NDJSON
stream, table messages when seats change, spectators, and the check that no message ever
shows a seat a card it may not see."""

from __future__ import annotations

import gzip
import json
import queue
import random
import threading
import time
from datetime import datetime
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.helpers import CARD, ROOT, Api, Server, Truth, cards_in, pick_actor, tokens_of
from tests.server.tables.test_http import SEATS, SHORT


def ws_open(server: Server, table: str, token: str | None,
            since: int | None = None) -> ClientConnection:
    """A seat's socket (a spectator's without a token)."""
    query = [f"token={token}"] if token is not None else []
    if since is not None:
        query.append(f"since={since}")
    url = f"{server.ws_base}/api/tables/{table}/ws" + ("?" + "&".join(query) if query else "")
    try:  # websockets 16+ wants this said to connect without a with block
        return connect(url, open_timeout=10, close_timeout=2, legacy=True)
    except TypeError:
        return connect(url, open_timeout=10, close_timeout=2)


def next_message(ws: ClientConnection, skip_pings: bool = True) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if not (skip_pings and msg["type"] == "ping"):
            return msg


class Seat:
    """One seat's socket and everything it was sent."""

    def __init__(self, server: Server, table: str, seat: int, token: str | None,
                 since: int | None = None) -> None:
        self.seat = seat
        self.ws = ws_open(server, table, token, since)
        self.version = -1
        self.view: dict[str, Any] = {}
        self.got: list[dict[str, Any]] = []
        self.acks: dict[str, dict[str, Any]] = {}
        self.all_acks: list[dict[str, Any]] = []
        self.tables: list[dict[str, Any]] = []  # table messages, in order
        self.info: dict[str, Any] = {}  # the latest table info, from any message

    def read_until(self, version: int, ack: str | None = None) -> None:
        while self.version < version or (ack is not None and ack not in self.acks):
            msg = next_message(self.ws)
            if msg["type"] == "table":
                assert msg["version"] >= self.version and msg["table"]["id"]
                self.tables.append(msg["table"])
                self.info = msg["table"]
                continue
            if msg["type"] == "ack":
                self.acks[msg["id"]] = msg
                self.all_acks.append(msg)
                continue
            if msg["type"] == "error":
                raise AssertionError(f"seat {self.seat}: {msg}")
            if msg["type"] == "event":
                assert self.version < 0 or msg["version"] == self.version + 1, \
                    f"seat {self.seat}: version {msg['version']} after {self.version}"
            else:
                assert msg["type"] == "view"
            self.version = msg["version"]
            self.view = msg["view"]
            self.info = msg["view"]["table"]
            self.got.append(msg)

    def read_table(self, pred: Any) -> dict[str, Any]:
        """Read on until the latest table info satisfies ``pred``."""
        while not (self.info and pred(self.info)):
            msg = next_message(self.ws)
            assert msg["type"] in ("table", "event", "view"), msg
            if msg["type"] == "table":
                assert msg["version"] >= self.version
                self.tables.append(msg["table"])
                self.info = msg["table"]
            else:
                self.version, self.view = msg["version"], msg["view"]
                self.info = msg["view"]["table"]
                self.got.append(msg)
        return self.info

    def close(self) -> None:
        self.ws.close()


def check_messages(truth: Truth, seat: int, messages: list[dict[str, Any]]) -> None:
    for msg in messages:
        truth.check_view(seat, msg["version"], msg["view"])
        if msg["type"] == "event":
            truth.check_events(seat, msg["version"], msg["events"])


@pytest.mark.parametrize("game", ["court-piece", "court-piece-2p", "goat"])
def test_full_match_over_websockets(api: Api, server: Server, game: str) -> None:
    t = api.create(game, SHORT[game], [{"type": "human"}] * SEATS[game])
    tokens = tokens_of(t)
    seats = {s: Seat(server, t["id"], s, tok) for s, tok in tokens.items()}
    rng = random.Random(11)
    version = 0
    try:
        for s in seats.values():
            s.read_until(0)
        while not seats[0].view["over"]:
            seat, action = pick_actor({s: x.view for s, x in seats.items()}, rng) or (-1, "")
            assert seat >= 0
            cid = f"ws-{version}"
            seats[seat].ws.send(json.dumps({"type": "action", "action": action, "id": cid}))
            version += 1
            for s in seats.values():
                s.read_until(version, cid if s.seat == seat else None)
            assert seats[seat].acks[cid]["version"] == version
    finally:
        for s in seats.values():
            s.close()
    truth = Truth(api.record(t["id"]))
    for s in seats.values():
        assert [m["version"] for m in s.got] == list(range(version + 1))
        check_messages(truth, s.seat, s.got)


@pytest.mark.slow
def test_reconnect_receives_exactly_what_was_missed(api: Api, server: Server) -> None:
    t = api.create("court-piece", SHORT["court-piece"], [{"type": "human"}] * 4)
    tid = t["id"]
    tokens = tokens_of(t)
    rng = random.Random(2)

    def play(n: int) -> None:
        for _ in range(n):
            views = {s: api.view(tid, tok) for s, tok in tokens.items()}
            if views[0]["over"]:
                return
            seat, action = pick_actor(views, rng) or (-1, "")
            assert api.act(tid, tokens[seat], action).status_code == 200

    watcher = Seat(server, tid, 2, tokens[2])
    watcher.read_until(0)
    play(5)
    watcher.read_until(5)
    watcher.close()
    play(9)  # seat 2 is away; its moves are made over HTTP
    back = Seat(server, tid, 2, tokens[2], since=5)
    back.read_until(14)
    assert [(m["type"], m["version"]) for m in back.got] == [("event", v) for v in range(6, 15)]
    play(1)
    back.read_until(15)
    assert back.got[-1]["version"] == 15
    back.close()
    fresh = Seat(server, tid, 2, tokens[2], since=-1)
    fresh.read_until(15)
    assert [m["type"] for m in fresh.got] == ["view"]
    fresh.close()
    same = Seat(server, tid, 2, tokens[2], since=15)
    play(1)
    same.read_until(16)
    assert [m["version"] for m in same.got] == [16]
    same.close()
    play(200)
    truth = Truth(api.record(tid))
    for seat in (watcher, back, fresh, same):
        check_messages(truth, 2, seat.got)


@pytest.mark.slow
def test_long_absence_is_replayed_from_the_store(api: Api, server: Server) -> None:
    """More missed events than a room keeps in memory: they are rebuilt from the store."""
    t = api.create("court-piece-2p", {"target": 4}, [{"type": "human"}] * 2)
    tid = t["id"]
    tokens = tokens_of(t)
    rng = random.Random(4)
    played = 0
    while played < 80:
        views = {s: api.view(tid, tok) for s, tok in tokens.items()}
        if views[0]["over"]:
            break
        seat, action = pick_actor(views, rng) or (-1, "")
        assert api.act(tid, tokens[seat], action).status_code == 200
        played += 1
    lines = stream_lines(server, tid, tokens[1], since=3, count=played - 3)
    assert [m["version"] for m in lines] == list(range(4, played + 1))
    while not api.view(tid, tokens[0])["over"]:
        views = {s: api.view(tid, tok) for s, tok in tokens.items()}
        seat, action = pick_actor(views, rng) or (-1, "")
        assert api.act(tid, tokens[seat], action).status_code == 200
    check_messages(Truth(api.record(tid)), 1, lines)


def stream_lines(server: Server, table: str, token: str | None, since: int | None,
                 count: int, pings: int = 0) -> list[dict[str, Any]]:
    """The first ``count`` view and event lines of the NDJSON stream (and at least ``pings``
    pings); a spectator's without a token."""
    out: list[dict[str, Any]] = []
    seen_pings = 0
    params: dict[str, Any] = {"token": token} if token is not None else {}
    if since is not None:
        params["since"] = since
    with httpx.stream("GET", f"{server.base}/api/tables/{table}/stream", params=params,
                      timeout=15) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("application/x-ndjson")
        for line in r.iter_lines():
            msg = json.loads(line)
            if msg["type"] == "ping":
                seen_pings += 1
            elif msg["type"] != "table":
                out.append(msg)
            if len(out) >= count and seen_pings >= pings:
                break
    return out


def test_stream_sends_view_then_events_and_pings(api: Api, server: Server) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    tokens = tokens_of(t)
    got: queue.Queue[list[dict[str, Any]]] = queue.Queue()
    thread = threading.Thread(target=lambda: got.put(
        stream_lines(server, t["id"], tokens[1], None, 3, pings=1)))
    thread.start()
    api.wait_for(t["id"], tokens[0], lambda v: v["table"]["seats"][1]["connected"])
    assert api.act(t["id"], tokens[0], "trump:S").status_code == 200
    v = api.view(t["id"], tokens[0])
    assert api.act(t["id"], tokens[0], v["legal_actions"][0]).status_code == 200
    thread.join(20)
    lines = got.get(timeout=1)
    assert [(m["type"], m["version"]) for m in lines] == [("view", 0), ("event", 1),
                                                           ("event", 2)]
    assert lines[1]["events"][0] == {"type": "action", "seat": 0, "action": "trump:S",
                                     "deal": 0}
    assert lines[2]["view"]["seat"] == 1 and len(lines[2]["view"]["hand"]) == 13
    r = httpx.get(f"{server.base}/api/tables/{t['id']}/stream", params={"token": "bogus"},
                  timeout=5)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = httpx.get(f"{server.base}/api/tables/{t['id']}/stream", params={"seat": 1}, timeout=5)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_websocket_errors_and_duplicates(api: Api, server: Server) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    tokens = tokens_of(t)
    with ws_open(server, t["id"], "bogus") as ws:
        msg = json.loads(ws.recv(timeout=5))
        assert msg["type"] == "error" and msg["error"]["code"] == "unauthorized"
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 4401
    seat = Seat(server, t["id"], 1, tokens[1])
    seat.read_until(0)
    seat.ws.send(json.dumps({"type": "action", "action": "trump:S", "id": "x"}))
    err = next_message(seat.ws)
    assert err["type"] == "error" and err["id"] == "x"
    assert err["error"]["code"] == "illegal" and err["error"]["rule"] == "TW-3"
    seat.ws.send("not json")
    assert next_message(seat.ws)["error"]["code"] == "bad_request"
    seat.ws.send(json.dumps({"type": "action", "action": "trump:S", "id": "v", "version": "0"}))
    assert next_message(seat.ws)["error"]["code"] == "bad_request"
    seat.close()
    me = Seat(server, t["id"], 0, tokens[0])
    me.read_until(0)
    for _ in range(2):
        me.ws.send(json.dumps({"type": "action", "action": "trump:D", "id": "same"}))
    me.read_until(1, "same")
    while len(me.all_acks) < 2:
        msg = next_message(me.ws)
        assert msg["type"] == "ack"
        me.all_acks.append(msg)
    first, second = me.all_acks
    assert first == second and second["version"] == 1
    assert api.view(t["id"], tokens[0])["version"] == 1
    # An action sent on a version the table has left is refused and changes nothing.
    card = api.view(t["id"], tokens[0])["legal_actions"][0]
    me.ws.send(json.dumps({"type": "action", "action": card, "id": "old", "version": 0}))
    err = next_message(me.ws)
    while err["type"] == "table":
        err = next_message(me.ws)
    assert err["type"] == "error" and err["id"] == "old" and err["error"]["code"] == "stale"
    assert api.view(t["id"], tokens[0])["version"] == 1
    me.ws.send(json.dumps({"type": "action", "action": card, "id": "now", "version": 1}))
    me.read_until(2, "now")
    me.close()


def play_over_http(api: Api, table: str, tokens: dict[int, str], seed: int) -> int:
    """Play the match to its end over HTTP; the last version."""
    rng = random.Random(seed)
    while True:
        views = {s: api.view(table, tok) for s, tok in tokens.items()}
        if views[0]["over"]:
            return int(views[0]["version"])
        seat, action = pick_actor(views, rng) or (-1, "")
        assert api.act(table, tokens[seat], action).status_code == 200


def connected(seat: int, on: bool = True) -> Any:
    return lambda info: info["seats"][seat]["connected"] is on


def test_table_messages_when_seats_connect_rematch_and_leave(api: Api, server: Server) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    tid, tokens = t["id"], tokens_of(t)
    me = Seat(server, tid, 0, tokens[0])
    me.read_until(0)
    assert me.info["seats"][0]["connected"] and not me.info["seats"][1]["connected"]
    friend = Seat(server, tid, 1, tokens[1])
    me.read_table(connected(1))  # with no move made (read_table's deadline bounds a hang)
    assert me.version == 0 and me.tables
    assert me.tables[-1]["version"] == 0
    friend.close()
    me.read_table(connected(1, False))
    last = play_over_http(api, tid, tokens, 3)
    me.read_until(last)
    r = api.http.post(f"/api/tables/{tid}/rematch", headers=api.auth(tokens[1]))
    assert r.status_code == 200
    assert me.read_table(lambda i: i["rematch"] is not None)["rematch"] == r.json()["id"]
    # a seat that leaves: the others see its bot at once, and its own socket is closed
    friend = Seat(server, tid, 1, tokens[1])
    friend.read_until(last)
    me.read_table(connected(1))
    assert api.http.post(f"/api/tables/{tid}/leave",
                         headers=api.auth(tokens[1])).status_code == 200
    info = me.read_table(lambda i: i["seats"][1]["type"] == "bot")
    assert info["seats"][1]["level"] == "easy"
    with pytest.raises(ConnectionClosed):
        for _ in range(20):
            friend.ws.recv(timeout=5)
    me.read_table(connected(1, False))
    me.close()


def test_stream_gets_a_table_message_when_a_seat_is_joined(api: Api, server: Server) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   open=True, first_seat=0)
    tid, tokens = t["id"], tokens_of(t)
    with httpx.stream("GET", f"{server.base}/api/tables/{tid}/stream",
                      params={"token": tokens[0]}, timeout=10) as r:
        lines = (json.loads(line) for line in r.iter_lines())
        first = next(lines)
        assert first["type"] == "view" and not first["view"]["table"]["seats"][1]["claimed"]
        joined = api.http.post(f"/api/tables/{tid}/join", json={"name": "Zara"})
        assert joined.status_code == 200
        msg = next(m for m in lines if m["type"] == "table")  # the read timeout bounds a hang
        assert msg["version"] == 0 and msg["table"]["id"] == tid
        assert msg["table"]["seats"][1] == {"seat": 1, "type": "human", "level": None,
                                            "name": "Zara", "claimed": True,
                                            "connected": False}


def test_spectators_get_only_public_views_and_cannot_act(api: Api, server: Server) -> None:
    t = api.create("goat", SHORT["goat"], [{"type": "human"}] * 4)
    tid, tokens = t["id"], tokens_of(t)
    watcher = Seat(server, tid, -1, None)
    watcher.read_until(0)
    hand = api.view(tid, tokens[0])["hand"]
    for msg in ({"type": "action", "action": f"lead:{hand[0]}", "id": "w1"},
                {"type": "action", "action": "nonsense"}):
        watcher.ws.send(json.dumps(msg))
        while (err := next_message(watcher.ws))["type"] == "table":
            pass
        assert err["type"] == "error" and err["error"]["code"] == "unauthorized", err
    assert err["id"] is None and "seat token" in err["error"]["message"]
    watcher.ws.send(json.dumps({"type": "ping"}))
    while (pong := next_message(watcher.ws))["type"] == "table":
        pass
    now = datetime.fromisoformat(pong.pop("now").replace("Z", "+00:00")).timestamp()
    assert pong == {"type": "pong", "version": 0} and abs(now - time.time()) < 5
    last = play_over_http(api, tid, tokens, 8)
    watcher.read_until(last)
    watcher.close()
    late = stream_lines(server, tid, None, 3, count=last - 3)  # a spectator catching up
    assert [m["version"] for m in late] == list(range(4, last + 1))
    truth = Truth(api.record(tid))
    assert [m["version"] for m in watcher.got] == list(range(last + 1))
    for m in watcher.got + late:
        view = m["view"]
        assert "hand" not in view and "legal_actions" not in view and "seat" not in view
        truth.check_public(m["version"], view)
        if m["type"] == "event":  # only cards known before, or that this action showed
            v = m["version"]
            secret = set(truth.decks[v - 1]) - truth.faceup[v - 1]
            secret.discard(str(truth.trump_cards[v - 1] or ""))
            _, action = truth.actions[v]
            verb, _, arg = action.partition(":")
            if verb != "pass":
                secret -= set(CARD.findall(arg.upper()))
            assert not cards_in(m["events"]) & secret, f"version {v} shows a hidden card"


def test_compressed_assets_and_json_but_a_plain_prompt_stream(api: Api, server: Server) -> None:
    gz = {"Accept-Encoding": "gzip"}
    app_js = (ROOT / "src" / "taash" / "web" / "app.js").read_bytes()
    with httpx.stream("GET", f"{server.base}/assets/app.js", headers=gz) as r:
        raw = b"".join(r.iter_raw())
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert gzip.decompress(raw) == app_js and len(raw) < len(app_js)
    plain = httpx.get(f"{server.base}/assets/app.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == app_js
    r = httpx.get(f"{server.base}/openapi.json", headers=gz)
    assert r.headers["content-encoding"] == "gzip" and "/api/tables" in r.json()["paths"]
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    tid, tokens = t["id"], tokens_of(t)
    # not compressed, so not held back in a compressor's buffer: each line comes as it is
    # written (a line held back would fail on the 10 s read timeout, a bound against a hang)
    with httpx.stream("GET", f"{server.base}/api/tables/{tid}/stream", headers=gz,
                      params={"token": tokens[1]}, timeout=10) as r:
        assert "content-encoding" not in r.headers
        lines = (json.loads(line) for line in r.iter_lines())
        assert next(lines)["type"] == "view"
        assert api.act(tid, tokens[0], "trump:S").status_code == 200
        msg = next(m for m in lines if m["type"] == "event")
        assert msg["version"] == 1


def test_a_client_gone_mid_send_is_an_ordinary_end_not_a_warning() -> None:
    """A client that closes while the server sends it a move (every client of a generator
    stopping at once, a phone going into a tunnel): starlette 1.x raises its own error for
    the send, which the socket's handler logged as a warning, one a socket."""
    from starlette import websockets

    from taash.server.tables.live import GONE

    closed = getattr(websockets, "WebSocketDisconnected", None)
    if closed is not None:
        assert isinstance(closed('Cannot call "send" once a close message has been sent.'),
                          GONE)
    assert isinstance(websockets.WebSocketDisconnect(1001), GONE)
    assert isinstance(ConnectionResetError(), GONE)
    assert not isinstance(RuntimeError("a real fault"), GONE)
