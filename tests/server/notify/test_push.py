"""Web Push turn notices, received by a push service written here on 127.0.0.1 (the server is
told to allow its origin).  Each message is decrypted with the subscription's private key
(``http_ece``, RFC 8291) and its VAPID token checked with the server's public key (RFC 8292)."""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.server.helpers import Api, Server, tokens_of
from tests.server.tables.test_live import ws_open
from tests.waiting import wait_until


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


class PushService(BaseHTTPRequestHandler):
    """Answers 201, or what ``answers`` has queued (status, headers) for the path and the
    message's urgency ("/path normal": a turn's notice, "/path low": a reminder), else for the
    path.  A turn's notice and its reminder are delivered by separate tasks, so on a busy
    machine either may reach the service first: an answer meant for one is queued under its
    urgency."""

    received: ClassVar[list[Received]] = []
    answers: ClassVar[dict[str, list[tuple[int, dict[str, str]]]]] = {}

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        PushService.received.append(Received(self.path, {k.lower(): v for k, v in
                                                         self.headers.items()},
                                             body, time.monotonic()))
        urgency = self.headers.get("urgency", "")
        queued = (PushService.answers.get(f"{self.path} {urgency}")
                  or PushService.answers.get(self.path))
        status, headers = queued.pop(0) if queued else (201, {})
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return None


@dataclass
class Browser:
    """A subscription as a browser holds it: the endpoint, its key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def json(self) -> dict[str, Any]:
        pub = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                 serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(pub), "auth": b64(self.auth)}}

    def path(self) -> str:
        return "/" + self.endpoint.split("/", 3)[3]

    def messages(self) -> list[Received]:
        return [r for r in PushService.received if r.path == self.path()]

    def decrypt(self, r: Received) -> dict[str, Any]:
        assert r.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(r.body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        out: dict[str, Any] = json.loads(plain)
        return out


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), PushService)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def db_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("push") / "p.db"


@pytest.fixture(scope="module")
def pushing(db_file: Path, service: str) -> Iterator[Server]:
    srv = Server(f"sqlite+aiosqlite:///{db_file}", "--remind-after", "0.5", "--sweep", "0.2",
                 "--bot-delay", "0", "--push-allow-origins", service,
                 log=db_file.parent / "server.log").start()
    yield srv
    srv.stop()


def wait(pred: Any, timeout: float = 15) -> None:
    wait_until(pred, timeout=timeout, what=getattr(pred, "__name__", "a push"))


def notice_to(browser: Browser) -> dict[str, Any]:
    """The first "your_turn" message the browser received, waited for: a turn's reminder,
    delivered by another task, may reach the service before its notice (see PushService)."""
    def told() -> list[dict[str, Any]]:
        return [m for m in map(browser.decrypt, browser.messages()) if m["type"] == "your_turn"]

    wait(lambda: bool(told()))
    return told()[0]


def swept_past_now(api: Api, service: str) -> None:
    """Until the server's reminder sweep has run past every reminder due by now: a control
    table's seat comes to move now (after every turn the caller checks), and its reminder,
    sent by a sweep at least --remind-after later, is received.  Notices are claimed and sent
    in that sweep's order, so a reminder due earlier (one that should not go out) would have
    gone out before it: a positive sign, instead of a fixed sleep past --remind-after."""
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=1)
    control = Browser(f"{service}/control/{t['id']}")
    subscribe(api, t["id"], tokens_of(t)[0], control)
    play_until(api, t["id"], tokens_of(t), 0)
    wait_until(lambda: any(control.decrypt(m)["type"] == "reminder"
                           for m in control.messages()),
               timeout=15, what="the control table's reminder")


def check_vapid(r: Received, server_key: str, service: str) -> dict[str, Any]:
    """The VAPID token's claims, once its signature is verified with the server's key."""
    scheme, _, rest = r.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.split("=", 1) for p in rest.split(","))
    assert parts["k"] == server_key
    head, claims, sig = parts["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(sig)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):  # the check checks: another key does not verify
        ec.generate_private_key(ec.SECP256R1()).public_key().verify(
            der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    out: dict[str, Any] = json.loads(unb64(claims))
    assert out["aud"] == service
    assert time.time() < out["exp"] <= time.time() + 24 * 3600
    return out


def play_until(api: Api, tid: str, tokens: dict[int, str], seat: int) -> None:
    """Play the first legal action of whoever is to move until ``seat`` is."""
    for _ in range(60):
        v = api.public(tid)
        if v["to_move"] == seat:
            return
        mover = v["to_move"]
        legal = api.view(tid, tokens[mover])["legal_actions"]
        assert api.act(tid, tokens[mover], legal[0]).status_code == 200
    raise AssertionError(f"seat {seat} never came to move")


def subscribe(api: Api, tid: str, token: str, browser: Browser,
              language: str = "en") -> dict[str, Any]:
    r = api.http.post(f"/api/tables/{tid}/push", headers=api.auth(token),
                      json={"subscription": browser.json(), "language": language})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.mark.slow
def test_turn_push_is_encrypted_signed_and_reminded(pushing: Server, service: str) -> None:
    api = Api(pushing.base)
    key = api.http.get("/api/push/key").json()["key"]
    assert len(unb64(key)) == 65 and unb64(key)[0] == 4
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human", "name": "Zara"},
                                                     {"type": "human"}], first_seat=1)
    tid, tokens = t["id"], tokens_of(t)
    browser = Browser(f"{service}/send/{tid}-0")
    shown = subscribe(api, tid, tokens[0], browser, "ru")
    assert shown["table"] == tid and shown["seat"] == 0 and shown["muted"] is False
    assert api.act(tid, tokens[1], "trump:S").status_code == 200
    lead = api.view(tid, tokens[1])["legal_actions"][0]
    assert api.act(tid, tokens[1], lead).status_code == 200  # now seat 0 is to play
    # nobody moves: the turn's notice, then one reminder after --remind-after with a lower
    # urgency.  Each is delivered by its own task, so on a busy machine the reminder, claimed
    # after the notice, may still reach the push service first: told apart by their type.
    wait(lambda: len(browser.messages()) >= 2)
    by_type = {browser.decrypt(m)["type"]: m for m in browser.messages()}
    assert sorted(by_type) == ["reminder", "your_turn"]
    first = by_type["your_turn"]
    payload = browser.decrypt(first)
    assert payload == {
        "type": "your_turn", "table": tid, "game": "court-piece-2p", "seat": 0, "turn": 0,
        "name": "Zara", "version": 2, "lang": "ru", "title": "Ваш ход: Корт-пис на двоих",
        "body": f"Zara, стол {tid}: вас ждут.", "url": f"/t/{tid}?seat=0",
        "tag": f"taash-{tid}", "icon": "/assets/icon.svg"}
    assert first.headers["ttl"] == "86400" and first.headers["urgency"] == "normal"
    assert first.headers["topic"] == f"t{tid}"
    check_vapid(first, key, service)
    second = by_type["reminder"]
    assert second.headers["urgency"] == "low"
    check_vapid(second, key, service)
    swept_past_now(api, service)  # and no second reminder
    assert len(browser.messages()) == 2
    api.close()


def test_a_gone_subscription_is_removed(pushing: Server, service: str, db_file: Path) -> None:
    api = Api(pushing.base)
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=1)
    tid, tokens = t["id"], tokens_of(t)
    browser = Browser(f"{service}/gone/{tid}")
    PushService.answers[browser.path()] = [(410, {})] * 5
    subscribe(api, tid, tokens[0], browser)

    def kept() -> int:
        with sqlite3.connect(db_file) as db:
            return int(db.execute("SELECT count(*) FROM push_subscriptions WHERE table_id = ?",
                                  (tid,)).fetchone()[0])

    assert kept() == 1
    play_until(api, tid, tokens, 0)
    told = notice_to(browser)
    wait(lambda: kept() == 0)
    # this turn's reminder may have been claimed before the notice's 410 (see PushService);
    # the next turn of the seat, after the removal, is neither told nor reminded
    card = api.view(tid, tokens[0])["legal_actions"][0]
    assert api.act(tid, tokens[0], card).status_code == 200
    play_until(api, tid, tokens, 0)
    swept_past_now(api, service)
    assert {browser.decrypt(m)["version"] for m in browser.messages()} == {told["version"]}
    assert len(browser.messages()) <= 2
    api.close()


@pytest.mark.slow
def test_429_is_tried_again_after_retry_after(pushing: Server, service: str) -> None:
    api = Api(pushing.base)
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=1)
    tid, tokens = t["id"], tokens_of(t)
    browser = Browser(f"{service}/busy/{tid}")
    # the turn's notice is refused (its reminder, due 0.5 s after the move, may come first)
    PushService.answers[f"{browser.path()} normal"] = [(429, {"Retry-After": "2"})]
    subscribe(api, tid, tokens[0], browser)
    play_until(api, tid, tokens, 0)

    def notices() -> list[Received]:
        return [m for m in browser.messages() if m.headers["urgency"] == "normal"]

    wait(lambda: len(notices()) == 2)
    refused, sent = notices()
    assert sent.body == refused.body  # the same message again
    assert sent.at - refused.at >= 1.9  # it waited as told, not its own first backoff (1 s)
    assert browser.decrypt(sent)["type"] == "your_turn"
    api.close()


@pytest.mark.slow
def test_no_push_to_a_connected_seat_nor_a_muted_table(pushing: Server, service: str) -> None:
    api = Api(pushing.base)
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=0)
    tid, tokens = t["id"], tokens_of(t)
    muted, connected = Browser(f"{service}/muted/{tid}"), Browser(f"{service}/live/{tid}")
    subscribe(api, tid, tokens[0], muted)
    subscribe(api, tid, tokens[1], connected)
    r = api.http.put(f"/api/tables/{tid}/push", headers=api.auth(tokens[0]),
                     json={"muted": True})
    assert r.status_code == 200 and r.json()["muted"] is True
    ws = ws_open(pushing, tid, tokens[1])
    try:
        assert api.act(tid, tokens[0], "trump:H").status_code == 200
        play_until(api, tid, tokens, 1)  # seat 1 to move: connected, so not told
        swept_past_now(api, service)  # nor reminded
        play_until(api, tid, tokens, 0)  # seat 0 to move: muted here
        swept_past_now(api, service)
        assert api.http.put(f"/api/tables/{tid}/push", headers=api.auth(tokens[0]),
                            json={"muted": False}).status_code == 200
        unmuted_at = api.public(tid)["version"]
        assert muted.messages() == []
        play_until(api, tid, tokens, 1)
        play_until(api, tid, tokens, 0)  # unmuted: this turn is told
        notice_to(muted)
    finally:
        ws.close()
    told = [muted.decrypt(m) for m in muted.messages()]
    assert all(m["version"] > unmuted_at for m in told)  # none of the muted turns
    assert connected.messages() == []
    api.close()


def test_endpoints_must_be_https_to_public_addresses(pushing: Server) -> None:
    api = Api(pushing.base)
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=1)
    tid, tokens = t["id"], tokens_of(t)
    for endpoint, why in (("http://push.example.net/x", "https"),
                          ("https://127.0.0.1:9/x", "loopback"),
                          ("https://10.0.0.8/x", "private")):
        body = {"subscription": Browser(endpoint).json()}
        r = api.http.post(f"/api/tables/{tid}/push", headers=api.auth(tokens[0]), json=body)
        assert r.status_code == 400, r.text
        assert why in r.json()["error"]["message"]
    body = {"subscription": Browser("https://push.example.net/x").json()}
    body["subscription"]["keys"]["auth"] = "short"
    r = api.http.post(f"/api/tables/{tid}/push", headers=api.auth(tokens[0]), json=body)
    assert r.status_code == 400 and "auth" in r.json()["error"]["message"]
    r = api.http.post(f"/api/tables/{tid}/push", json=body)  # no seat credential
    assert r.status_code == 401
    api.close()


@pytest.mark.slow
def test_a_players_push_for_every_table_all_off_and_quiet_hours(pushing: Server,
                                                                 service: str) -> None:
    import httpx

    api = Api(pushing.base)
    me = httpx.Client(base_url=pushing.base, timeout=10, headers={"Origin": pushing.base})
    assert me.get("/api/me").status_code == 200  # a guest player and its session cookie
    made = me.post("/api/tables", json={"game": "court-piece-2p", "options": {"target": 1},
                                        "spectator_delay": "none",
                                        "seats": [{"type": "human"}] * 2, "first_seat": 1})
    assert made.status_code == 201
    tid, tokens = made.json()["id"], tokens_of(made.json())
    browser = Browser(f"{service}/player/{tid}")
    r = me.post("/api/me/push", json={"subscription": browser.json(), "language": "hi"})
    assert r.status_code == 201, r.text
    assert r.json()["table"] is None and r.json()["service"] == service
    assert [s["id"] for s in me.get("/api/me/push").json()] == [r.json()["id"]]
    assert me.put("/api/me/push", json={"off": True}).json()["changed"] == 1
    play_until(api, tid, tokens, 0)  # seat 0, the player's, to move: all off
    swept_past_now(api, service)  # nor reminded
    assert browser.messages() == []
    now = int(time.time() // 60) % 1440
    r = me.put("/api/me/push", json={"off": False, "quiet_from": (now - 60) % 1440,
                                     "quiet_to": (now + 60) % 1440, "tz_offset": 0})
    assert r.status_code == 200 and r.json()["off"] is False
    play_until(api, tid, tokens, 1)
    play_until(api, tid, tokens, 0)  # quiet hours now
    swept_past_now(api, service)
    assert browser.messages() == []
    quiet_ended_at = api.public(tid)["version"]
    assert me.put("/api/me/push", json={"quiet_from": 0, "quiet_to": 0}).status_code == 200
    play_until(api, tid, tokens, 1)
    play_until(api, tid, tokens, 0)
    told = notice_to(browser)
    assert told["version"] > quiet_ended_at and told["lang"] == "hi"
    assert told["title"] == "आपकी बारी: दो खिलाड़ियों का कोट पीस"
    export = me.get("/api/me/export")
    assert [p["service"] for p in export.json()["push"]] == [service]
    assert browser.endpoint not in export.text and browser.json()["keys"]["auth"] not in export.text
    assert me.request("DELETE", "/api/me/push",
                      json={"endpoint": browser.endpoint}).json() == {"removed": True}
    assert me.get("/api/me/push").json() == []
    me.close()
    api.close()


@pytest.mark.slow
def test_the_vapid_key_is_made_once_and_kept_or_given(tmp_path: Path) -> None:
    import httpx

    from taash.server.notify.push import new_private_key, public_key_of

    db = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    keys = []
    for _ in range(2):  # made at first start, the same after a restart
        srv = Server(db).start()
        try:
            keys.append(httpx.get(srv.base + "/api/push/key").json()["key"])
        finally:
            srv.stop()
    assert keys[0] == keys[1]
    given = new_private_key()
    srv = Server(db, "--vapid-private-key", given).start()
    try:
        assert httpx.get(srv.base + "/api/push/key").json()["key"] == public_key_of(given)
    finally:
        srv.stop()
    assert public_key_of(given) != keys[0]


@pytest.mark.slow
def test_a_bad_vapid_key_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.server.helpers import ROOT

    run = subprocess.run([sys.executable, "-m", "taash", "serve", "--port", "0", "--db",
                          f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", "--vapid-private-key",
                          "nonsense"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "taash: --vapid-private-key: not a raw P-256 private key in base64url (32 bytes)"]


def test_subscriptions_go_with_a_seat_left_and_an_account_deleted(
        pushing: Server, service: str, db_file: Path) -> None:
    import httpx

    me = httpx.Client(base_url=pushing.base, timeout=10, headers={"Origin": pushing.base})
    assert me.get("/api/me").status_code == 200
    made = me.post("/api/tables", json={"game": "court-piece-2p", "options": {"target": 1},
                                        "seats": [{"type": "human"}] * 2})
    tid, tokens = made.json()["id"], tokens_of(made.json())
    api = Api(pushing.base)
    subscribe(api, tid, tokens[1], Browser(f"{service}/left/{tid}"))
    assert me.post("/api/me/push", json={"subscription": Browser(
        f"{service}/deleted/{tid}").json()}).status_code == 201
    assert me.post(f"/api/tables/{tid}/push?seat=0", json={"subscription": Browser(
        f"{service}/deleted-seat/{tid}").json()}).status_code == 201

    def kept() -> list[str]:
        with sqlite3.connect(db_file) as db:
            return sorted(r[0].split("/")[3] for r in db.execute(
                "SELECT endpoint FROM push_subscriptions WHERE endpoint LIKE ?", (f"%/{tid}",)))

    assert kept() == ["deleted", "deleted-seat", "left"]
    assert api.http.post(f"/api/tables/{tid}/leave", headers=api.auth(tokens[1])).status_code == 200
    assert kept() == ["deleted", "deleted-seat"]
    r = me.request("DELETE", "/api/me", json={"confirm": "delete"})
    assert r.status_code == 200, r.text
    assert kept() == []
    me.close()
    api.close()


@pytest.mark.slow
@pytest.mark.postgres
def test_push_on_postgresql(pg_url: str, service: str, tmp_path: Path) -> None:
    import httpx

    srv = Server(pg_url, "--remind-after", "1", "--sweep", "0.2", "--bot-delay", "0",
                 "--push-allow-origins", service, log=tmp_path / "server.log").start()
    try:
        api = Api(srv.base)
        me = httpx.Client(base_url=srv.base, timeout=10, headers={"Origin": srv.base})
        me.get("/api/me")
        made = me.post("/api/tables", json={"game": "goat", "options": {"target": 2},
                                            "spectator_delay": "none",
                                            "seats": [{"type": "human"}] * 4, "first_seat": 1})
        tid, tokens = made.json()["id"], tokens_of(made.json())
        browser = Browser(f"{service}/pg/{tid}")
        assert me.post("/api/me/push", json={"subscription": browser.json(),
                                             "language": "ur"}).status_code == 201
        play_until(api, tid, tokens, 0)
        wait(lambda: len(browser.messages()) >= 2)  # the turn and the reminder (the sweep)
        told = {m["type"]: m for m in map(browser.decrypt, browser.messages()[:2])}
        assert sorted(told) == ["reminder", "your_turn"]  # in either order: see PushService
        assert told["your_turn"]["title"] == "آپ کی باری: بکرا"
        assert told["your_turn"]["game"] == "goat"
        me.close()
        api.close()
    finally:
        srv.stop()


@pytest.mark.slow
def test_a_5xx_is_tried_again_with_backoff_and_4xx_is_not(service: str, tmp_path: Path) -> None:
    # a server of its own, with no reminder: a reminder to the same endpoint would take one
    # of the queued 5xx answers meant for the retries (the shared one reminds after 0.5 s)
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}", "--sweep", "0.2", "--bot-delay",
                 "0", "--push-allow-origins", service, log=tmp_path / "server.log").start()
    try:
        backoff(srv, service)
    finally:
        srv.stop()


def backoff(pushing: Server, service: str) -> None:
    api = Api(pushing.base)
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=1)
    tid, tokens = t["id"], tokens_of(t)
    down, bad = Browser(f"{service}/down/{tid}"), Browser(f"{service}/bad/{tid}")
    PushService.answers[down.path()] = [(503, {}), (502, {})]
    PushService.answers[bad.path()] = [(400, {})] * 5
    subscribe(api, tid, tokens[0], down)
    subscribe(api, tid, tokens[0], bad)
    play_until(api, tid, tokens, 0)
    first = down.messages

    def tries() -> list[Received]:
        return [m for m in first() if m.body == first()[0].body]

    wait(lambda: len(tries()) == 3)  # 503, 502, then 201
    a, b, c = tries()
    assert 0.9 <= b.at - a.at < 1.9 and 1.9 <= c.at - b.at < 3.5  # 1 s, then 2 s
    assert len([m for m in bad.messages() if m.body == bad.messages()[0].body]) == 1
    api.close()
