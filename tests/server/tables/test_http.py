"""Whole matches and every error through the HTTP API of a real server process."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from taash.record import verify
from tests.server.helpers import Api, Server, Truth, pick_actor, tokens_of

SHORT = {"court-piece": {"session_end": {"deals": 1}}, "court-piece-2p": {"target": 1},
         "goat": {"target": 1}}
SEATS = {"court-piece": 4, "court-piece-2p": 2, "goat": 4}


def play_all_human(api: Api, game: str, seed: int,
                   public: list[Any] | None = None) -> tuple[str, list[tuple[int, int, Any]]]:
    """Play a match with every seat human, over HTTP; returns the table id and every view
    fetched as (seat, version, view)."""
    rng = random.Random(seed)
    t = api.create(game, SHORT[game], [{"type": "human"}] * SEATS[game])
    tokens = tokens_of(t)
    seen: list[tuple[int, int, Any]] = []
    version = 0
    while version < 2000:
        views = {s: api.view(t["id"], tok) for s, tok in tokens.items()}
        for s, v in views.items():
            assert v["version"] == version
            seen.append((s, version, v))
        if public is not None:
            public.append(api.public(t["id"]))
        if views[0]["over"]:
            break
        seat, action = pick_actor(views, rng) or (-1, "")
        assert seat >= 0, "nobody can act in a match that is not over"
        r = api.act(t["id"], tokens[seat], action, cid=f"c{version}")
        assert r.status_code == 200, r.text
        body = r.json()
        version += 1
        assert body["version"] == version
        assert body["events"][0]["seat"] == seat
    assert views[0]["over"], "match did not end"
    return t["id"], seen


@pytest.mark.slow
@pytest.mark.parametrize("game", ["court-piece", "court-piece-2p", "goat"])
def test_full_match_over_http_shows_each_seat_only_its_own(api: Api, game: str) -> None:
    spectator: list[Any] = []
    table, seen = play_all_human(api, game, seed=len(game), public=spectator)
    rec = api.record(table)
    summary = verify({k: v for k, v in rec.items() if k != "table"})
    assert summary["match"]["over"]
    truth = Truth(rec)
    assert len(truth.states) == seen[-1][1] + 1
    for seat, version, view in seen:
        truth.check_view(seat, version, view)
    for view in spectator:
        truth.check_public(view["version"], view)
    pub = api.public(table)
    assert pub["over"] and pub["version"] == seen[-1][1]
    assert "hand" not in pub


@pytest.mark.parametrize("game", ["court-piece", "court-piece-2p", "goat"])
def test_bots_play_their_seats(api: Api, game: str) -> None:
    n = SEATS[game]
    seats = [{"type": "human"}] + [{"type": "bot", "level": "random"}] * (n - 1)
    t = api.create(game, SHORT[game], seats)
    tok = tokens_of(t)[0]
    rng = random.Random(3)
    for _ in range(500):
        v = api.wait_for(t["id"], tok, lambda v: v["over"] or v["to_move"] == 0)
        if v["over"]:
            break
        r = api.act(t["id"], tok, rng.choice(v["legal_actions"]))
        if r.status_code == 409 and api.view(t["id"], tok)["version"] > v["version"]:
            # A bot acted in between (Goat: a molodka out of turn), so the seat's view was
            # stale; the server refused the action and changed nothing. Read again.
            continue
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("match did not end")
    rec = api.record(t["id"])
    assert verify({k: x for k, x in rec.items() if k != "table"})["match"]["over"]


def test_illegal_and_malformed_actions(api: Api) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    tokens = tokens_of(t)
    r = api.act(t["id"], tokens[1], "trump:S")
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "illegal" and err["rule"] == "TW-3" and "caller" in err["message"]
    # The same reason as a key and parameters, for a client that speaks another language.
    assert err["key"] == "only_caller" and err["params"] == {"seat": 0}
    r = api.act(t["id"], tokens[0], "play:XX")
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed"
    r = api.act(t["id"], tokens[0], "dance:now")
    assert r.status_code == 409 and r.json()["error"]["code"] == "illegal"
    assert api.view(t["id"], tokens[0])["version"] == 0


def test_same_client_id_is_applied_once(api: Api) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    tok = tokens_of(t)[0]
    first = api.act(t["id"], tok, "trump:H", cid="abc")
    again = api.act(t["id"], tok, "trump:H", cid="abc")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert api.view(t["id"], tok)["version"] == 1
    v = api.view(t["id"], tok)
    later = api.act(t["id"], tok, v["legal_actions"][0], cid="def")
    assert later.json()["version"] == 2
    assert api.act(t["id"], tok, "trump:H", cid="abc").json() == first.json()


def test_an_action_on_an_old_version_is_refused_and_changes_nothing(api: Api) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    tok = tokens_of(t)[0]
    assert api.act(t["id"], tok, "trump:H", cid="a", version=0).json()["version"] == 1
    card = api.view(t["id"], tok)["legal_actions"][0]
    # A second device still showing version 0 plays: refused, nothing applied.
    r = api.act(t["id"], tok, card, cid="b", version=0)
    assert r.status_code == 409, r.text
    err = r.json()["error"]
    assert err["code"] == "stale" and "version 1" in err["message"]
    v = api.view(t["id"], tok)
    assert v["version"] == 1 and card in v["legal_actions"]
    # The first request sent again (a retry) still gets its first answer.
    assert api.act(t["id"], tok, "trump:H", cid="a", version=0).json()["version"] == 1
    for bad in ("1", True, -1, 1.5):
        r = api.act(t["id"], tok, card, cid="c", version=bad)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request", bad
    assert api.view(t["id"], tok)["version"] == 1
    r = api.act(t["id"], tok, card, cid="d", version=1)
    assert r.status_code == 200 and r.json()["version"] == 2


def test_tokens_act_only_for_their_seat(api: Api) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   first_seat=0)
    other = api.create("court-piece-2p", None, [{"type": "human"}] * 2)
    tokens = tokens_of(t)
    tid = t["id"]
    h = api.http
    assert h.get(f"/api/tables/{tid}/view").status_code == 401
    r = h.get(f"/api/tables/{tid}/view", headers=api.auth("not-a-token"))
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = h.get(f"/api/tables/{tid}/view", headers=api.auth(tokens_of(other)[0]))
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = h.get(f"/api/tables/{tid}/view?seat=0", headers=api.auth(tokens[1]))
    assert r.status_code == 403
    r = h.post(f"/api/tables/{tid}/actions?seat=0", json={"action": "trump:S"},
               headers=api.auth(tokens[1]))
    assert r.status_code == 403
    # seat 1's token acts as seat 1 only: the caller's move is refused as not its own
    assert api.act(tid, tokens[1], "trump:S").status_code == 409
    assert h.get(f"/api/tables/{tid}/view?token={tokens[1]}").json()["seat"] == 1
    assert api.view(tid, tokens[0])["version"] == 0


def test_errors_are_json_with_a_code(api: Api) -> None:
    h = api.http
    cases = [
        (h.get("/api/tables/nosuchtable"), 404, "not_found"),
        (h.get("/api/nothing/here"), 404, "not_found"),
        (h.delete("/api/lobby"), 405, "method_not_allowed"),
        (h.post("/api/tables", content=b"{not json", headers={"content-type":
                                                              "application/json"}),
         400, "bad_request"),
        (h.post("/api/tables", json={"game": "chess"}), 400, "bad_request"),
        (h.post("/api/tables", json={"game": "goat", "options": {"target": 0}}), 400,
         "bad_request"),
        (h.post("/api/tables", json={"game": "goat", "seats": [{"type": "human"}]}), 400,
         "bad_request"),
        (h.post("/api/tables", content=b"x" * 200_000, headers={"content-type":
                                                                "application/json"}),
         413, "too_large"),
    ]
    for r, status, code in cases:
        assert r.status_code == status, r.text
        body = r.json()
        assert body["error"]["code"] == code
        assert "Traceback" not in r.text
    assert "target" in cases[5][0].json()["error"]["message"]


def test_record_hides_the_deal_in_progress(api: Api) -> None:
    t = api.create("goat", SHORT["goat"], [{"type": "human"}] * 4, first_seat=0)
    tokens = tokens_of(t)
    rng = random.Random(5)
    passed = False
    for _ in range(60):
        views = {s: api.view(t["id"], tok) for s, tok in tokens.items()}
        mover = next(s for s, v in views.items() if v["to_move"] == s)
        legal = views[mover]["legal_actions"]
        passes = [a for a in legal if a.startswith("pass:")]
        action = passes[0] if passes and not passed else rng.choice(legal)
        passed = passed or action.startswith("pass:")
        assert api.act(t["id"], tokens[mover], action).status_code == 200
        if passed:
            break
    rec = api.record(t["id"])
    deal = rec["deals"][-1]
    assert "deck" not in deal and deal["hidden"]
    assert deal["trump_card"] == views[0]["trump_card"]
    assert any(a["action"] == "pass" and "count" in a for a in deal["actions"])
    assert not any(a["action"].startswith("pass:") for a in deal["actions"])


def test_lobby_join_my_tables_leave_rematch_hint(api: Api) -> None:
    h = api.http
    t = api.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2,
                   open=True, first_seat=0)
    tid = t["id"]
    lobby = h.get("/api/lobby").json()
    entry = next(e for e in lobby if e["id"] == tid)
    assert entry["free_seats"] == [1] and entry["game"] == "court-piece-2p"
    joined = h.post(f"/api/tables/{tid}/join", json={"name": "Ayesha"}).json()
    assert joined["seat"] == 1 and joined["token"] != tokens_of(t)[1]
    assert h.post(f"/api/tables/{tid}/join", json={}).status_code == 409
    assert not any(e["id"] == tid for e in h.get("/api/lobby").json())
    # the invite token of a seat someone joined no longer works
    assert h.get(f"/api/tables/{tid}/view", headers=api.auth(tokens_of(t)[1])).status_code \
        == 401
    tok0, tok1 = tokens_of(t)[0], joined["token"]
    mine = h.post("/api/my-tables", json={"tokens": [tok0, tok1, "bogus"]}).json()
    assert {(m["id"], m["seat"], m["your_turn"]) for m in mine} == {(tid, 0, True),
                                                                     (tid, 1, False)}
    hint = h.get(f"/api/tables/{tid}/hint", headers=api.auth(tok0)).json()
    assert hint["action"] in api.view(tid, tok0)["legal_actions"]
    assert hint["trump_hint"] and set(hint["trump_hint"]) <= set("SHDC")
    assert h.post(f"/api/tables/{tid}/rematch", headers=api.auth(tok0)).status_code == 409
    # seat 1 leaves: a bot takes it and plays; its token stops working
    assert h.post(f"/api/tables/{tid}/leave", headers=api.auth(tok1)).status_code == 200
    assert h.get(f"/api/tables/{tid}/view", headers=api.auth(tok1)).status_code == 401
    rng = random.Random(1)
    for _ in range(200):
        v = api.wait_for(tid, tok0, lambda v: v["over"] or v["to_move"] == 0)
        if v["over"]:
            break
        assert api.act(tid, tok0, rng.choice(v["legal_actions"])).status_code == 200
    assert api.public(tid)["table"]["seats"][1]["type"] == "bot"
    r1 = h.post(f"/api/tables/{tid}/rematch", headers=api.auth(tok0)).json()
    r2 = h.post(f"/api/tables/{tid}/rematch", headers=api.auth(tok0)).json()
    assert r1 == r2 and r1["id"] != tid and r1["seat"] == 0
    assert api.view(r1["id"], r1["token"])["version"] >= 0
    assert api.public(tid)["table"]["rematch"] == r1["id"]
    assert api.public(r1["id"])["table"]["rematch_of"] == tid


def test_notify_settings_are_checked(api: Api) -> None:
    t = api.create("goat", None, [{"type": "human"}] * 4)
    tok = tokens_of(t)[0]
    h = api.http
    url = f"/api/tables/{t['id']}/notify"
    assert h.put(url, json={"webhook": "ftp://x"}, headers=api.auth(tok)).status_code == 400
    assert h.put(url, json={"email": "nobody"}, headers=api.auth(tok)).status_code == 400
    # by default a webhook may not call the server's own network (request forgery)
    for hook in ("http://127.0.0.1:9/hook", "http://localhost/hook", "https://10.1.2.3/h",
                 "http://169.254.169.254/latest/meta-data", "http://[::1]:8000/h",
                 "http://[::ffff:192.168.1.1]/h", "http://0.0.0.0/h"):
        r = h.put(url, json={"webhook": hook}, headers=api.auth(tok))
        assert r.status_code == 400, hook
        err = r.json()["error"]
        assert err["code"] == "bad_request" and "private" in err["message"], err
    assert "localhost resolves to" in h.put(url, json={"webhook": "http://localhost/h"},
                                            headers=api.auth(tok)).json()["error"]["message"]
    # a server with no SMTP says so, and refuses an address it could never write to
    assert h.get("/api/health").json() == {"ok": True, "email": False}
    r = h.put(url, json={"email": "a@b.example"}, headers=api.auth(tok))
    assert r.status_code == 400 and "no e-mail" in r.json()["error"]["message"]
    r = h.put(url, json={"webhook": "http://93.184.215.14:8080/hook"}, headers=api.auth(tok))
    assert r.status_code == 200
    assert h.put(url, json={"webhook": None}, headers=api.auth(tok)).status_code == 200
    assert h.put(url, json={"email": "a@b.example"}).status_code == 401


def test_web_interface_is_served(api: Api, server: Server) -> None:
    h = api.http
    for path in ("/", "/t/abc", "/offline", "/offline/goat"):  # offline: the page plays it
        r = h.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    r = h.get("/assets/app.js")
    assert r.status_code in (200, 404)
    assert h.get("/assets/none-such.js").json()["error"]["code"] == "not_found"
    assert h.get("/docs").status_code == 200
    assert "/api/tables" in h.get("/openapi.json").json()["paths"]
    assert server.banner.startswith(f"taash serving on http://127.0.0.1:{server.port}")


def test_games_list(api: Api) -> None:
    listed = api.http.get("/api/games").json()
    games = {g["id"]: g for g in listed}
    assert games["goat"]["seats"] == 4 and games["goat"]["options"]["target"] == 12
    assert games["court-piece-2p"]["teams"] == [[0], [1]]
    assert games["court-piece"]["first_seat"] == "dealer"
    # the page's copy (kept offline by the service worker) is the same list
    assert api.http.get("/assets/games.json").json() == listed


def test_every_bound_the_games_describe_is_the_bound_a_table_keeps(api: Api) -> None:
    """The page's form takes its bounds from /api/games: each described maximum is accepted by
    POST /api/tables and one more is refused, naming the option (RULES.md "Option bounds")."""
    tried = 0
    for game in api.http.get("/api/games").json():
        seats = [{"type": "human"}] + [{"type": "bot", "level": "random"}] * (game["seats"] - 1)
        for f in game["fields"]:
            if f["kind"] == "count":
                cases = [({f["name"]: f["max"]}, {f["name"]: f["max"] + 1})]
            elif f["kind"] == "count_of":
                cases = [({f["name"]: {u["name"]: u["max"]}},
                          {f["name"]: {u["name"]: u["max"] + 1}}) for u in f["units"]]
            else:
                continue
            for ok, over in cases:
                r = api.http.post("/api/tables", json={"game": game["id"], "options": ok,
                                                       "seats": seats})
                assert r.status_code == 201, (game["id"], ok, r.text)
                r = api.http.post("/api/tables", json={"game": game["id"], "options": over,
                                                       "seats": seats})
                assert r.status_code == 400 and f["name"] in r.json()["error"]["message"], r.text
                tried += 1
    assert tried == 4  # court-piece's coats and deals, the two-player target, Goat's target


def test_my_tables_after_time_passes(api: Api) -> None:
    t = api.create("court-piece", None, [{"type": "human"}] * 4, first_seat=3)
    mine = api.http.post("/api/my-tables", json={"tokens": list(tokens_of(t).values())}).json()
    assert [m["your_turn"] for m in sorted(mine, key=lambda m: m["seat"])] == \
        [True, False, False, False]
    # `updated` is when the table last changed (as its table info says), not when it was asked
    assert {m["updated"] for m in mine} == {api.public(t["id"])["table"]["updated"]}
    assert isinstance(httpx.URL(api.base), httpx.URL)


@pytest.mark.slow
def test_hard_bot_plays_from_a_worker_process(api: Api) -> None:
    t = api.create("court-piece-2p", SHORT["court-piece-2p"],
                   [{"type": "human"}, {"type": "bot", "level": "hard"}], first_seat=1)
    tok = tokens_of(t)[0]
    rng = random.Random(2)
    for _ in range(100):
        v = api.wait_for(t["id"], tok, lambda v: v["over"] or v["to_move"] == 0, timeout=60)
        if v["over"]:
            break
        assert api.act(t["id"], tok, rng.choice(v["legal_actions"])).status_code == 200
    assert api.public(t["id"])["over"]
    assert api.public(t["id"])["table"]["seats"][1]["level"] == "hard"
