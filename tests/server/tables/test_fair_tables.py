"""Every server table deals fair (taash-shuffle/1, RECORD.md "Fair deals"): the deal's commit is
published before it is dealt, the seats' seeds count, no secret shows before its deal is over,
the record verifies through the CLI, and a restart loses nothing."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taash import fair
from tests.server.helpers import Api, Server, pick_actor, tokens_of
from tests.server.tables.test_live import ws_open
from tests.server.tables.test_restart import strip

TWO_DEALS = {"session_end": {"deals": 2}}


def play_deal(api: Api, tid: str, tokens: dict[int, str], rng: random.Random,
              seen: list[str]) -> dict[str, Any]:
    """Play until the table's deal number moves on (or the match ends); every view, public
    view and record read on the way while the deal was played is kept in ``seen`` (as text)."""
    start = api.public(tid)["table"]["fair"]["deal"]
    while True:
        pub = api.public(tid)
        if pub["over"] or pub["table"]["fair"]["deal"] != start:
            return pub
        views = {s: api.view(tid, tok) for s, tok in tokens.items()}
        seen.extend(json.dumps(v) for v in views.values())
        seen.append(json.dumps(pub))
        seen.append(json.dumps(api.record(tid)))
        seat, action = pick_actor(views, rng) or (-1, "")
        r = api.act(tid, tokens[seat], action)
        assert r.status_code == 200, r.text


def verify_cli(rec: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(rec))
    p = subprocess.run([sys.executable, "-m", "taash", "record", "verify", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    out: dict[str, Any] = json.loads(p.stdout)
    return out


def drain(ws: Any) -> list[str]:
    """Every message the socket has received so far (as text)."""
    out = []
    while True:
        try:
            out.append(str(ws.recv(timeout=0.3)))
        except TimeoutError:
            return out


@pytest.mark.slow
def test_commit_first_seeds_count_secret_hidden_and_the_record_verifies(
        api: Api, server: Server, tmp_path: Path) -> None:
    t = api.create("court-piece", TWO_DEALS, [{"type": "human"}] * 4)
    tid, tokens = t["id"], tokens_of(t)
    seat_ws, spectator_ws = ws_open(server, tid, tokens[0]), ws_open(server, tid, None)
    f0 = api.public(tid)["table"]["fair"]
    # the first deal's commit at creation, the next deal's while this one is played
    assert f0["scheme"] == fair.SCHEME and f0["table"] == tid and f0["deal"] == 0
    assert f0["seeds"] == ["", "", "", ""] and len(f0["next_commit"]) == 64
    assert api.view(tid, tokens[1])["table"]["fair"] == f0
    assert "secret" not in json.dumps(api.view(tid, tokens[0]))

    def seed(seat: int, value: Any, token: str | None = None) -> Any:
        return api.http.post(f"/api/tables/{tid}/seed", json={"seed": value},
                             headers=api.auth(token or tokens[seat]))

    r = seed(0, "first-try")
    assert r.status_code == 200 and r.json() == {"deal": 1, "commit": f0["next_commit"],
                                                 "seed": "first-try"}
    assert seed(0, "alpha!~").status_code == 200  # the last one sent counts
    assert seed(2, "b").status_code == 200
    for bad in ("has space", "x" * 65, "\u00e9t\u00e9"):
        r = seed(1, bad)
        assert r.status_code == 400 and "seed" in r.json()["error"]["message"]
    assert seed(1, 7).status_code == 400
    assert seed(1, "ok", token="not-a-token").status_code in (401, 403)

    seen: list[str] = []
    rng = random.Random(3)
    pub = play_deal(api, tid, tokens, rng, seen)
    messages = drain(seat_ws) + drain(spectator_ws)  # the deal's live messages, and the next
    seat_ws.close()
    spectator_ws.close()
    assert len(messages) > 20
    f1 = pub["table"]["fair"]
    assert f1["deal"] == 1 and f1["commit"] == f0["next_commit"]
    assert f1["seeds"] == ["alpha!~", "", "b", ""]
    rec = api.record(tid)
    d0, d1 = rec["deals"]
    assert hashlib.sha256(bytes.fromhex(d0["fair"]["secret"])).hexdigest() == f0["commit"]
    assert d0["fair"]["seeds"] == ["", "", "", ""]
    assert "secret" not in d1["fair"] and d1["fair"]["commit"] == f1["commit"]
    assert not any(d0["fair"]["secret"] in text for text in seen + messages)
    # the deck is the one the secret and seeds give
    assert d0["deck"] == fair.derive("court-piece", tid, 0, d0["fair"]["seeds"],
                                     d0["fair"]["secret"])[0]
    seen_before_end = len(seen)
    play_deal(api, tid, tokens, rng, seen)
    rec = api.record(tid)
    s1 = rec["deals"][1]["fair"]["secret"]
    assert not any(s1 in text for text in seen[:seen_before_end])
    assert rec["deals"][1]["fair"]["seeds"] == ["alpha!~", "", "b", ""]
    summary = verify_cli(rec, tmp_path)
    assert [d["fair"] for d in summary["deals"]] == [True, True]
    # the match over: no more seeds
    assert seed(0, "late").status_code == 409


def test_bots_give_no_seed_and_the_seed_goes_over_the_websocket(api: Api,
                                                                 server: Server) -> None:
    t = api.create("court-piece-2p", {"target": 5},
                   [{"type": "human"}, {"type": "bot", "level": "easy"}])
    tid, tokens = t["id"], tokens_of(t)
    r = api.http.post(f"/api/tables/{tid}/seed?seat=1", json={"seed": "bot"},
                      headers=api.auth(tokens[0]))
    assert r.status_code in (400, 403)
    ws = ws_open(server, tid, tokens[0])
    try:
        ws.recv(timeout=10)
        ws.send(json.dumps({"type": "seed", "id": "s1", "seed": "over-ws"}))
        for _ in range(5):
            msg = json.loads(ws.recv(timeout=10))
            if msg.get("id") == "s1":
                break
        assert msg["type"] == "seed" and msg["seed"] == "over-ws" and msg["deal"] == 1
        ws.send(json.dumps({"type": "seed", "id": "s2", "seed": "a b"}))
        for _ in range(5):
            msg = json.loads(ws.recv(timeout=10))
            if msg.get("id") == "s2":
                break
        assert msg["type"] == "error" and msg["error"]["code"] == "bad_request"
    finally:
        ws.close()


@pytest.mark.slow
def test_a_restart_keeps_the_secrets_and_seeds(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'fair.db'}"
    first = Server(db, "--bot-delay", "0", log=tmp_path / "server.log").start()
    api = Api(first.base)
    t = api.create("court-piece", TWO_DEALS, [{"type": "human"}] * 4)
    tid, tokens = t["id"], tokens_of(t)
    f0 = api.public(tid)["table"]["fair"]
    r = api.http.post(f"/api/tables/{tid}/seed", json={"seed": "kept"},
                      headers=api.auth(tokens[3]))
    assert r.status_code == 200
    rng = random.Random(5)
    for _ in range(3):
        views = {s: api.view(tid, tok) for s, tok in tokens.items()}
        seat, action = pick_actor(views, rng) or (-1, "")
        assert api.act(tid, tokens[seat], action).status_code == 200
    before = {s: strip(api.view(tid, tok)) for s, tok in tokens.items()}
    api.close()
    first.kill()

    second = Server(db, "--bot-delay", "0", log=tmp_path / "server.log").start()
    api = Api(second.base)
    try:
        assert {s: strip(api.view(tid, tok)) for s, tok in tokens.items()} == before
        assert api.public(tid)["table"]["fair"] == f0
        seen: list[str] = []
        play_deal(api, tid, tokens, rng, seen)
        assert api.public(tid)["table"]["fair"]["seeds"] == ["", "", "", "kept"]
        play_deal(api, tid, tokens, rng, seen)
        summary = verify_cli(api.record(tid), tmp_path)
        assert [d["fair"] for d in summary["deals"]] == [True, True]
    finally:
        api.close()
        second.stop()


def test_the_creator_may_seed_the_first_deal(api: Api, tmp_path: Path) -> None:
    t = api.create("goat", {"target": 1}, [{"type": "bot"}, {"type": "human"}, {"type": "bot"},
                                           {"type": "bot"}], seed="creator-1")
    f0 = api.public(t["id"])["table"]["fair"]
    assert f0["seeds"] == ["", "creator-1", "", ""]
    r = api.http.post("/api/tables", json={"game": "goat", "seed": "no spaces please"})
    assert r.status_code == 400 and "seed" in r.json()["error"]["message"]
    rec = api.record(t["id"])
    assert "secret" not in rec["deals"][0]["fair"]
    assert rec["deals"][0]["fair"]["seeds"] == ["", "creator-1", "", ""]
