"""Signing in (issue 24, 2a, 2b and 6): a passkey added by one browser signs another in; an
e-mail address confirmed by a link signs in by a one-time link; every sign-in rotates the
session; a guest's tables come along only when the player says so (never a table where the
account sits too); attempts are rate limited; no answer tells whether an address has an
account.  Passkeys are answered by a software authenticator (tests/server/authenticator.py);
mail goes to a local SMTP server (aiosmtpd)."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller

from tests.server.accounts.test_players import Browser, session_cookie
from tests.server.authenticator import Authenticator
from tests.server.helpers import Server, free_port, tokens_of
from tests.waiting import wait_until

BOT = [{"type": "human"}, {"type": "bot", "level": "random"}]


class Inbox:
    def __init__(self) -> None:
        self.messages: list[tuple[list[str], str, str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        body = msg.get_body(("plain",))
        self.messages.append((list(envelope.rcpt_tos), str(msg["Subject"]),
                              body.get_content() if body is not None else ""))
        return "250 OK"

    def wait_for(self, to: str, timeout: float = 15) -> tuple[str, str]:
        def found() -> Any:  # (subject, body), or None
            for rcpt, subject, body in self.messages:
                if to in rcpt:
                    self.messages.remove((rcpt, subject, body))
                    return subject, body
            return None

        mail: tuple[str, str] = wait_until(found, timeout=timeout, what=f"a mail to {to}")
        return mail

    def none_to(self, to: str, browser: Any) -> bool:
        """No mail to ``to`` by the time a mail asked for after it has come: ``browser`` adds
        an address of its own, and its confirmation is the positive sign that what was asked
        before was handled (a mail to ``to`` would have come first), not a fixed sleep."""
        sentinel = f"sentinel-{secrets.token_hex(4)}@example.com"
        assert browser.send("POST", "/api/me/email", {"address": sentinel}).status_code < 300
        self.wait_for(sentinel)
        return not any(to in rcpt for rcpt, _, _ in self.messages)


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    port = free_port()
    ctl = Controller(box, hostname="127.0.0.1", port=port)
    ctl.start()
    yield box, port
    ctl.stop()


@pytest.fixture(scope="module")
def mailing(tmp_path_factory: pytest.TempPathFactory,
            inbox: tuple[Inbox, int]) -> Iterator[Server]:
    """A server that sends mail (to the test's SMTP server)."""
    folder: Path = tmp_path_factory.mktemp("sign-in")
    srv = Server(f"sqlite+aiosqlite:///{folder / 's.db'}", "--smtp",
                 f"smtp://127.0.0.1:{inbox[1]}?from=taash@test.example", "--bot-delay", "0",
                 log=folder / "server.log").start()
    yield srv
    srv.stop()


@pytest.fixture
def browsers(server: Server) -> Iterator[Any]:
    made: list[Browser] = []

    def make(agent: str = "TestBrowser/1.0", srv: Server | None = None) -> Browser:
        b = Browser(srv or server, agent)
        b.first_visit()
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def db_of(server: Server) -> sqlite3.Connection:
    assert server.db is not None
    return sqlite3.connect(server.db.split(":///", 1)[1], timeout=10)


def cookie_of(b: Browser) -> str:
    return str(b.http.cookies["taash_session"])


def add_passkey(b: Browser, auth: Authenticator, name: str = "Phone") -> dict[str, Any]:
    r = b.send("POST", "/api/me/passkeys/options")
    assert r.status_code == 200, r.text
    options = r.json()
    r = b.send("POST", "/api/me/passkeys", {"credential": auth.create(options), "name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def passkey_sign_in(b: Browser, auth: Authenticator, **kw: Any) -> Any:
    r = b.send("POST", "/api/sign-in/passkey/options")
    assert r.status_code == 200, r.text
    return b.send("POST", "/api/sign-in/passkey", {"credential": auth.get(r.json(), **kw)})


def error(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code, err
    return str(err["message"])


# -- passkeys --------------------------------------------------------------------------------
def test_a_passkey_added_on_one_browser_signs_another_in(browsers: Any, server: Server) -> None:
    desk, phone = browsers("Desk/1"), browsers("Phone/1")
    desk.send("PATCH", "/api/me", {"name": "Ayesha"})
    table = desk.create(seats=BOT)["id"]
    auth = Authenticator(server.base)
    r = desk.send("POST", "/api/me/passkeys/options")
    options = r.json()
    host = server.base.split("//")[1].split(":")[0]
    assert options["rp"]["id"] == host and options["rp"]["name"] == "taash"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert options["user"]["name"] == "Ayesha"
    added = add_passkey(desk, auth)
    assert added["name"] == "Phone" and added["type"] == "passkey"
    me = desk.me()
    assert me["guest"] is False
    assert [m["id"] for m in me["sign_in_methods"]] == [added["id"]]
    # a second, empty browser: the passkey, no name typed, signs it in as Ayesha
    guest = phone.me()
    old = cookie_of(phone)
    r = passkey_sign_in(phone, auth)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["player"]["name"] == "Ayesha" and out["guest_tables"] == 0
    assert session_cookie(r) and cookie_of(phone) != old  # rotated
    assert phone.me()["id"] == desk.me()["id"] != guest["id"]
    assert [m["id"] for m in phone.http.get("/api/me/tables").json()] == [table]
    stale = Browser(server)
    stale.http.cookies.set("taash_session", old)
    assert stale.http.get("/api/me/tables").status_code == 401  # the old session ended
    stale.close()
    # the passkey's last use is kept; listed under /api/me/passkeys
    listed = desk.http.get("/api/me/passkeys").json()
    assert [k["id"] for k in listed] == [added["id"]] and listed[0]["last_used"] is not None


def test_a_challenge_works_once_for_its_purpose_and_in_time(browsers: Any,
                                                            server: Server) -> None:
    desk, phone = browsers(), browsers()
    auth = Authenticator(server.base)
    add_passkey(desk, auth)
    options = phone.send("POST", "/api/sign-in/passkey/options").json()
    answer = auth.get(options)
    assert phone.send("POST", "/api/sign-in/passkey", {"credential": answer}).status_code == 200
    # the same answer again (a replay): its challenge is spent
    other = browsers()
    r = other.send("POST", "/api/sign-in/passkey", {"credential": answer})
    assert "used or expired" in error(r, 400, "passkey_refused")
    assert other.me()["id"] != desk.me()["id"]
    # a registration challenge does not sign anyone in
    reg = desk.send("POST", "/api/me/passkeys/options").json()
    r = other.send("POST", "/api/sign-in/passkey",
                   {"credential": auth.get({"rpId": reg["rp"]["id"], **reg})})
    assert "used or expired" in error(r, 400, "passkey_refused")
    # five minutes on: the challenge is no more (the clock is the row's)
    options = other.send("POST", "/api/sign-in/passkey/options").json()
    digest = hashlib.sha256(
        __import__("base64").urlsafe_b64decode(options["challenge"] + "===")).hexdigest()
    with db_of(server) as db:
        row = db.execute("SELECT created, expires FROM webauthn_challenges "
                         "WHERE challenge_hash = ?", (digest,)).fetchone()
        assert row is not None and 299 <= row[1] - row[0] <= 301
        db.execute("UPDATE webauthn_challenges SET expires = ? WHERE challenge_hash = ?",
                   (time.time() - 1, digest))
    r = other.send("POST", "/api/sign-in/passkey", {"credential": auth.get(options)})
    assert "used or expired" in error(r, 400, "passkey_refused")


def test_a_passkey_answer_for_another_site_or_forged_is_refused(browsers: Any,
                                                                server: Server) -> None:
    desk, phone = browsers(), browsers()
    auth = Authenticator(server.base)
    added = add_passkey(desk, auth)
    r = passkey_sign_in(phone, auth, origin="https://evil.example")
    assert "origin" in error(r, 400, "passkey_refused").lower()
    # a signature that is not the key's
    options = phone.send("POST", "/api/sign-in/passkey/options").json()
    answer = auth.get(options)
    answer["response"]["signature"] = auth.get(options)["response"]["signature"]
    answer["response"]["authenticatorData"] = auth.get(options)["response"]["authenticatorData"]
    answer["response"]["clientDataJSON"] = auth.get(options)["response"]["clientDataJSON"]
    answer["response"]["signature"] = answer["response"]["signature"][:-8] + "AAAAAAAA"
    error(phone.send("POST", "/api/sign-in/passkey", {"credential": answer}), 400,
          "passkey_refused")
    # a passkey this server never saw
    stranger = Authenticator(server.base)
    stranger.create(desk.send("POST", "/api/me/passkeys/options").json())  # never posted
    r = passkey_sign_in(phone, stranger)
    assert "not known here" in error(r, 400, "passkey_refused")
    # removed, a passkey signs nobody in; another player cannot remove it
    assert phone.send("DELETE", f"/api/me/passkeys/{added['id']}").status_code == 404
    r = desk.send("DELETE", f"/api/me/passkeys/{added['id']}")
    assert r.status_code == 200 and r.json()["removed"] is True
    assert desk.me()["sign_in_methods"] == [] and desk.me()["guest"] is True
    r = passkey_sign_in(phone, auth)
    assert "not known here" in error(r, 400, "passkey_refused")
    assert phone.me()["id"] != desk.me()["id"]
    # not JSON of a credential at all: a clear refusal, never a traceback
    r = phone.send("POST", "/api/sign-in/passkey", {"credential": {"id": "x"}})
    error(r, 400, "passkey_refused")


def test_sign_in_must_come_from_this_sites_pages(browsers: Any, server: Server) -> None:
    desk = browsers()
    auth = Authenticator(server.base)
    add_passkey(desk, auth)
    bare = Browser(server)  # no cookie at all: still this site's Origin only
    try:
        for headers in ({}, {"Origin": "https://evil.example"}):
            r = bare.http.post("/api/sign-in/passkey/options", headers=headers)
            error(r, 403, "cross_site")
            r = bare.http.post("/api/sign-in/email", json={"address": "a@b.example"},
                               headers=headers)
            error(r, 403, "cross_site")
        # from the site, with no session yet: signed in, a session made
        r = passkey_sign_in(bare, auth)
        assert r.status_code == 200, r.text
        assert bare.me()["id"] == desk.me()["id"]
    finally:
        bare.close()
    assert Browser(server).send("POST", "/api/me/passkeys/options").status_code == 401


def test_signing_in_ends_the_old_sessions_stream_at_once(browsers: Any, server: Server) -> None:
    desk, phone = browsers(), browsers()
    auth = Authenticator(server.base)
    add_passkey(desk, auth)
    tid = phone.create(seats=BOT)["id"]
    old = cookie_of(phone)
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        with httpx.Client(base_url=server.base, cookies={"taash_session": old},
                          timeout=30) as h, \
                h.stream("GET", f"/api/tables/{tid}/stream?seat=0") as s:
            for line in s.iter_lines():
                lines.append(line)
        done.set()

    threading.Thread(target=read, daemon=True).start()
    wait_until(lambda: lines, timeout=10, what="the stream's first line")
    assert json.loads(lines[0])["type"] == "view"
    assert passkey_sign_in(phone, auth).status_code == 200
    assert done.wait(5), "the stream of the session replaced by the sign-in is still open"


# -- the guest's tables ----------------------------------------------------------------------
def test_a_guests_tables_come_along_only_when_asked(browsers: Any, server: Server) -> None:
    desk = browsers()
    desk.send("PATCH", "/api/me", {"name": "Desk Player"})
    ours = desk.create(seats=BOT)["id"]
    auth = Authenticator(server.base)
    add_passkey(desk, auth)
    # a guest with two tables, one of them shared with the account (each holds a seat)
    phone = browsers()
    kept = phone.create(seats=BOT)["id"]
    shared = desk.create(seats=[{"type": "human"}, {"type": "human"}], first_seat=0)
    token = tokens_of(shared)[1]
    r = phone.send("POST", f"/api/tables/{shared['id']}/claim",
                   headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    r = passkey_sign_in(phone, auth)
    assert r.status_code == 200, r.text
    assert r.json()["guest_tables"] == 1 and r.json()["shared_tables"] == 1
    # nothing moved until the player answers (a page loaded meanwhile asks again); yes moves
    # the one it can, and says which not
    assert {m["id"] for m in desk.http.get("/api/me/tables").json()} == {ours, shared["id"]}
    assert phone.me()["guest_tables_waiting"] == 2 and desk.me()["guest_tables_waiting"] == 0
    r = phone.send("POST", "/api/me/merge", {"merge": True})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["merged"] == [kept] and [x["id"] for x in out["refused"]] == [shared["id"]]
    assert phone.me()["guest_tables_waiting"] == 0
    assert "one seat at a table" in out["refused"][0]["reason"]
    rows = desk.http.get("/api/me/tables").json()
    assert sorted((m["id"], m["seat"]) for m in rows) == sorted(
        [(ours, 0), (kept, 0), (shared["id"], 0)])
    view = desk.http.get(f"/api/tables/{kept}/view")
    assert view.json()["table"]["seats"][0]["name"] == "Desk Player"
    # asked once: a second answer finds nothing waiting
    assert "no guest tables" in error(phone.send("POST", "/api/me/merge", {"merge": True}),
                                      400, "bad_request")
    # another guest says no: its table stays the guest's
    other = browsers()
    left = other.create(seats=BOT)["id"]
    assert passkey_sign_in(other, auth).json()["guest_tables"] == 1
    r = other.send("POST", "/api/me/merge", {"merge": False})
    assert r.status_code == 200 and r.json()["left"] is True
    assert left not in {m["id"] for m in desk.http.get("/api/me/tables").json()}
    error(other.send("POST", "/api/me/merge", {"merge": True}), 400, "bad_request")


def test_a_signed_in_player_is_not_asked_about_their_own_tables(browsers: Any,
                                                                server: Server) -> None:
    a, b = browsers(), browsers()
    auth_a, auth_b = Authenticator(server.base), Authenticator(server.base)
    add_passkey(a, auth_a)
    add_passkey(b, auth_b)
    b.create(seats=BOT)
    # b's browser holds an account (not a guest): signing in as a is not a merge question
    r = passkey_sign_in(b, auth_a)
    assert r.status_code == 200 and r.json()["guest_tables"] == 0
    error(b.send("POST", "/api/me/merge", {"merge": True}), 400, "bad_request")


# -- e-mail ----------------------------------------------------------------------------------
def test_without_smtp_there_is_no_email_and_the_api_says_why(browsers: Any) -> None:
    b = browsers()
    assert b.me()["email_available"] is False
    for path in ("/api/me/email", "/api/sign-in/email"):
        msg = error(b.send("POST", path, {"address": "a@b.example"}), 400, "no_email")
        assert "no SMTP server" in msg and "--smtp" in msg


LINK = re.compile(r"(http://\S+/email/(confirm|sign-in)#(\S+))")


def test_an_address_confirmed_by_link_signs_in_by_link(browsers: Any, mailing: Server,
                                                       inbox: tuple[Inbox, int]) -> None:
    box = inbox[0]
    desk = browsers("Desk/1", mailing)
    desk.send("PATCH", "/api/me", {"name": "Olga", "language": "ru"})
    table = desk.create(seats=BOT)["id"]
    assert desk.me()["email_available"] is True
    r = desk.send("POST", "/api/me/email", {"address": " Olga@Example.COM "})
    assert r.status_code == 202 and r.json()["address"] == "olga@example.com"
    subject, body = box.wait_for("olga@example.com")
    assert subject == "taash: подтвердите адрес почты" and "Olga" in body  # her language
    m = LINK.search(body)
    assert m and m.group(2) == "confirm", body
    assert m.group(1).startswith(mailing.base + "/email/confirm#")
    secret = m.group(3)
    with db_of(mailing) as db:  # kept as its sha256 only, for 15 minutes
        rows = db.execute("SELECT link_hash, created, expires, email FROM email_links").fetchall()
        assert not any(secret in str(r) for r in rows)
        mine = [r for r in rows if r[0] == hashlib.sha256(secret.encode()).hexdigest()]
        assert len(mine) == 1 and 899 <= mine[0][2] - mine[0][1] <= 901
    assert desk.me()["sign_in_methods"] == []  # not until the link is opened
    r = desk.send("POST", "/api/email/confirm", {"token": secret})
    assert r.status_code == 200 and r.json()["confirmed"] is True
    me = desk.me()
    assert me["sign_in_methods"] == [{"type": "email", "address": "olga@example.com"}]
    error(desk.send("POST", "/api/email/confirm", {"token": secret}), 400, "bad_request")

    # another browser asks for a sign-in link: the same answer as for an unknown address
    phone = browsers("Phone/1", mailing)
    r = phone.send("POST", "/api/sign-in/email", {"address": "olga@example.com"})
    unknown = phone.send("POST", "/api/sign-in/email", {"address": "nobody@example.com"})
    assert r.status_code == unknown.status_code == 202 and r.json() == unknown.json()
    assert "if that address has an account" in r.json()["sent"]
    subject, body = box.wait_for("olga@example.com")
    assert subject == "taash: ваша ссылка для входа"
    m = LINK.search(body)
    assert m and m.group(2) == "sign-in", body
    old = cookie_of(phone)
    r = phone.send("POST", "/api/sign-in/email/link", {"token": m.group(3)})
    assert r.status_code == 200, r.text
    assert r.json()["player"]["name"] == "Olga" and cookie_of(phone) != old
    assert [t["id"] for t in phone.http.get("/api/me/tables").json()] == [table]
    # once only, from any browser
    third = browsers("Third/1", mailing)
    msg = error(third.send("POST", "/api/sign-in/email/link", {"token": m.group(3)}), 400,
                "bad_request")
    assert "used, replaced or expired" in msg
    assert box.none_to("nobody@example.com", third)


def test_an_email_link_expires_and_a_new_one_replaces_it(browsers: Any, mailing: Server,
                                                         inbox: tuple[Inbox, int]) -> None:
    box = inbox[0]
    desk = browsers("Desk/1", mailing)
    desk.send("POST", "/api/me/email", {"address": "late@example.com"})
    confirm = LINK.search(box.wait_for("late@example.com")[1])
    assert confirm is not None
    desk.send("POST", "/api/email/confirm", {"token": confirm.group(3)})
    phone = browsers("Phone/1", mailing)
    phone.send("POST", "/api/sign-in/email", {"address": "late@example.com"})
    first = LINK.search(box.wait_for("late@example.com")[1])
    phone.send("POST", "/api/sign-in/email", {"address": "late@example.com"})
    second = LINK.search(box.wait_for("late@example.com")[1])
    assert first and second and first.group(3) != second.group(3)
    error(phone.send("POST", "/api/sign-in/email/link", {"token": first.group(3)}), 400,
          "bad_request")  # replaced by the second
    with db_of(mailing) as db:
        db.execute("UPDATE email_links SET expires = ? WHERE link_hash = ?",
                   (time.time() - 1, hashlib.sha256(second.group(3).encode()).hexdigest()))
    error(phone.send("POST", "/api/sign-in/email/link", {"token": second.group(3)}), 400,
          "bad_request")
    assert phone.me()["id"] != desk.me()["id"]
    # removed, the address signs nobody in
    assert desk.send("DELETE", "/api/me/email").status_code == 200
    phone.send("POST", "/api/sign-in/email", {"address": "late@example.com"})
    assert box.none_to("late@example.com", desk)


# -- rate limits -----------------------------------------------------------------------------
@pytest.mark.slow
def test_sign_in_attempts_are_rate_limited(tmp_path: Path, inbox: tuple[Inbox, int]) -> None:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", "--rate-limit", "1000",
                 "--smtp", f"smtp://127.0.0.1:{inbox[1]}?from=taash@test.example",
                 "--bot-delay", "0").start()
    made = [Browser(srv) for _ in range(3)]
    try:
        for b in made:
            b.first_visit()
        desk, phone, mail = made
        auth = Authenticator(srv.base)
        add_passkey(desk, auth)
        wrong = Authenticator(srv.base)
        wrong.create(desk.send("POST", "/api/me/passkeys/options").json())
        statuses = [passkey_sign_in(phone, wrong).status_code for _ in range(11)]
        assert statuses == [400] * 10 + [429], statuses
        r = passkey_sign_in(phone, auth)  # even the right passkey, for now
        msg = error(r, 429, "rate_limited")
        assert "sign-in attempts" in msg and int(r.headers["Retry-After"]) >= 1
        assert phone.me()["id"] != desk.me()["id"]
        # e-mail: three mails to one address, then that address waits; five per client
        codes = [mail.send("POST", "/api/sign-in/email", {"address": "x@example.com"})
                 .status_code for _ in range(4)]
        assert codes == [202, 202, 202, 429], codes
        r = mail.send("POST", "/api/sign-in/email", {"address": "x@example.com"})
        assert "to that address" in error(r, 429, "rate_limited")  # the client's 5th
        r = mail.send("POST", "/api/sign-in/email", {"address": "y@example.com"})
        assert "from this address" in error(r, 429, "rate_limited")
        assert int(r.headers["Retry-After"]) > 1
        # a link code's tries say how long to wait too
        for _ in range(5):
            phone.send("POST", "/api/link", {"code": "AAAA-AAAA"})
        r = phone.send("POST", "/api/link", {"code": "AAAA-AAAA"})
        assert "link code" in error(r, 429, "rate_limited") and "Retry-After" in r.headers
    finally:
        for b in made:
            b.close()
        srv.stop()


# -- two instances ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pair(pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory,
         inbox: tuple[Inbox, int]) -> Iterator[tuple[Server, Server]]:
    """Two instances on one PostgreSQL database and one bus, behind one public URL (A's), as
    behind a load balancer."""
    folder: Path = tmp_path_factory.mktemp("sign-in-pair")
    a = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", log=folder / "a.log")
    a.port = free_port()  # its public URL names the port before it starts
    public = a.base
    smtp = f"smtp://127.0.0.1:{inbox[1]}?from=taash@test.example"
    a.args += ["--public-url", public, "--smtp", smtp]
    a.start()
    b = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", "--public-url", public,
               "--smtp", smtp, log=folder / "b.log").start()
    yield a, b
    a.stop()
    b.stop()


@pytest.mark.postgres
@pytest.mark.redis
def test_a_challenge_or_link_made_on_one_instance_works_on_another(
        pair: tuple[Server, Server], inbox: tuple[Inbox, int]) -> None:
    a, b = pair
    box = inbox[0]
    desk, phone = Browser(a, "Desk/1"), Browser(a, "Phone/1")  # one cookie jar each, both hosts
    try:
        desk.first_visit()
        desk.send("PATCH", "/api/me", {"name": "Two Hosts"})
        table = desk.create(seats=BOT)["id"]
        auth = Authenticator(a.base)
        options = desk.send("POST", "/api/me/passkeys/options").json()  # on A
        r = desk.send("POST", f"{b.base}/api/me/passkeys",  # checked on B
                      {"credential": auth.create(options)})
        assert r.status_code == 201, r.text
        phone.http.get(f"{b.base}/")
        old = cookie_of(phone)
        options = phone.send("POST", f"{b.base}/api/sign-in/passkey/options").json()
        r = phone.send("POST", "/api/sign-in/passkey", {"credential": auth.get(options)})
        assert r.status_code == 200, r.text
        assert [m["id"] for m in phone.http.get(f"{b.base}/api/me/tables").json()] == [table]
        # the old session ended on both
        for base in (a.base, b.base):
            stale = Browser(a)
            stale.http.cookies.set("taash_session", old)
            assert stale.http.get(f"{base}/api/me/tables").status_code == 401
            stale.close()
        # the same answer again, on the other instance: its challenge is spent everywhere
        again = Browser(a)
        again.first_visit()
        r = again.send("POST", f"{b.base}/api/sign-in/passkey",
                       {"credential": auth.get(options)})
        assert "used or expired" in error(r, 400, "passkey_refused")
        # an address confirmed on B, a sign-in link asked on A and opened on B
        desk.send("POST", f"{b.base}/api/me/email", {"address": "two@example.com"})
        link = LINK.search(box.wait_for("two@example.com")[1])
        assert link and link.group(1).startswith(a.base)
        assert desk.send("POST", "/api/email/confirm", {"token": link.group(3)}).status_code \
            == 200
        again.send("POST", "/api/sign-in/email", {"address": "two@example.com"})
        link = LINK.search(box.wait_for("two@example.com")[1])
        assert link is not None
        r = again.send("POST", f"{b.base}/api/sign-in/email/link", {"token": link.group(3)})
        assert r.status_code == 200 and r.json()["player"]["name"] == "Two Hosts"
        again.close()
    finally:
        desk.close()
        phone.close()
