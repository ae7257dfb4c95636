"""The events API: making events, entering, playing a board, and what no route gives away
(a board not reached, the field's play before the board is finished, the secret before the
close)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taash import fair
from tests.server.events.helpers import T0, event_body, site

pytestmark = pytest.mark.slow  # a server in process per test: one to three seconds each


async def test_a_bad_event_is_refused_and_nothing_is_made(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        host = await s.player()
        for body, words in [
            (event_body(game="chess"), "unknown game"),
            (event_body(options={"sar": "triple"}), "unknown option"),
            (event_body(game="court-piece", options={"sar": "triple"}), "option sar"),
            (event_body(boards=0), "boards"),
            (event_body(boards=25), "boards"),
            (event_body(opens=T0 + 10, closes=T0 + 5), "after opens"),
            (event_body(opens=T0 - 100, closes=T0 - 10), "in the future"),
            (event_body(closes=T0 + 40 * 86400), "31 days"),
        ]:
            r = await host.post("/api/events", body)
            assert r.status_code == 400, (body, r.text)
            assert words in r.json()["error"]["message"], r.text
        assert (await host.ok("GET", "/api/events"))["events"] == []
        anon = await s.player()
        anon.http.cookies.clear()
        r = await anon.post("/api/events", event_body())
        assert r.status_code == 401


async def test_the_commitment_is_shown_from_the_start_and_the_secret_only_at_close(
        tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        host, other = await s.player(), await s.player()
        ev = await host.ok("POST", "/api/events", event_body(), status=201)
        assert ev["state"] == "open" and ev["secret"] is None and len(ev["commit"]) == 64
        await other.ok("POST", f"/api/events/{ev['id']}/entry", status=201)
        r = await other.post(f"/api/events/{ev['id']}/entry")
        assert r.status_code == 409 and "one entry" in r.json()["error"]["message"]
        listed = await other.ok("GET", "/api/events")
        assert [e["id"] for e in listed["mine"]] == [ev["id"]]
        assert listed["events"][0]["entrants"] == 1 and listed["events"][0]["entered"]
        for who in (host, other):
            got = await who.ok("GET", f"/api/events/{ev['id']}")
            assert got["commit"] == ev["commit"] and got["secret"] is None
        # only the host closes it early
        r = await other.post(f"/api/events/{ev['id']}/close")
        assert r.status_code == 403
        closed = await host.ok("POST", f"/api/events/{ev['id']}/close")
        assert closed["state"] == "closed" and fair.commit(closed["secret"]) == ev["commit"]
        r = await (await s.player()).post(f"/api/events/{ev['id']}/entry")
        assert r.status_code == 409 and "closed" in r.json()["error"]["message"]
        # an event to come shows its commitment already, and takes no entry yet
        later = await host.ok("POST", "/api/events", event_body(opens=T0 + 60), status=201)
        assert later["state"] == "upcoming" and len(later["commit"]) == 64
        r = await other.post(f"/api/events/{later['id']}/entry")
        assert r.status_code == 409 and "upcoming" in r.json()["error"]["message"]
        assert (await other.ok("GET", f"/api/events/{later['id']}"))["commit"] == later["commit"]


async def test_the_daily_event_is_made_once_on_demand(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        a, b = await s.player(), await s.player()
        first = await a.ok("GET", "/api/events/daily/goat")
        again = await b.ok("GET", "/api/events/daily/goat")
        assert first["id"] == again["id"] == "daily-goat-20270115"
        assert first["commit"] == again["commit"] and first["daily"] and first["boards"] == 4
        assert first["opens"] <= T0 < first["closes"]
        assert (await a.get("/api/events/daily/chess")).status_code == 404
        s.now += 86400
        assert (await a.ok("GET", "/api/events/daily/goat"))["id"] == "daily-goat-20270116"


async def test_no_route_shows_a_board_not_reached_or_the_field_before_it_is_finished(
        tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        host, ann, bob = await s.player(), await s.player(), await s.player()
        ev = await host.ok("POST", "/api/events", event_body(boards=2), status=201)
        eid = ev["id"]
        # not entered: nothing of the boards
        for path in (f"/api/events/{eid}/board", f"/api/events/{eid}/boards/1"):
            assert (await ann.get(path)).status_code == 403
        await ann.ok("POST", f"/api/events/{eid}/entry", status=201)
        await bob.ok("POST", f"/api/events/{eid}/entry", status=201)
        cur = await ann.ok("GET", f"/api/events/{eid}/board")
        assert cur["board"] == 1 and not cur["done"] and cur["view"]["seat"] == 0
        assert len(cur["view"]["hand"]) > 0 and "deck" not in str(cur)
        # board 2: not reached, by every route
        assert (await ann.get(f"/api/events/{eid}/boards/2")).status_code == 403
        r = await ann.act(eid, 2, "play:AS")
        assert r.status_code == 403 and "not yours to see yet" in r.json()["error"]["message"]
        for path in (f"/api/events/{eid}/boards/1/results", f"/api/events/{eid}/boards/1/record",
                     f"/api/events/{eid}/boards/1/review",
                     f"/api/events/{eid}/boards/2/results", f"/api/events/{eid}/boards/2/record",
                     f"/api/events/{eid}/boards/2/review", f"/api/events/{eid}/standings"):
            r = await ann.get(path)
            assert r.status_code == 403, (path, r.text)
        done = await bob.play_board(eid, 1, lambda legal: legal[0])
        assert done["done"] and done["next"] == 2 and done["result"]["tricks"] >= 0
        # bob finished board 1: he sees its field; Ann, who has not, sees neither his play
        # nor his record
        bobs = await bob.ok("GET", f"/api/events/{eid}/boards/1/results")
        assert bobs["field"] == 1 and bobs["entries"][0]["player"] == bob.id
        r = await ann.get(f"/api/events/{eid}/boards/1/record", params={"player": bob.id})
        assert r.status_code == 403
        assert (await ann.get(f"/api/events/{eid}/boards/1/results")).status_code == 403
        assert (await ann.get(f"/api/events/{eid}/boards/1/review")).status_code == 403
        # the feed gives counts only
        assert "secret" not in str(await ann.ok("GET", "/api/events/today"))
        # bob's record has no secret before the close
        rec = await bob.ok("GET", f"/api/events/{eid}/boards/1/record")
        assert "secret" not in rec["deals"][0]["fair"]
        assert rec["deals"][0]["fair"]["table"] == f"{eid}-1"
        assert ev["secret"] is None and "secret" not in str(bobs)
        # bob has not finished the event: no standings, not even provisional
        assert (await bob.get(f"/api/events/{eid}/standings")).status_code == 403


async def test_a_move_is_taken_once_and_a_refusal_names_the_rule(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        host, ann = await s.player(), await s.player()
        ev = await host.ok("POST", "/api/events", event_body(game="court-piece"), status=201)
        eid = ev["id"]
        await ann.ok("POST", f"/api/events/{eid}/entry", status=201)
        view = await ann.ok("GET", f"/api/events/{eid}/board")
        legal, v = view["view"]["legal_actions"], view["version"]
        # an action not legal now: the core's refusal with its rule id; nothing changes
        bad = "play:AS" if "play:AS" not in legal else "trump:Z"
        r = await ann.act(eid, 1, bad, version=v)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["rule"] and r.json()["error"]["code"] == "illegal"
        assert (await ann.ok("GET", f"/api/events/{eid}/board")) == view
        # two tabs send a move on the same version: one is taken, the other told to look again
        first = await ann.act(eid, 1, legal[0], version=v, cid="tab1-a")
        assert first.status_code == 200 and first.json()["version"] == v + 1
        second = await ann.act(eid, 1, legal[-1], version=v, cid="tab2-a")
        assert second.status_code == 409 and second.json()["error"]["code"] == "stale"
        # the first tab's retry of its move: the same answer, not applied again
        retry = await ann.act(eid, 1, legal[0], version=v, cid="tab1-a")
        assert retry.status_code == 200 and retry.json() == first.json()
        assert (await ann.ok("GET", f"/api/events/{eid}/board")) == first.json()
        # a closed event's boards cannot be played on
        s.now = ev["closes"]
        r = await ann.act(eid, 1, first.json()["view"]["legal_actions"][0],
                          version=v + 1)
        assert r.status_code == 409 and "closed" in r.json()["error"]["message"]


async def test_a_personal_token_acts_for_its_player_within_its_scope(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        host, ann = await s.player(), await s.player()
        ev = await host.ok("POST", "/api/events", event_body(), status=201)
        eid = ev["id"]
        tokens = {}
        for scope in ("read", "play"):
            made = await ann.ok("POST", "/api/me/tokens", {"name": scope, "scopes": [scope]},
                                status=201)
            tokens[scope] = {"Authorization": f"Bearer {made['token']}"}
        bare = await s.player()
        bare.http.cookies.clear()
        bare.http.headers.pop("Origin")

        async def send(method: str, path: str, scope: str, body: object = None) -> int:
            r = await bare.http.request(method, path, json=body, headers=tokens[scope])
            return r.status_code

        assert await send("POST", f"/api/events/{eid}/entry", "read") == 403
        assert await send("POST", f"/api/events/{eid}/entry", "play") == 201
        assert await send("GET", f"/api/events/{eid}/board", "read") == 200
        view = await ann.ok("GET", f"/api/events/{eid}/board")  # the same entry, by cookie
        move = {"action": view["view"]["legal_actions"][0], "version": view["version"]}
        assert await send("POST", f"/api/events/{eid}/boards/1/actions", "read", move) == 403
        assert await send("POST", f"/api/events/{eid}/boards/1/actions", "play", move) == 200
        assert (await ann.ok("GET", f"/api/events/{eid}/board"))["version"] == 1
        r = await bare.http.get(f"/api/events/{eid}/board",
                                headers={"Authorization": "Bearer not-a-personal-token"})
        assert r.status_code == 401 and "personal API token" in r.json()["error"]["message"]
        r = await bare.http.get(f"/api/events/{eid}/board")
        assert r.status_code == 401
