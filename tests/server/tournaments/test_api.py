"""Tournaments through the HTTP API (docs/tournaments.md): partnerships (entered as a pair,
paired by the organiser, or by the start), club tournaments for a club's admins and members,
the refusals with the server's error shape, and an arena whose standings carry the streak
bonus as computed by hand."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from taash.server.tournaments.pairing import arena_points
from tests.server.events.helpers import Player
from tests.server.tournaments.helpers import T0, site, swiss_body

pytestmark = pytest.mark.slow  # a server in process per test


async def error(p: Player, method: str, path: str, body: Any, status: int) -> dict[str, Any]:
    r = await p.http.request(method, path, json=body)
    assert r.status_code == status, (path, r.text)
    err: dict[str, Any] = r.json()["error"]
    assert set(err) >= {"code", "message"}
    return err


async def wait_over(p: Player, tid: str, polls: int = 3000) -> dict[str, Any]:
    for _ in range(polls):
        page: dict[str, Any] = await p.ok("GET", f"/api/tournaments/{tid}")
        if page["state"] == "over":
            return page
        await asyncio.sleep(0.02)
    raise AssertionError("the tournament did not end")


async def test_partners_enter_as_a_pair_or_are_paired(tmp_path: Path) -> None:
    # tables rest after 0.3 s without a player: the tournament's sweep keeps its tables going
    async with site(tmp_path, idle_after_s=0.3) as s:
        org = await s.player("Org")
        a, b, c, d, e, f, g = [await s.player(n) for n in "ABCDEFG"]
        t = await org.ok("POST", "/api/tournaments", swiss_body(
            game="court-piece", options={"session_end": {"deals": 1}}, rounds=1,
            turn_timer_s=0.05), status=201)
        tid = t["id"]
        assert t["partners"]
        await a.ok("POST", f"/api/tournaments/{tid}/register", {"partner": b.id})
        err = await error(c, "POST", f"/api/tournaments/{tid}/register", {"partner": a.id}, 409)
        assert "partner" in err["message"]
        await error(b, "POST", f"/api/tournaments/{tid}/register", None, 409)
        await error(c, "POST", f"/api/tournaments/{tid}/register", {"partner": c.id}, 400)
        await error(c, "POST", f"/api/tournaments/{tid}/register", {"partner": "nobody"}, 404)
        for p in (c, d, e, f, g):
            await p.ok("POST", f"/api/tournaments/{tid}/register")
        await org.ok("POST", f"/api/tournaments/{tid}/bots", {"level": "easy"})
        await error(a, "POST", f"/api/tournaments/{tid}/pairs", {"seeds": [5, 6]}, 403)
        await error(org, "POST", f"/api/tournaments/{tid}/pairs", {"seeds": [1, 2]}, 409)
        await error(org, "POST", f"/api/tournaments/{tid}/pairs", {"seeds": [5, 99]}, 400)
        paired = await org.ok("POST", f"/api/tournaments/{tid}/pairs", {"seeds": [5, 6]})
        assert paired["entrants"] == 6  # A&B, C, D, E, F&G, the bot
        out = await e.ok("POST", f"/api/tournaments/{tid}/unregister")
        assert not out["registered"] and out["entrants"] == 5
        await error(e, "POST", f"/api/tournaments/{tid}/unregister", None, 409)
        page = await org.ok("POST", f"/api/tournaments/{tid}/start")
        entrants = {x["seed"]: x for x in page["entrant_list"]}
        assert entrants[1]["players"] == [a.id, b.id] and entrants[1]["name"] == "A & B"
        assert entrants[2]["players"] == [c.id, d.id]  # lone players paired at the start
        assert entrants[5]["players"] == [f.id, g.id] and entrants[7]["bot"] == "easy"
        assert [(x["a"], x["b"]) for x in page["games"]] == [(1, 2), (5, 7)]
        seats = {}
        for p in (a, b, c, d, f, g):
            mine = (await p.ok("GET", f"/api/tournaments/{tid}"))["my_table"]
            seats[p.id] = (mine["table"], mine["seat"])
        assert seats[a.id][1] == 0 and seats[b.id][1] == 2  # the first entrant: seats 0, 2
        assert seats[c.id][1] == 1 and seats[d.id][1] == 3
        assert seats[a.id][0] == seats[c.id][0] != seats[f.id][0]
        info = (await org.ok("GET", f"/api/tables/{seats[a.id][0]}"))["table"]
        assert [x["name"] for x in info["seats"]] == ["A", "C", "B", "D"]
        page = await wait_over(org, tid)  # nobody plays: the turn timer plays every seat
        assert all(x["result"] is not None for x in page["games"])
        history = await b.ok("GET", f"/api/players/{b.id}/history")
        assert seats[b.id][0] in {m["table"] for m in history["matches"]}


async def test_refusals_say_what_is_wrong(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        p = await s.player()
        for body, word in [(swiss_body(game="chess"), "game"),
                           (swiss_body(rounds=0), "rounds"),
                           (swiss_body(kind="arena", minutes=0), "minutes"),
                           (swiss_body(starts=T0 - 3600), "starts"),
                           (swiss_body(turn_timer_s=0), "turn_timer_s"),
                           (swiss_body(name="  "), "name"),
                           (swiss_body(options={"target": "many"}), "target")]:
            err = await error(p, "POST", "/api/tournaments", body, 400)
            assert word in err["message"], (word, err)
        assert (await p.ok("GET", "/api/tournaments")) == {"tournaments": [], "mine": []}
        stranger = Player(s.transport)  # no session
        r = await stranger.post("/api/tournaments", swiss_body())
        assert r.status_code == 401, r.text
        t = await p.ok("POST", "/api/tournaments", swiss_body(), status=201)
        await error(p, "POST", f"/api/tournaments/{t['id']}/start", None, 409)  # nobody in
        await error(p, "POST", f"/api/tournaments/{t['id']}/bots", {"level": "godlike"}, 400)
        await error(p, "POST", "/api/tournaments/nope/register", None, 404)
        await error(p, "POST", f"/api/tournaments/{t['id']}/register", {"partner": p.id}, 400)
        await stranger.http.aclose()


async def test_a_club_tournament_is_its_admins_to_make_and_its_members_to_enter(
        tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        owner, member, outsider = await s.player(), await s.player(), await s.player()
        club = await owner.ok("POST", "/api/clubs", {"name": "Chess club", "public": True},
                              status=201)
        await member.ok("POST", f"/api/clubs/{club['id']}/join")
        await error(member, "POST", "/api/tournaments", swiss_body(club=club["id"]), 403)
        await error(outsider, "POST", "/api/tournaments", swiss_body(club="nosuch"), 404)
        t = await owner.ok("POST", "/api/tournaments", swiss_body(club=club["id"]), status=201)
        assert t["club"] == club["id"]
        await member.ok("POST", f"/api/tournaments/{t['id']}/register")
        await error(outsider, "POST", f"/api/tournaments/{t['id']}/register", None, 403)
        assert [x["id"] for x in (await member.ok("GET", "/api/tournaments"))["tournaments"]] \
            == [t["id"]]
        assert (await outsider.ok("GET", "/api/tournaments"))["tournaments"] == []
        assert not (await outsider.ok("GET", f"/api/tournaments/{t['id']}"))["registered"]
        # a private club's tournament is no tournament to those who cannot see the club
        private = await owner.ok("POST", "/api/clubs", {"name": "Family"}, status=201)
        secret = await owner.ok("POST", "/api/tournaments", swiss_body(club=private["id"]),
                                status=201)
        for who in (outsider, member):
            hidden = await error(who, "GET", f"/api/tournaments/{secret['id']}", None, 404)
            assert hidden["message"] == f"no tournament {secret['id']!r}"
            gone = await error(who, "POST", f"/api/tournaments/{secret['id']}/register", None,
                               404)
            assert gone == hidden
        assert (await owner.ok("GET", f"/api/tournaments/{secret['id']}"))["club"] \
            == private["id"]


async def test_an_arena_pairs_as_games_end_and_scores_streaks(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        org = await s.player()
        t = await org.ok("POST", "/api/tournaments", swiss_body(
            kind="arena", minutes=5, rounds=0, starts=T0 + 60), status=201)
        tid = t["id"]
        assert t["ends"] == T0 + 360 and t["rounds"] == 0
        for level in ("easy", "random", "easy", "random", "random"):
            await org.ok("POST", f"/api/tournaments/{tid}/bots", {"level": level})
        page = await org.ok("POST", f"/api/tournaments/{tid}/start")
        assert len(page["games"]) == 2  # five waiting: two games, one waits
        assert page["ends"] == T0 + 300  # started early: five minutes from the start
        for _ in range(3000):
            page = await org.ok("GET", f"/api/tournaments/{tid}")
            if sum(g["result"] is not None for g in page["games"]) >= 8:
                break
            await asyncio.sleep(0.02)
        s.now = T0 + 301  # the window closes: the games being played end, nothing new
        await s.services.tournament_play.tick(False)
        page = await wait_over(org, tid)
        await s.services.tournament_play.tick(False)
        page = await org.ok("GET", f"/api/tournaments/{tid}")
        assert page["state"] == "over"
        games = sorted(page["games"], key=lambda g: g["round"])
        assert len(games) >= 8 and all(g["result"] is not None for g in games)
        results: dict[int, list[int]] = {x["seed"]: [] for x in page["entrant_list"]}
        for g in games:
            results[g["a"]].append({"a": 2, "draw": 1, "b": 0}[g["result"]])
            results[g["b"]].append({"a": 0, "draw": 1, "b": 2}[g["result"]])
        points = {seed: sum(arena_points(r)) for seed, r in results.items()}
        got = {x["seed"]: x["score"] for x in page["standings"]}
        assert got == points
        scores = [x["score"] for x in page["standings"]]
        assert scores == sorted(scores, reverse=True)


async def test_a_goat_swiss_of_bots_ends_with_a_bye_each_round(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        org = await s.player()
        t = await org.ok("POST", "/api/tournaments", swiss_body(
            game="goat", options={"target": 1}, rounds=3), status=201)
        tid = t["id"]
        for _ in range(3):
            await org.ok("POST", f"/api/tournaments/{tid}/bots", {"level": "random"})
        await org.ok("POST", f"/api/tournaments/{tid}/start")
        page = await wait_over(org, tid)
        games = page["games"]
        byes = [g["a"] for g in games if g["b"] is None]
        assert sorted(byes) == [1, 2, 3]  # three rounds of three: each has the bye once
        met = [frozenset((g["a"], g["b"])) for g in games if g["b"] is not None]
        assert sorted(map(sorted, met)) == [[1, 2], [1, 3], [2, 3]]  # everyone met once
        assert sum(x["score"] for x in page["standings"]) == 6  # 3 games and 3 byes
