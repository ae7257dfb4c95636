"""Link another device (issue 24, 2c): a signed-in player's one-time code, typed on a second
device, signs that device in as the player (a new session cookie); the code works once, for
ten minutes, is kept hashed, and wrong tries are refused and rate limited."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.accounts.test_players import Browser, session_cookie
from tests.server.helpers import Server

CODE = re.compile(r"^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$")


@pytest.fixture
def browsers(server: Server) -> Iterator[Any]:
    made: list[Browser] = []

    def make(agent: str = "TestBrowser/1.0") -> Browser:
        b = Browser(server, agent)
        b.first_visit()
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def db_of(server: Server) -> sqlite3.Connection:
    assert server.db is not None
    return sqlite3.connect(server.db.split(":///", 1)[1], timeout=10)


def make_code(b: Browser) -> dict[str, Any]:
    r = b.send("POST", "/api/me/link")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def refused(r: Any) -> None:
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "bad_request"
    assert err["message"] == ("that code is wrong, used or expired: make a new one on your "
                              "signed-in device")


def test_a_code_links_a_device_once_and_rotates_its_session(browsers: Any,
                                                            server: Server) -> None:
    desk, phone = browsers("Desk/1"), browsers("Phone/1")
    desk.send("PATCH", "/api/me", {"name": "Ayesha"})
    t = desk.create(seats=[{"type": "human"}, {"type": "bot", "level": "random"}])
    made = make_code(desk)
    assert CODE.match(made["code"]), made
    assert made["expires_in"] == 600
    assert made["url"] == f"{server.base}/link?code={made['code']}"
    qr = made["qr_svg"]  # a whole SVG document, as an <img> shows it
    assert qr.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and qr.endswith("</svg>")
    assert "<script" not in qr and made["code"] not in qr  # the URL is in the modules only
    page = phone.http.get(f"/link?code={made['code']}")  # the QR's URL: the page itself
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    guest = phone.me()
    old_cookie = phone.http.cookies["taash_session"]
    r = phone.send("POST", "/api/link", {"code": made["code"].lower()})  # case: either
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["player"]["name"] == "Ayesha" and out["guest_tables"] == 0
    assert out["merged"] is False
    new_cookie = session_cookie(r).split(";")[0].split("=", 1)[1]
    assert new_cookie != old_cookie and phone.http.cookies["taash_session"] == new_cookie
    assert phone.me()["id"] == desk.me()["id"] != guest["id"]
    # the phone sees the desktop's table and plays it with its own cookie
    mine = phone.http.get("/api/me/tables").json()
    assert [m["id"] for m in mine] == [t["id"]] and mine[0]["your_turn"] is True
    view = phone.http.get(f"/api/tables/{t['id']}/view").json()
    r = phone.send("POST", f"/api/tables/{t['id']}/actions?seat=0",
                   {"action": view["legal_actions"][0], "version": view["version"]})
    assert r.status_code == 200, r.text
    # the old guest session is over: its cookie is no session
    stale = Browser(server)
    stale.http.cookies.set("taash_session", old_cookie)
    assert stale.http.get("/api/me/tables").status_code == 401
    stale.close()
    # both sessions are the player's; the code works no more, on any device
    sessions = desk.http.get("/api/me/sessions").json()
    assert sorted(s["device"] for s in sessions) == ["Desk/1", "Phone/1"]
    third = browsers("Third/1")
    refused(third.send("POST", "/api/link", {"code": made["code"]}))
    assert third.me()["id"] != desk.me()["id"]


def test_a_code_is_stored_hashed_and_expires(browsers: Any, server: Server) -> None:
    desk, phone = browsers(), browsers()
    made = make_code(desk)
    raw = made["code"].replace("-", "")
    with db_of(server) as db:
        rows = db.execute("SELECT code_hash, expires, created FROM link_codes").fetchall()
        mine = [r for r in rows if r[0] == hashlib.sha256(raw.encode()).hexdigest()]
        assert len(mine) == 1 and 599 <= mine[0][1] - mine[0][2] <= 601
        assert not any(raw in str(r) or made["code"] in str(r) for r in rows)
        # ten minutes on: the clock is the row's (as the sessions' tests set theirs)
        db.execute("UPDATE link_codes SET expires = ? WHERE code_hash = ?",
                   (time.time() - 1, mine[0][0]))
    refused(phone.send("POST", "/api/link", {"code": made["code"]}))
    assert phone.me()["id"] != desk.me()["id"]


def test_a_new_code_replaces_the_last_and_wrong_codes_are_refused(browsers: Any) -> None:
    desk, phone = browsers(), browsers()
    first, second = make_code(desk), make_code(desk)
    refused(phone.send("POST", "/api/link", {"code": first["code"]}))
    for wrong in ("AAAA-AAAA", "", "short", "IIII-OOOO", "x" * 30):
        refused(phone.send("POST", "/api/link", {"code": wrong}))
    assert phone.send("POST", "/api/link", {"code": 12345678}).status_code == 400
    assert phone.send("POST", "/api/link", {}).status_code == 400
    # the player's own device: said so, and the code still works elsewhere
    r = desk.send("POST", "/api/link", {"code": second["code"]})
    assert r.status_code == 400 and "already signed in" in r.json()["error"]["message"]
    assert phone.send("POST", "/api/link", {"code": second["code"]}).status_code == 200
    assert phone.me()["id"] == desk.me()["id"]


def test_guest_tables_merge_only_when_asked(browsers: Any) -> None:
    bot = [{"type": "human"}, {"type": "bot", "level": "random"}]
    desk = browsers()
    desk.send("PATCH", "/api/me", {"name": "Desk Player"})
    ours = desk.create(seats=bot)["id"]
    # a phone whose guest played: not asked to merge, its table stays the guest's
    kept = browsers()
    kept_table = kept.create(seats=bot)["id"]
    r = kept.send("POST", "/api/link", {"code": make_code(desk)["code"]})
    assert r.status_code == 200 and r.json()["guest_tables"] == 1
    assert r.json()["merged"] is False
    assert [m["id"] for m in kept.http.get("/api/me/tables").json()] == [ours]
    # another asks: its table is the player's now, seated under the player's name
    merged = browsers()
    merged_table = merged.create(seats=bot)["id"]
    r = merged.send("POST", "/api/link", {"code": make_code(desk)["code"], "merge": True})
    assert r.status_code == 200 and r.json() | {"player": None, "session": None} == {
        "player": None, "session": None, "guest_tables": 1, "merged": True, "refused": []}
    ids = {m["id"] for m in desk.http.get("/api/me/tables").json()}
    assert ids == {ours, merged_table} and kept_table not in ids
    view = desk.http.get(f"/api/tables/{merged_table}/view")
    assert view.status_code == 200 and view.json()["table"]["seats"][0]["name"] == "Desk Player"


def test_link_needs_a_session_and_this_sites_origin(browsers: Any, server: Server) -> None:
    desk, phone = browsers(), browsers()
    code = make_code(desk)["code"]
    for b, path, body in ((desk, "/api/me/link", None), (phone, "/api/link", {"code": code})):
        r = b.http.post(path, json=body)  # no Origin: not from this site's pages
        assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site", path
        r = b.http.post(path, json=body, headers={"Origin": "https://evil.example"})
        assert r.status_code == 403, path
    bare = Browser(server)
    assert bare.send("POST", "/api/me/link").status_code == 401
    assert bare.send("POST", "/api/link", {"code": code}).status_code == 401
    bare.close()
    assert phone.send("POST", "/api/link", {"code": code}).status_code == 200  # not spent


@pytest.mark.slow
def test_tries_at_a_code_are_rate_limited_per_address(tmp_path: Path) -> None:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", "--rate-limit", "1000",
                 "--bot-delay", "0").start()
    desk, phone = Browser(srv), Browser(srv)
    try:
        desk.first_visit()
        phone.first_visit()
        code = make_code(desk)["code"]
        statuses = [phone.send("POST", "/api/link", {"code": "AAAA-AAAA"}).status_code
                    for _ in range(6)]
        assert statuses == [400] * 5 + [429], statuses
        r = phone.send("POST", "/api/link", {"code": code})  # even the right one, for now
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert "link code" in r.json()["error"]["message"]
        assert phone.me()["id"] != desk.me()["id"]
    finally:
        desk.close()
        phone.close()
        srv.stop()


def test_a_table_both_sit_at_stays_the_guests(browsers: Any) -> None:
    desk, phone = browsers(), browsers()
    t = desk.create(seats=[{"type": "human"}, {"type": "human"}])
    invite = next(s["token"] for s in t["seats"] if s["seat"] == 1)
    r = phone.send("POST", f"/api/tables/{t['id']}/claim",
                   headers={"Authorization": f"Bearer {invite}"})
    assert r.status_code == 200, r.text
    r = phone.send("POST", "/api/link", {"code": make_code(desk)["code"], "merge": True})
    assert r.status_code == 200 and r.json()["refused"] == [t["id"]]
    # the player keeps their one seat there; the guest's stays the guest's
    assert [(m["id"], m["seat"]) for m in desk.http.get("/api/me/tables").json()] == [
        (t["id"], 0)]


def test_a_friend_claiming_an_invite_leaves_the_host_joined(browsers: Any) -> None:
    """Issue 43: the host had opened the table (their seat claimed, in memory only at a table
    not listed in the lobby); the friend's claim read the seats back from the store and the
    host showed as not joined yet, to everyone."""
    desk, phone = browsers(), browsers()
    t = desk.create(seats=[{"type": "human"}, {"type": "human"}])
    host, invite = (next(s["token"] for s in t["seats"] if s["seat"] == n) for n in (0, 1))

    def joined() -> dict[int, bool]:
        info = desk.http.get(f"/api/tables/{t['id']}").json()["table"]
        return {s["seat"]: s["claimed"] for s in info["seats"]}

    assert joined() == {0: False, 1: False}
    r = desk.send("GET", f"/api/tables/{t['id']}/view",
                  headers={"Authorization": f"Bearer {host}"})
    assert r.status_code == 200, r.text
    assert joined() == {0: True, 1: False}
    r = phone.send("POST", f"/api/tables/{t['id']}/claim",
                   headers={"Authorization": f"Bearer {invite}"})
    assert r.status_code == 200, r.text
    assert joined() == {0: True, 1: True}
