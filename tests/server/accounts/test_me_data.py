"""A player's own data (issue 24, part 5): the export of everything kept about them, and the
deletion of their account, after which their seats show "deleted player" and a table still
being played goes on with a bot in their seat."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx
import pytest

from taash.record import load
from tests.server.accounts.test_players import Browser
from tests.server.accounts.test_tokens import bearer, make_token
from tests.server.helpers import Server, tokens_of
from tests.waiting import wait_until


def finish_2p(b: Browser) -> str:
    """A finished two-player table (one deal to one point) of the browser's player, against a
    random bot."""
    t = b.create(seats=[{"type": "human"}, {"type": "bot", "level": "random"}])

    def over() -> bool:  # seat 0 plays when it may; the bot plays between
        v = b.http.get(f"/api/tables/{t['id']}/view?seat=0").json()
        if v["legal_actions"] and not v["over"]:
            r = b.send("POST", f"/api/tables/{t['id']}/actions?seat=0",
                       {"action": v["legal_actions"][0], "version": v["version"]})
            assert r.status_code in (200, 409), r.text
        return bool(v["over"])

    wait_until(over, timeout=30, what="the table to finish")
    return str(t["id"])


def test_the_export_holds_the_profile_and_every_record_and_no_secret(server: Server,
                                                                    server_dir: Path) -> None:
    b = Browser(server)
    try:
        b.first_visit()
        b.send("PATCH", "/api/me", {"name": "Zara"})
        made = make_token(b, "exporter", ["read"])
        done = finish_2p(b)
        going = b.create(seats=[{"type": "human"}, {"type": "human"}])["id"]
        r = b.http.get("/api/me/export")
        assert r.status_code == 200, r.text
        assert r.headers["content-disposition"].startswith("attachment; filename=")
        assert r.headers["cache-control"] == "no-store"
        data = r.json()
        assert data["format"] == "taash-export/1"
        assert data["profile"]["name"] == "Zara"
        assert data["email"] is None and data["passkeys"] == []
        assert [s["current"] for s in data["sessions"]] == [True]
        assert [t["name"] for t in data["tokens"]] == ["exporter"]
        by_id = {t["id"]: t for t in data["tables"]}
        assert set(by_id) == {done, going}
        assert by_id[done]["over"] and by_id[done]["seats"] == [0]
        rec = load(by_id[done]["record"])  # a whole taash-record/1 record, verified
        assert rec["game"] == "court-piece-2p"
        assert by_id[going]["seats"] == [0] and not by_id[going]["over"]
        # no secret: not the token, not the cookie, not the unfinished deal's other hand
        secret = b.http.cookies["taash_session"]
        text = r.text
        assert made["token"] not in text and secret not in text
        db = sqlite3.connect(server_dir / "shared.db")
        try:
            for (h,) in db.execute("SELECT token_hash FROM seats WHERE table_id = ?",
                                   (going,)):
                assert h is None or h not in text
        finally:
            db.close()
        assert "deck" not in json.dumps(by_id[going]["record"]["deals"][-1])
    finally:
        b.close()


def test_deleting_the_account_removes_it_and_hands_a_live_seat_to_a_bot(
        server: Server, server_dir: Path) -> None:
    b, friend = Browser(server), Browser(server)
    try:
        b.first_visit()
        friend.first_visit()
        b.send("PATCH", "/api/me", {"name": "Leaving Soon"})
        token = make_token(b, "bot", ["play"])["token"]
        done = finish_2p(b)
        # a live table: the player at seat 0, a friend (by the seat's token) at seat 1
        live = b.create(seats=[{"type": "human"}, {"type": "human"}], first_seat=0)
        tid, seat1 = live["id"], tokens_of(live)[1]
        seat0 = tokens_of(live)[0]
        me_id = b.me()["id"]
        secret = b.http.cookies["taash_session"]
        # asked without the confirmation, or with the wrong one: nothing happens
        for body in (None, {}, {"confirm": "yes"}):
            assert b.send("DELETE", "/api/me", body).status_code == 400
        assert b.send("DELETE", "/api/me", {"confirm": "delete"},
                      headers={"Origin": "https://evil.example"}).status_code == 403
        r = b.send("DELETE", "/api/me", {"confirm": "delete"})
        assert r.status_code == 200, r.text
        assert r.json() == {"id": me_id, "deleted": True, "tables": 2}
        cleared = [v for k, v in r.headers.multi_items() if k == "set-cookie"]
        assert len(cleared) == 1 and "max-age=0" in cleared[0].lower()
        assert "taash_session" not in b.http.cookies  # the browser dropped it
        # the old cookie, the token, the seat's token: all refused at once
        with httpx.Client(base_url=server.base,
                          cookies={"taash_session": secret}) as old:
            assert old.get("/api/me/tables").status_code == 401
        with httpx.Client(base_url=server.base) as program:
            assert program.get(f"/api/tables/{tid}/view",
                               headers=bearer(token)).status_code == 401
            assert program.get(f"/api/tables/{tid}/view",
                               headers=bearer(seat0)).status_code == 401
            # the seats say "deleted player"; the live one is a bot's now and the friend can
            # finish: the bot answers every turn of seat 0
            for t in (done, tid):
                seat = program.get(f"/api/tables/{t}").json()["table"]["seats"][0]
                assert seat["name"] == "deleted player", seat
            assert program.get(f"/api/tables/{tid}").json()["table"]["seats"][0]["type"] == "bot"
            def over() -> bool:
                v = program.get(f"/api/tables/{tid}/view", headers=bearer(seat1)).json()
                if v["legal_actions"] and not v["over"]:
                    program.post(f"/api/tables/{tid}/actions", headers=bearer(seat1),
                                 json={"action": v["legal_actions"][0],
                                       "version": v["version"]})
                return bool(v["over"])

            wait_until(over, timeout=30, what="the table to finish")
            assert program.get(f"/api/tables/{done}/record").status_code == 200
        # the store: the player row is kept as deleted, under no name of theirs, with nothing
        # that signs in
        db = sqlite3.connect(server_dir / "shared.db")
        try:
            row = db.execute("SELECT name, deleted, email FROM players WHERE id = ?",
                             (me_id,)).fetchone()
            assert row[0] == "deleted player" and row[1] is not None and row[2] is None
            for table in ("sessions", "api_tokens", "passkeys", "link_codes"):
                n = db.execute(f"SELECT count(*) FROM {table} WHERE player_id = ?",
                               (me_id,)).fetchone()[0]
                assert n == 0, table
            assert db.execute("SELECT count(*) FROM seats WHERE player_id = ? OR name = ?",
                              (me_id, "Leaving Soon")).fetchone()[0] == 0
        finally:
            db.close()
        # the friend's account is untouched
        assert friend.me()["id"] != me_id
    finally:
        b.close()
        friend.close()


@pytest.mark.slow
@pytest.mark.postgres
def test_tokens_export_and_delete_on_postgresql(pg_url: str) -> None:
    """The same queries on PostgreSQL: a token made, used, listed and revoked; the export; the
    deletion, with a live seat handed to a bot."""
    srv = Server(pg_url, "--bot-delay", "0").start()
    try:
        b = Browser(srv)
        b.first_visit()
        made = make_token(b, "pg", ["play"])
        t = b.create(seats=[{"type": "human"}, {"type": "human"}])
        with httpx.Client(base_url=srv.base, headers=bearer(made["token"])) as program:
            v = program.get(f"/api/tables/{t['id']}/view")
            assert v.status_code == 200 and v.json()["seat"] == 0
        assert b.http.get("/api/me/tokens").json()[0]["last_used"] is not None
        data = b.http.get("/api/me/export").json()
        assert [x["id"] for x in data["tables"]] == [t["id"]]
        assert b.send("DELETE", f"/api/me/tokens/{made['id']}").status_code == 200
        r = b.send("DELETE", "/api/me", {"confirm": "delete"})
        assert r.status_code == 200 and r.json()["tables"] == 1, r.text
        seat = httpx.get(f"{srv.base}/api/tables/{t['id']}").json()["table"]["seats"][0]
        assert seat["name"] == "deleted player" and seat["type"] == "bot"
        b.close()
    finally:
        srv.stop()
