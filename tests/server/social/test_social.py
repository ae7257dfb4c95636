"""What a finished match leaves its players (issue 28): history, stats and ratings, shown by a
real server's public profile, history and leaderboard."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from taash.ratings import BOT_RATINGS, SCALE
from tests.server.helpers import Server
from tests.waiting import wait_until


class Browser:
    """A browser's cookie jar, with this site's Origin on every change (as a page sends)."""

    def __init__(self, server: Server, name: str) -> None:
        self.base = server.base
        self.http = httpx.Client(base_url=server.base, timeout=20)
        self.http.get("/")
        r = self.http.patch("/api/me", json={"name": name}, headers={"Origin": self.base})
        assert r.status_code == 200, r.text
        self.id: str = r.json()["id"]

    def send(self, method: str, path: str, body: Any = None) -> httpx.Response:
        return self.http.request(method, path, json=body, headers={"Origin": self.base})


@pytest.fixture
def browsers(server: Server) -> Iterator[Any]:
    made: list[Browser] = []

    def make(name: str) -> Browser:
        made.append(Browser(server, name))
        return made[-1]

    yield make
    for b in made:
        b.http.close()


def play_out(tid: str, seats: dict[int, Browser], rng: random.Random) -> None:
    """Each human seat plays random legal actions until the match is over (bots move alone)."""
    def over() -> bool:  # one round of the human seats' moves; the bots move between
        for seat, b in seats.items():
            v = b.http.get(f"/api/tables/{tid}/view?seat={seat}").json()
            if v.get("over"):
                return True
            if v["legal_actions"]:
                r = b.send("POST", f"/api/tables/{tid}/actions?seat={seat}",
                           {"action": rng.choice(v["legal_actions"]), "version": v["version"]})
                assert r.status_code in (200, 409), r.text
        return False

    wait_until(over, timeout=120, what="the match to end", every=0)


def wait_profile(b: Browser, pid: str, game: str) -> dict[str, Any]:
    def written() -> Any:  # the profile, or None
        p: dict[str, Any] = b.http.get(f"/api/players/{pid}").json()
        # the ratings are written after the result: wait for both
        return p if p["recent"] and game in p["ratings"] else None

    return wait_until(written, timeout=30, what="the result and the rating written")


def test_two_players_match_moves_ratings_history_and_stats(browsers: Any) -> None:
    a, b = browsers("Asha"), browsers("Bilal")
    r = a.send("POST", "/api/tables", {"game": "court-piece-2p", "options": {"target": 1},
                                       "live": False, "open": True, "first_seat": 0})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    joined = b.send("POST", f"/api/tables/{tid}/join", {})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    play_out(tid, {0: a, 1: b}, random.Random(5))
    record = a.http.get(f"/api/tables/{tid}/record").json()
    assert record["seats"] == [
        {"type": "human", "level": None, "name": "Asha", "player": a.id},
        {"type": "human", "level": None, "name": "Bilal", "player": b.id}]
    pa, pb = wait_profile(a, a.id, "court-piece-2p"), wait_profile(a, b.id, "court-piece-2p")
    winner = 0 if pa["recent"][0]["result"] == "won" else 1
    # the library's own update of two new players, seat `winner` first
    m = PlackettLuce()
    ranks = [1, 2] if winner == 0 else [2, 1]
    (ra,), (rb,) = m.rate([[m.rating()], [m.rating()]], ranks=ranks)
    for p, want in ((pa, ra), (pb, rb)):
        got = p["ratings"]["court-piece-2p"]
        assert got == {"rating": round(SCALE * want.mu), "deviation": round(SCALE * want.sigma),
                       "provisional": True, "shown": f"{round(SCALE * want.mu)}?",
                       "matches": 1}
    # opposite directions from 1500
    assert (pa["ratings"]["court-piece-2p"]["rating"] - 1500) * \
        (pb["ratings"]["court-piece-2p"]["rating"] - 1500) < 0
    assert pa["name"] == "Asha" and pa["member_since"].endswith("Z")
    assert "email" not in pa and "language" not in pa
    results = {pa["recent"][0]["result"], pb["recent"][0]["result"]}
    assert results == {"won", "lost"}
    # stats: one match, won by one of them
    sa, sb = pa["stats"]["court-piece-2p"], pb["stats"]["court-piece-2p"]
    assert sa["matches"]["played"] == sb["matches"]["played"] == 1
    assert sa["matches"]["won"] + sb["matches"]["won"] == 1
    assert sa["by_opponent"] == {"people": sa["matches"]}
    # history: the line, its people, and its record
    h = a.http.get(f"/api/players/{a.id}/history").json()
    assert h["next"] is None
    (line,) = h["matches"]
    assert line["table"] == tid and line["game"] == "court-piece-2p" and line["rated"]
    assert line["options"] == {"target": 1} and line["partners"] == []
    assert line["opponents"] == [{"type": "human", "name": "Bilal", "player": b.id}]
    assert line["rating_after"] == {k: v for k, v in pa["ratings"]["court-piece-2p"].items()
                                    if k != "matches"}
    assert a.http.get(line["record"]).json()["deals"] == record["deals"]


def test_against_a_bot_the_bot_rating_is_fixed_and_pages_follow(browsers: Any) -> None:
    a = browsers("Chandni")
    tids = []
    for i in range(3):
        r = a.send("POST", "/api/tables", {
            "game": "court-piece-2p", "options": {"target": 1}, "live": False,
            "first_seat": 0, "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]})
        assert r.status_code == 201, r.text
        tids.append(r.json()["id"])
        play_out(tids[-1], {0: a}, random.Random(i))
    wait_until(lambda: len(a.http.get(f"/api/players/{a.id}").json()["recent"]) >= 3,
               timeout=30, what="three results written")
    p = a.http.get(f"/api/players/{a.id}").json()
    assert p["ratings"]["court-piece-2p"]["matches"] == 3
    assert p["stats"]["court-piece-2p"]["by_opponent"].keys() == {"bot:random"}
    # the same three updates against the bot's published rating, in order
    m = PlackettLuce()
    me = m.rating()
    bot = m.rating(mu=BOT_RATINGS["court-piece-2p"]["random"], sigma=1.0)
    for line in reversed(p["recent"]):
        ranks = [1, 2] if line["result"] == "won" else [2, 1]
        (me,), _ = m.rate([[me], [bot]], ranks=ranks)
    assert p["ratings"]["court-piece-2p"]["rating"] == round(SCALE * me.mu)
    # newest first, paged
    first = a.http.get(f"/api/players/{a.id}/history?limit=2").json()
    assert [x["table"] for x in first["matches"]] == tids[::-1][:2]
    rest = a.http.get(f"/api/players/{a.id}/history",
                      params={"limit": 2, "before": first["next"]}).json()
    assert [x["table"] for x in rest["matches"]] == tids[:1] and rest["next"] is None
    # provisional players are not on the leaderboard yet
    assert a.http.get("/api/leaderboard/court-piece-2p").json() == []
    bad = a.http.get("/api/leaderboard/chess")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"
    gone = a.http.get("/api/players/nobody")
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"


def test_names_follow_the_player_and_a_deleted_account_leaves_none(browsers: Any) -> None:
    a, b = browsers("Jamila"), browsers("Kamran")
    # friends first, so the deletion has friend rows to take away too
    code = a.http.get("/api/me/friends").json()["code"]
    assert b.send("POST", "/api/me/friends", {"code": code}).json()["state"] == "asked"
    assert a.send("POST", f"/api/me/friends/{b.id}/accept").json()["state"] == "friends"
    r = a.send("POST", "/api/tables", {"game": "court-piece-2p", "options": {"target": 1},
                                       "live": False, "open": True, "first_seat": 0})
    tid = r.json()["id"]
    assert b.send("POST", f"/api/tables/{tid}/join", {}).status_code == 200
    play_out(tid, {0: a, 1: b}, random.Random(8))
    wait_profile(b, b.id, "court-piece-2p")
    assert a.send("PATCH", "/api/me", {"name": "Jamila R"}).status_code == 200
    (line,) = b.http.get(f"/api/players/{b.id}/history").json()["matches"]
    assert line["opponents"] == [{"type": "human", "name": "Jamila R", "player": a.id}]
    r = a.send("DELETE", "/api/me", {"confirm": "delete"})
    assert r.status_code == 200, r.text
    assert b.http.get(f"/api/players/{a.id}").status_code == 404
    assert b.http.get(f"/api/players/{a.id}/history").status_code == 404
    (line,) = b.http.get(f"/api/players/{b.id}/history").json()["matches"]
    assert line["opponents"] == [{"type": "human", "name": "deleted player", "player": None}]
    assert "Jamila" not in b.http.get(f"/api/players/{b.id}").text
    mine = b.http.get("/api/me/friends").json()
    assert mine["friends"] == [] and mine["asking"] == [] and mine["asked"] == []


def test_the_leaderboard_lists_settled_ratings_best_first(browsers: Any, server: Server) -> None:
    import sqlite3
    from pathlib import Path

    a, b, c = browsers("Parveen"), browsers("Qasim"), browsers("Rubina")
    db = Path(str(server.db).removeprefix("sqlite+aiosqlite:///"))
    # ratings as many rated matches leave them (sigma under the provisional bound), and one
    # still provisional
    with sqlite3.connect(db, timeout=10) as conn:
        conn.executemany("INSERT INTO ratings VALUES (?, 'goat', ?, ?, ?, ?)", [
            (a.id, 70.0, 2.0, 40, time.time()), (b.id, 80.0, 5.5, 30, time.time()),
            (c.id, 90.0, 5.6, 12, time.time())])
    board = a.http.get("/api/leaderboard/goat").json()
    top = [r for r in board if r["player"] in (a.id, b.id, c.id)]
    assert [(r["player"], r["name"], r["shown"], r["matches"]) for r in top] == [
        (b.id, "Qasim", "4800", 30), (a.id, "Parveen", "4200", 40)]
    assert top[0]["rank"] < top[1]["rank"]
    assert a.http.get(f"/api/players/{c.id}").json()["ratings"]["goat"]["shown"] == "5400?"
