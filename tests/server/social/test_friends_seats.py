"""The rest of issue 28's friends: a four-player challenge to friends in chosen seats (each
accepts on their own, the table is made at the last accept), a challenge told by Web Push,
adding a friend from their profile (by id), and the profile's optional country flag."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from tests.server.helpers import Server
from tests.server.notify.test_push import Browser as PushBrowser
from tests.server.notify.test_push import db_file, pushing, service, wait  # noqa: F401
from tests.server.social.test_friends import befriend, friends_of
from tests.server.social.test_social import Browser, browsers  # noqa: F401


def received(b: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = b.http.get("/api/me/challenges").json()["received"]
    return out


def test_four_friends_by_seat_each_accepts_then_the_table_starts(browsers: Any) -> None:  # noqa: F811
    a, partner, left, right = (browsers(n) for n in ("Nadia", "Omar", "Parveen", "Qasim"))
    for f in (partner, left, right):
        befriend(a, f)
    body = {"game": "court-piece", "seats": {"2": partner.id, "1": left.id}, "bots": "hard"}
    r = a.send("POST", "/api/me/challenges", body)
    assert r.status_code == 201, r.text
    ch = r.json()
    assert [(i["player"], i["seat"], i["state"]) for i in ch["invited"]] == [
        (left.id, 1, "open"), (partner.id, 2, "open")]
    assert ch["bots"] == "hard" and ch["to"]["player"] == left.id
    assert [c["id"] for c in received(partner)] == [ch["id"]]
    assert [c["id"] for c in received(left)] == [ch["id"]]
    assert received(right) == []
    # the partner accepts first: the challenge stays open, waiting for the other friend
    r = partner.send("POST", f"/api/me/challenges/{ch['id']}/accept")
    assert r.status_code == 200, r.text
    assert r.json() == {"id": ch["id"], "state": "open", "seat": 2, "table": None,
                        "waiting": [left.id]}
    again = partner.send("POST", f"/api/me/challenges/{ch['id']}/accept")
    assert again.status_code == 409 and "accepted this challenge already" in again.text
    [shown] = received(left)
    assert [(i["seat"], i["state"]) for i in shown["invited"]] == [(1, "open"), (2, "accepted")]
    # the last friend accepts: the table is made, each friend in their seat, a bot in seat 3
    r = left.send("POST", f"/api/me/challenges/{ch['id']}/accept")
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["state"] == "accepted" and done["seat"] == 1
    assert done["url"] == f"/t/{done['table']}?seat=1" and done["token"]
    tid = done["table"]
    seats = a.http.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert [(s["type"], s["name"] if s["type"] == "human" else s["level"]) for s in seats] \
        == [("human", "Nadia"), ("human", "Parveen"), ("human", "Omar"), ("bot", "hard")]
    assert all(s["claimed"] for s in seats[1:])
    for b, seat in ((a, 0), (left, 1), (partner, 2)):
        assert (tid, seat) in [(t["id"], t["seat"]) for t in b.http.get("/api/me/tables").json()]
    assert received(partner) == [] and received(left) == []
    assert left.send("POST", f"/api/me/challenges/{ch['id']}/accept").status_code == 409


def test_one_decline_ends_a_challenge_for_all_and_seats_are_checked(browsers: Any) -> None:  # noqa: F811
    a, b, c, stranger = (browsers(n) for n in ("Rukhsana", "Sajid", "Tahira", "Usman"))
    befriend(a, b)
    befriend(a, c)
    ch = a.send("POST", "/api/me/challenges", {"game": "goat",
                                               "seats": {"2": b.id, "3": c.id}}).json()
    assert b.send("POST", f"/api/me/challenges/{ch['id']}/accept").json()["waiting"] == [c.id]
    r = c.send("POST", f"/api/me/challenges/{ch['id']}/decline")
    assert r.json() == {"id": ch["id"], "state": "declined"}
    assert received(b) == [] and a.http.get("/api/me/challenges").json()["sent"] == []
    assert stranger.send("POST", f"/api/me/challenges/{ch['id']}/accept").status_code == 404

    def refused(body: dict[str, Any], status: int, words: str) -> None:
        r = a.send("POST", "/api/me/challenges", {"game": "court-piece", **body})
        assert r.status_code == status, r.text
        assert words in r.json()["error"]["message"], r.text

    refused({"seats": {"0": b.id}}, 400, "seat 0 is yours")
    refused({"seats": {"4": b.id}}, 400, "1 to 3")
    refused({"seats": {"1": b.id, "3": b.id}}, 400, "one seat only")
    refused({"seats": {"1": a.id}}, 400, "seat 0 is yours")
    refused({"seats": {}}, 400, "at least one friend")
    refused({"to": b.id, "seats": {"2": c.id}}, 400, "not both")
    refused({"seats": {"1": b.id, "2": stranger.id}}, 403, "your friends only")
    refused({"seats": {"2": b.id}, "bots": "genius"}, 400, "unknown bot level")
    r = a.send("POST", "/api/me/challenges", {"game": "court-piece-2p",
                                              "seats": {"2": b.id}})
    assert r.status_code == 400 and "1 to 1" in r.json()["error"]["message"]
    # two friends who blocked one another are not seated together
    assert b.send("POST", f"/api/me/friends/{c.id}/block").status_code == 200
    refused({"seats": {"2": b.id, "1": c.id}}, 403, "cannot all sit at one table")
    # a block between the challenger and one invited friend withdraws the challenge
    assert b.send("DELETE", f"/api/me/friends/{c.id}").status_code == 200
    ch = a.send("POST", "/api/me/challenges", {"game": "court-piece",
                                               "seats": {"2": b.id, "1": c.id}}).json()
    assert c.send("POST", f"/api/me/friends/{a.id}/block").status_code == 200
    assert received(b) == []


def test_a_four_seat_challenge_expires(browsers: Any, server: Server) -> None:  # noqa: F811
    a, b, c = (browsers(n) for n in ("Vania", "Waqar", "Xenia"))
    befriend(a, b)
    befriend(a, c)
    ch = a.send("POST", "/api/me/challenges", {"game": "court-piece", "live": True,
                                               "seats": {"2": b.id, "1": c.id}}).json()
    assert b.send("POST", f"/api/me/challenges/{ch['id']}/accept").status_code == 200
    db = Path(str(server.db).removeprefix("sqlite+aiosqlite:///"))
    with sqlite3.connect(db, timeout=10) as conn:
        conn.execute("UPDATE challenges SET expires = ? WHERE id = ?", (time.time() - 1,
                                                                          ch["id"]))
    assert received(c) == []
    r = c.send("POST", f"/api/me/challenges/{ch['id']}/accept")
    assert r.status_code == 409 and "no longer open" in r.json()["error"]["message"]


def test_add_a_friend_by_id_from_their_profile(browsers: Any) -> None:  # noqa: F811
    a, b, c = (browsers(n) for n in ("Yasmin", "Zubair", "Adeel"))
    r = b.send("POST", "/api/me/friends", {"player": a.id})
    assert r.status_code == 200 and r.json() == {"player": a.id, "state": "asked"}
    assert [x["player"] for x in friends_of(a)["asking"]] == [b.id]
    assert a.send("POST", "/api/me/friends", {"player": b.id}).json()["state"] == "friends"
    for body, status, words in (({"player": b.id}, 400, "yourself"),
                                ({"player": "nobody-here"}, 404, "no player"),
                                ({}, 400, "`code` or their `player`"),
                                ({"player": a.id, "code": "XXXX-XXXX"}, 400, "`code` or")):
        r = b.send("POST", "/api/me/friends", body)
        assert r.status_code == status and words in r.json()["error"]["message"], r.text
    assert c.send("POST", f"/api/me/friends/{a.id}/block").status_code == 200
    r = a.send("POST", "/api/me/friends", {"player": c.id})
    assert r.status_code == 403 and r.json()["error"]["message"] == "you cannot add this player"


def test_the_country_flag_on_the_profile(browsers: Any) -> None:  # noqa: F811
    a, b = browsers("Bushra"), browsers("Chand")
    assert a.http.get(f"/api/players/{a.id}").json()["country"] is None
    r = a.send("PATCH", "/api/me", {"country": "pk"})
    assert r.status_code == 200 and r.json()["country"] == "PK" and r.json()["name"] == "Bushra"
    p = b.http.get(f"/api/players/{a.id}").json()  # anybody sees it, and nothing else new
    assert p["country"] == "PK" and p["flag"] == "\U0001F1F5\U0001F1F0"
    assert "email" not in p
    for bad, words in (("XX", "not an ISO 3166-1 alpha-2 country code"),
                       ("P1", "two letters"), ("PAK", "two letters"), ("ÄÖ", "two letters"),
                       (" p", "two letters")):
        r = a.send("PATCH", "/api/me", {"country": bad})
        assert r.status_code == 400 and words in r.json()["error"]["message"], (bad, r.text)
    assert b.http.get(f"/api/players/{a.id}").json()["country"] == "PK"  # unchanged
    assert a.send("PATCH", "/api/me", {"name": "Bushra K"}).status_code == 200
    assert b.http.get(f"/api/players/{a.id}").json()["country"] == "PK"  # kept by a rename
    assert a.send("PATCH", "/api/me", {"country": ""}).json()["country"] is None
    assert b.http.get(f"/api/players/{a.id}").json()["flag"] is None


def test_a_challenge_is_pushed_to_an_away_friend(pushing: Server, service: str) -> None:  # noqa: F811
    a, b, c = Browser(pushing, "Dilshad"), Browser(pushing, "Erum"), Browser(pushing, "Fawad")
    for x in (b, c):
        code = friends_of(a)["code"]
        assert x.send("POST", "/api/me/friends", {"code": code}).status_code == 200
        assert a.send("POST", f"/api/me/friends/{x.id}/accept").status_code == 200
    pb, pc = PushBrowser(f"{service}/challenge/{b.id}"), PushBrowser(f"{service}/challenge/{c.id}")
    for x, sub, lang in ((b, pb, "ur"), (c, pc, "en")):
        r = x.send("POST", "/api/me/push", {"subscription": sub.json(), "language": lang})
        assert r.status_code == 201, r.text
    friends_of(c)  # c has the home page open: online, told there, not by push
    ch = a.send("POST", "/api/me/challenges", {"game": "court-piece", "live": True,
                                               "seats": {"2": b.id, "1": c.id}}).json()
    wait(lambda: len(pb.messages()) == 1)
    told = pb.decrypt(pb.messages()[0])
    assert told == {"type": "challenge", "challenge": ch["id"], "from": "Dilshad",
                    "game": "court-piece", "live": True, "lang": "ur",
                    "title": "Dilshad نے آپ کو کورٹ پیس کا چیلنج دیا ہے",
                    "body": "لائیو: اپنے ہوم پیج پر قبول یا انکار کریں\u06d4", "url": "/",
                    "tag": f"taash-challenge-{ch['id']}", "icon": "/assets/icon.svg"}
    assert pb.messages()[0].headers["urgency"] == "normal"
    # all push off: no push
    assert b.send("PUT", "/api/me/push", {"off": True}).status_code == 200
    a.send("POST", "/api/me/challenges", {"game": "goat", "to": b.id})
    # push on again, a third challenge: its push is the positive sign that the one before was
    # handled (a push for it would have come first) instead of a fixed sleep
    assert b.send("PUT", "/api/me/push", {"off": False}).status_code == 200
    third = a.send("POST", "/api/me/challenges", {"game": "goat", "to": b.id}).json()
    wait(lambda: len(pb.messages()) >= 2)
    assert [pb.decrypt(m)["challenge"] for m in pb.messages()] == [ch["id"], third["id"]]
    assert pc.messages() == []
    for x in (a, b, c):
        x.http.close()
