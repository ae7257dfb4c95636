"""Friends, blocks and challenges (issue 28) on a real server: both sides confirm, a block keeps
a player out, a challenge makes the table and its match counts for both."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from tests.server.helpers import Server
from tests.server.social.test_social import browsers, play_out  # noqa: F401  (the fixture)
from tests.waiting import wait_until


def friends_of(b: Any) -> dict[str, Any]:
    r = b.http.get("/api/me/friends")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def befriend(a: Any, b: Any) -> None:
    code = friends_of(a)["code"]
    r = b.send("POST", "/api/me/friends", {"code": code})
    assert r.status_code == 200 and r.json() == {"player": a.id, "state": "asked"}, r.text
    r = a.send("POST", f"/api/me/friends/{b.id}/accept")
    assert r.status_code == 200 and r.json()["state"] == "friends", r.text


def test_both_confirm_then_a_challenge_is_played_and_counted(browsers: Any) -> None:  # noqa: F811
    a, b = browsers("Asha"), browsers("Bilal")
    mine = friends_of(a)
    assert len(mine["code"]) == 8 and mine["url"] == f"/friend/{mine['code']}"
    assert friends_of(a)["code"] == mine["code"]  # the same code each time
    # asking is not yet friends: the other side sees a request
    code = mine["code"]
    r = b.send("POST", "/api/me/friends", {"code": code.lower()[:4] + "-" + code[4:]})
    assert r.json() == {"player": a.id, "state": "asked"}
    assert [x["player"] for x in friends_of(b)["asked"]] == [a.id]
    asking = friends_of(a)["asking"]
    assert [(x["player"], x["name"]) for x in asking] == [(b.id, "Bilal")]
    assert friends_of(a)["friends"] == []
    # no challenge before both confirmed
    r = b.send("POST", "/api/me/challenges", {"to": a.id, "game": "court-piece-2p"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = a.send("POST", f"/api/me/friends/{b.id}/accept")
    assert r.json() == {"player": b.id, "state": "friends"}
    fa, fb = friends_of(a), friends_of(b)
    assert [x["player"] for x in fa["friends"]] == [b.id] and fa["asking"] == []
    assert [x["player"] for x in fb["friends"]] == [a.id] and fb["asked"] == []
    assert fa["friends"][0]["online"] is True  # b just asked for their list
    assert fa["friends"][0]["last_seen"].endswith("Z")  # b's session, or that request
    # wrong codes
    assert b.send("POST", "/api/me/friends", {"code": friends_of(b)["code"]}).status_code == 400
    r = b.send("POST", "/api/me/friends", {"code": "XXXX-XXXX"})
    assert r.status_code == 404 and r.json()["error"]["message"] == \
        "no player has that friend code"
    # both refusals are in the schema (issue 43: the 404 was not)
    said = b.http.get("/openapi.json").json()["paths"]["/api/me/friends"]["post"]["responses"]
    assert {"400", "404"} <= set(said), sorted(said)
    r = a.send("POST", "/api/me/challenges", {"to": "nosuchplayer", "game": "court-piece-2p"})
    said = b.http.get("/openapi.json").json()["paths"]["/api/me/challenges"]["post"]["responses"]
    assert str(r.status_code) in said and r.status_code == 403, (r.text, sorted(said))
    # the challenge, accepted from the other side
    r = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "court-piece-2p",
                                              "options": {"target": 1}, "live": False})
    assert r.status_code == 201, r.text
    ch = r.json()
    assert ch["from"] == {"player": a.id, "name": "Asha"} and ch["state"] == "open"
    got = b.http.get("/api/me/challenges").json()
    assert [c["id"] for c in got["received"]] == [ch["id"]] and got["sent"] == []
    assert a.send("POST", f"/api/me/challenges/{ch['id']}/accept").status_code == 403
    r = b.send("POST", f"/api/me/challenges/{ch['id']}/accept")
    assert r.status_code == 200, r.text
    tid = r.json()["table"]
    assert r.json()["seat"] == 1
    assert b.send("POST", f"/api/me/challenges/{ch['id']}/accept").status_code == 409
    assert b.http.get("/api/me/challenges").json()["received"] == []
    assert [t["id"] for t in a.http.get("/api/me/tables").json()] == [tid]
    assert [(t["id"], t["seat"]) for t in b.http.get("/api/me/tables").json()] == [(tid, 1)]
    play_out(tid, {0: a, 1: b}, random.Random(3))
    def written() -> Any:  # both profiles, or None
        pa = a.http.get(f"/api/players/{a.id}").json()
        pb = a.http.get(f"/api/players/{b.id}").json()
        done = pa["recent"] and pb["recent"] and all(
            "court-piece-2p" in p["ratings"] for p in (pa, pb))  # results and ratings written
        return (pa, pb) if done else None

    pa, pb = wait_until(written, timeout=30, what="both results and ratings written")
    assert {pa["recent"][0]["result"], pb["recent"][0]["result"]} == {"won", "lost"}
    ra = pa["ratings"]["court-piece-2p"]["rating"]
    rb = pb["ratings"]["court-piece-2p"]["rating"]
    assert (ra - 1500) * (rb - 1500) < 0
    # a challenge withdrawn cannot be accepted
    ch2 = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "goat"}).json()
    assert a.send("POST", f"/api/me/challenges/{ch2['id']}/decline").json() == {
        "id": ch2["id"], "state": "withdrawn"}
    assert b.send("POST", f"/api/me/challenges/{ch2['id']}/accept").status_code == 409
    # the data export holds the friends and the ratings
    data = a.http.get("/api/me/export").json()
    assert [x["player"] for x in data["friends"]["friends"]] == [b.id]
    assert data["player"]["ratings"]["court-piece-2p"]["matches"] == 1
    # at most ten open challenges to one friend
    for _ in range(10):
        assert a.send("POST", "/api/me/challenges", {"to": b.id, "game": "goat"}).status_code \
            == 201
    r = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "goat"})
    assert r.status_code == 409 and "10 open challenges" in r.json()["error"]["message"]
    # removing ends it for both
    assert a.send("DELETE", f"/api/me/friends/{b.id}").status_code == 200
    assert friends_of(b)["friends"] == [] and friends_of(a)["friends"] == []
    # and their open challenges are withdrawn
    assert b.http.get("/api/me/challenges").json()["received"] == []
    assert a.http.get("/api/me/challenges").json()["sent"] == []


def test_a_challenge_expires(browsers: Any, server: Server) -> None:  # noqa: F811
    a, b = browsers("Esha"), browsers("Farid")
    befriend(a, b)
    ch = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "court-piece-2p",
                                               "live": True}).json()
    # a live challenge lasts ten minutes; make this one's time pass in the server's database
    assert ch["live"] is True
    db = Path(str(server.db).removeprefix("sqlite+aiosqlite:///"))
    with sqlite3.connect(db, timeout=10) as conn:
        conn.execute("UPDATE challenges SET expires = ? WHERE id = ?", (time.time() - 1,
                                                                          ch["id"]))
    assert b.http.get("/api/me/challenges").json()["received"] == []
    r = b.send("POST", f"/api/me/challenges/{ch['id']}/accept")
    assert r.status_code == 409 and "no longer open" in r.json()["error"]["message"]


def test_a_blocked_player_cannot_ask_challenge_or_join(browsers: Any) -> None:  # noqa: F811
    a, c, d = browsers("Gul"), browsers("Hamid"), browsers("Iqbal")
    befriend(a, c)
    r = a.send("POST", f"/api/me/friends/{c.id}/block")
    assert r.json() == {"player": c.id, "state": "blocked"}
    assert friends_of(c)["friends"] == [] and friends_of(c)["asked"] == []
    assert [x["player"] for x in friends_of(a)["blocked"]] == [c.id]
    r = c.send("POST", "/api/me/friends", {"code": friends_of(a)["code"]})
    assert r.status_code == 403 and r.json()["error"]["message"] == "you cannot add this player"
    r = c.send("POST", "/api/me/challenges", {"to": a.id, "game": "court-piece-2p"})
    assert r.status_code == 403
    t = a.send("POST", "/api/tables", {"game": "court-piece", "open": True, "live": False})
    assert t.status_code == 201, t.text
    tid = t.json()["id"]
    r = c.send("POST", f"/api/tables/{tid}/join", {})
    assert r.status_code == 403 and r.json()["error"]["message"] == "you cannot join this table"
    assert d.send("POST", f"/api/tables/{tid}/join", {}).status_code == 200  # others can
    # lifting the block lets them in again
    assert a.send("DELETE", f"/api/me/friends/{c.id}").status_code == 200
    assert c.send("POST", f"/api/tables/{tid}/join", {}).status_code == 200
    assert a.send("POST", f"/api/me/friends/{a.id}/block").status_code == 400


def test_the_challenger_is_told_of_an_answer(browsers: Any) -> None:  # noqa: F811
    """Issue 43: an accepted or declined challenge leaves `sent`; `answered` keeps it for the
    challenger, with the table of an accepted one, so their page can tell them."""
    a, b = browsers("Asha"), browsers("Dima")
    befriend(a, b)
    one = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "court-piece-2p"}).json()
    two = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "goat"}).json()
    assert a.http.get("/api/me/challenges").json()["answered"] == []
    r = b.send("POST", f"/api/me/challenges/{one['id']}/accept")
    assert r.status_code == 200 and r.json()["table"], r.text
    assert b.send("POST", f"/api/me/challenges/{two['id']}/decline").status_code == 200
    mine = a.http.get("/api/me/challenges").json()
    assert mine["sent"] == []
    told = {c["id"]: (c["state"], c["table"]) for c in mine["answered"]}
    assert told == {one["id"]: ("accepted", r.json()["table"]), two["id"]: ("declined", None)}
    assert b.http.get("/api/me/challenges").json()["answered"] == []  # the challenger's only
