"""The deal review's API: a table's finished deal step by step (never a deal being played, so
no hidden card leaves), a record pasted in (a malformed one a clear 400), and the analysis run
in the server's worker with its progress, kept in the store so that a second look (after a
restart too) is instant."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from taash.record import random_record
from tests.server.helpers import CARD, Api, Server, tokens_of
from tests.server.tables.test_fair_tables import play_deal
from tests.waiting import wait_until


def two_player_table(api: Api, seed: int = 1) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A two-player Court Piece table with its first deal played and the second dealt.

    The target is 5: one deal scores at most 4 (a court, TW-5), so the match cannot end with
    the first deal whatever the server's fair deal holds (at 3 a court ended it, now and then)."""
    t = api.create("court-piece-2p", {"target": 5}, [{"type": "human"}] * 2)
    tid, tokens = t["id"], tokens_of(t)
    pub = play_deal(api, tid, tokens, random.Random(seed), [])
    assert not pub["over"] and pub["table"]["fair"]["deal"] == 1
    return tid, tokens, pub


def test_a_finished_deal_step_by_step_and_never_the_deal_in_play(api: Api) -> None:
    tid, tokens, _ = two_player_table(api)
    # the deal being played: refused to anyone, and the refusal shows no card
    hands = [api.view(tid, tokens[s])["hand"] for s in (0, 1)]
    for query in ("?deal=1", ""):
        r = api.http.get(f"/api/tables/{tid}/review{query}")
        if query:
            assert r.status_code == 409, r.text
            assert r.json()["error"]["code"] == "not_over"
            assert "still being played" in r.json()["error"]["message"]
            assert not CARD.findall(r.text)
    r = api.http.get(f"/api/tables/{tid}/review?deal=7")
    assert r.status_code == 404 and "deal 7" in r.json()["error"]["message"]
    # the finished deal (the default: the last one over), as its record gives it
    r = api.http.get(f"/api/tables/{tid}/review")
    assert r.status_code == 200, r.text
    rv = r.json()
    rec = api.record(tid)
    d0 = rec["deals"][0]
    assert rv["deal"] == 0 and rv["num_deals"] == 1 and rv["table"] == tid  # deal 1 left out
    assert [s["action"] for s in rv["steps"]] == [a["action"] for a in d0["actions"]]
    assert len(rv["positions"]) == len(rv["steps"]) + 1
    assert rv["result"]["complete"] is True and rv["result"]["fair"] is True
    assert rv["call"] is not None and len(rv["call"]["first_cards"]) == 5
    # the hands shrink by the card each step plays; a trick's last card shows it won
    for s, before, after in zip(rv["steps"], rv["positions"], rv["positions"][1:], strict=False):
        if s["verb"] == "play":
            assert sorted(before["hands"][s["seat"]]) == sorted(after["hands"][s["seat"]]
                                                                + s["cards"])
    won = [p for p in rv["positions"] if p["winner"] is not None]
    assert len(won) == len(rv["tricks"])
    assert won[0]["table"][0]["step"] == rv["tricks"][0]["steps"][0]
    # nothing of the deal in play: neither a current hand as it is nor its record's entry
    text = json.dumps(rv)
    assert json.dumps(hands[0]) not in text and json.dumps(hands[1]) not in text
    assert "hidden" not in text


def test_a_record_pasted_in(api: Api) -> None:
    rec = random_record("goat", seed=3, deals=2)
    r = api.http.post("/api/review?deal=1", content=json.dumps(rec))
    assert r.status_code == 200, r.text
    rv = r.json()
    assert rv["game"] == "goat" and rv["deal"] == 1 and rv["table"] is None
    passes = [p for t in rv["tricks"] for p in t["plays"] if p["face_down"]]
    assert passes and all(p["cards"] for p in passes)  # Goat's passes turned up
    # malformed: the record's own error, a 400, no traceback
    for body, words in [(b"{not json", "malformed record"),
                        (json.dumps({**rec, "format": "nope"}).encode(), "malformed record"),
                        (json.dumps({**rec, "deals": [{**rec["deals"][0], "actions": [
                            {"seat": 0, "action": "lead:XX"}]}]}).encode(), "record")]:
        r = api.http.post("/api/review", content=body)
        assert r.status_code == 400, r.text
        err = r.json()["error"]
        assert err["code"] == "bad_request" and words in err["message"], err
        assert "Traceback" not in r.text
    r = api.http.post("/api/review?deal=5", content=json.dumps(rec))
    assert r.status_code == 400 and "deal 5" in r.json()["error"]["message"]
    r = api.http.post("/api/review", content=b"x" * (65 * 1024))
    assert r.status_code == 413


def wait_done(api: Api, key: str, seen: list[dict[str, Any]],
              timeout: float = 120) -> dict[str, Any]:
    def ended() -> Any:  # the status, or None
        r = api.http.get(f"/api/analyses/{key}")
        assert r.status_code == 200, r.text
        st: dict[str, Any] = r.json()
        seen.append(st)
        return st if st["status"] != "running" else None

    try:
        return wait_until(ended, timeout=timeout, what="the analysis to end")
    except AssertionError as e:
        raise AssertionError(f"{e}: {seen[-1]}") from None


@pytest.mark.slow
def test_the_analysis_runs_in_the_worker_and_is_kept(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'review.db'}"
    env = {"TAASH_ANALYSIS_SOLVER_TIME": "0.5"}
    srv = Server(db, "--bot-delay", "0", env=env, log=tmp_path / "server.log").start()
    api = Api(srv.base)
    try:
        tid, tokens, _ = two_player_table(api, seed=2)
        r = api.http.get(f"/api/tables/{tid}/analysis?deal=0")
        assert r.status_code == 200 and r.json()["status"] == "none"
        assert api.http.post(f"/api/tables/{tid}/analysis?deal=1").status_code == 409
        r = api.http.post(f"/api/tables/{tid}/analysis?deal=0")
        assert r.status_code == 200, r.text
        key = r.json()["key"]
        assert r.json()["status"] == "running"
        # play goes on while it runs: the seat to move acts, answered (the analysis takes
        # minutes; each request's 20 s timeout bounds one that waited for it)
        v = api.view(tid, tokens[0])
        mover = 0 if v["to_move"] == 0 else 1
        legal = api.view(tid, tokens[mover])["legal_actions"]
        assert api.act(tid, tokens[mover], legal[0]).status_code == 200
        seen: list[dict[str, Any]] = []
        st = wait_done(api, key, seen)
        assert st["status"] == "done", st
        steps = len(api.record(tid)["deals"][0]["actions"])
        assert any(0 < s["done"] < s["total"] == steps for s in seen), seen  # progress shown
        a = st["analysis"]
        assert [x["step"] for x in a["actions"]] == list(range(steps))
        assert a["solver"] == "taash" and {s["seat"] for s in a["seats"]} == {0, 1}
        assert sum(s["actions"] for s in a["seats"]) == steps
        assert all(x["open"]["verdict"] in ("best", "mistake", "blunder") for x in a["actions"]
                   if x["open"]["note"] is None)
        assert all("hard" in x["known"] for x in a["actions"])
        # a second look: done at once, the same; after a restart too (kept in the store)
        r = api.http.post(f"/api/tables/{tid}/analysis?deal=0")
        assert r.json()["status"] == "done" and r.json()["analysis"] == a
        srv.stop()
        srv = Server(db, "--bot-delay", "0", env=env, log=tmp_path / "server.log").start()
        api.close()
        api = Api(srv.base)
        r = api.http.get(f"/api/tables/{tid}/analysis?deal=0")  # "done": not worked out again
        assert r.json()["status"] == "done" and r.json()["analysis"] == a
        # a record pasted in is analysed the same way, under the same key as the table's deal
        rec = api.record(tid)
        rec["deals"] = rec["deals"][:1]
        r = api.http.post("/api/review/analysis?deal=0", content=json.dumps(rec))
        assert r.status_code == 200 and r.json()["key"] == key and r.json()["status"] == "done"
        r = api.http.post("/api/review/analysis", content=b"[]")
        assert r.status_code == 400 and "malformed record" in r.json()["error"]["message"]
        assert api.http.get("/api/analyses/nothex").status_code == 400
    finally:
        api.close()
        srv.stop()


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


@pytest.mark.slow
def test_a_server_stopped_during_an_analysis_stops_at_once_and_its_worker_too(
        tmp_path: Path) -> None:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'stop.db'}", "--bot-delay", "0",
                 log=tmp_path / "server.log").start()
    api = Api(srv.base)
    try:
        rec = random_record("goat", seed=3, deals=1)  # minutes of work at 2 s a position
        r = api.http.post("/api/review/analysis", content=json.dumps(rec))
        assert r.status_code == 200 and r.json()["status"] == "running", r.text
        assert srv.proc is not None
        pid = srv.proc.pid
        workers = wait_until(lambda: children(pid), timeout=30, what="a worker process")
    finally:
        api.close()
        code = srv.stop()
    assert code == 0  # stopped (a server still there after 15 s is killed: -9)
    wait_until(lambda: not any(alive(p) for p in workers), timeout=5,
               what="the workers to end")
    assert not any(alive(p) for p in workers)


def test_the_review_names_the_seats_as_the_record_does(api: Api) -> None:
    """Issue 43: the page called the seats "Seat 1", "Seat 2"; the review now carries who sat
    where (each seat's type, bot level and public name, no player id), None for a record
    without seats."""
    rec = random_record("court-piece-2p", seed=3, deals=1)
    rec["seats"] = [{"type": "human", "level": None, "name": "Zara", "player": "p-zara"},
                    {"type": "bot", "level": "hard", "name": None, "player": None}]
    rv = api.http.post("/api/review", content=json.dumps(rec)).json()
    assert rv["players"] == [{"type": "human", "level": None, "name": "Zara"},
                             {"type": "bot", "level": "hard", "name": None}]
    del rec["seats"]
    assert api.http.post("/api/review", content=json.dumps(rec)).json()["players"] is None
    # a table's record carries its seats
    t = api.create("court-piece-2p", {"target": 5}, [{"type": "human", "name": "Ola"},
                                                      {"type": "human"}])
    play_deal(api, t["id"], tokens_of(t), random.Random(2), [])
    rv = api.http.get(f"/api/tables/{t['id']}/review").json()
    assert [p["name"] for p in rv["players"]] == ["Ola", None]
    assert [p["type"] for p in rv["players"]] == ["human", "human"]
