"""Puzzles through the HTTP API (issue 49, docs/puzzles.md "On the server"): a signed-in
player's solve raises their puzzle rating and lowers the puzzle's, a miss the reverse; a puzzle
counts once; a guest plays unrated; the position shows every hand open but never the solution,
the deck or a card passed face down before the attempt; the daily puzzle is one per date; the
next puzzle is one not tried while any is left; a streak runs to the first miss; bad input is a
clear 4xx."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taash.games import GAMES
from taash.server.puzzles.position import key_of
from taash.server.puzzles.source import PuzzleSet, PuzzleSource
from tests.server.events.helpers import BASE, T0, Player, Site, site

pytestmark = pytest.mark.slow  # a server in process per test

GAME = "court-piece"
CARD = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][SHDC])(?![0-9A-Za-z])")
SECRET_KEYS = ("solution", "continuation", "obvious", "record", "deck", "themes", "value")


@pytest.fixture
async def s(tmp_path: Path) -> AsyncIterator[Site]:
    async with site(tmp_path) as it:
        it.services.puzzles.clock = lambda: it.now
        yield it


async def signed_in(s: Site) -> Player:
    """A player with a confirmed e-mail address: rated."""
    p = await s.player()
    assert await s.services.store.set_email(p.id, f"{p.id.lower()}@example.org")
    return p


async def data(s: Site, puzzle_id: str) -> dict[str, Any]:
    entry = await s.services.puzzles.source.get(puzzle_id)
    assert entry is not None
    return dict(entry.data)


async def wrong_move(s: Site, puzzle: dict[str, Any]) -> str:
    """A legal move outside the solution's group (the obvious one is such a move)."""
    d = await data(s, puzzle["id"])
    solution = {key_of(a) for a in d["solution"]}
    wrong = [a for a in puzzle["view"]["legal_actions"] if key_of(a) not in solution]
    assert d["obvious"] in wrong
    return str(d["obvious"])


async def test_solving_raises_the_player_and_lowers_the_puzzle(s: Site) -> None:
    p = await signed_in(s)
    puzzle = await p.ok("GET", f"/api/puzzles/next?game={GAME}")
    assert puzzle["rated"] is True and puzzle["attempted"] is None
    assert puzzle["rating"]["rating"] == 1500.0
    solution = (await data(s, puzzle["id"]))["solution"]
    a = await p.ok("POST", f"/api/puzzles/{puzzle['id']}/attempts", {"action": solution[-1]})
    assert a["solved"] is True and a["counted"] is True and a["rated"] is True
    assert a["solution"] == solution and a["continuation"]
    assert a["player"]["before"] == 1500.0 and a["player"]["after"] > 1500.0
    assert a["puzzle"]["before"] == 1500.0 and a["puzzle"]["after"] < 1500.0
    mine = await p.ok("GET", "/api/me/puzzles")
    assert mine["rated"] is True
    [row] = mine["games"]
    assert row["game"] == GAME and row["attempts"] == 1 and row["solved"] == 1
    assert row["rating"]["rating"] == round(a["player"]["after"], 2)
    assert row["rating"]["rd"] < 350
    assert mine["recent"][0]["id"] == puzzle["id"] and mine["recent"][0]["solved"] is True
    again = await p.ok("GET", f"/api/puzzles/{puzzle['id']}")
    assert again["rating"]["rating"] == round(a["puzzle"]["after"], 2)
    assert again["attempted"]["solved"] is True and again["rated"] is False
    # on their profile, for anyone
    other = await s.player()
    shown = await other.ok("GET", f"/api/players/{p.id}/puzzles")
    assert shown["games"][0]["rating"]["rating"] == row["rating"]["rating"]
    assert shown["recent"][0]["rating_after"] == a["player"]["after"]


async def test_failing_lowers_the_player_and_raises_the_puzzle(s: Site) -> None:
    p = await signed_in(s)
    puzzle = await p.ok("GET", "/api/puzzles/next?game=goat")
    a = await p.ok("POST", f"/api/puzzles/{puzzle['id']}/attempts",
                   {"action": await wrong_move(s, puzzle)})
    assert a["solved"] is False and a["counted"] is True
    assert a["player"]["after"] < a["player"]["before"] == 1500.0
    assert a["puzzle"]["after"] > a["puzzle"]["before"] == 1500.0
    assert a["solution"] == (await data(s, puzzle["id"]))["solution"]
    mine = await p.ok("GET", "/api/me/puzzles")
    assert mine["games"][0]["solved"] == 0 and mine["recent"][0]["solved"] is False


async def test_a_puzzle_counts_once(s: Site) -> None:
    p = await signed_in(s)
    puzzle = await p.ok("GET", f"/api/puzzles/next?game={GAME}")
    first = await p.ok("POST", f"/api/puzzles/{puzzle['id']}/attempts",
                       {"action": await wrong_move(s, puzzle)})
    solution = (await data(s, puzzle["id"]))["solution"][0]
    second = await p.ok("POST", f"/api/puzzles/{puzzle['id']}/attempts", {"action": solution})
    assert second["solved"] is True and second["counted"] is False and second["rated"] is False
    assert second["player"] is None and second["puzzle"] is None
    mine = await p.ok("GET", "/api/me/puzzles")
    assert mine["games"][0]["attempts"] == 1 and mine["games"][0]["solved"] == 0
    assert mine["games"][0]["rating"]["rating"] == round(first["player"]["after"], 2)
    shown = await p.ok("GET", f"/api/puzzles/{puzzle['id']}")
    assert shown["rating"]["rating"] == round(first["puzzle"]["after"], 2)
    assert len(mine["recent"]) == 1


async def test_a_guest_plays_unrated(s: Site) -> None:
    guest = await s.player()
    puzzle = await guest.ok("GET", f"/api/puzzles/next?game={GAME}")
    assert puzzle["rated"] is False
    solution = (await data(s, puzzle["id"]))["solution"][0]
    a = await guest.ok("POST", f"/api/puzzles/{puzzle['id']}/attempts", {"action": solution})
    assert a["solved"] is True and a["counted"] is True and a["rated"] is False
    assert a["player"] is None and a["puzzle"] is None and a["solution"]
    mine = await guest.ok("GET", "/api/me/puzzles")
    assert mine["rated"] is False
    assert mine["games"][0]["rating"] is None and mine["games"][0]["solved"] == 1
    assert (await guest.ok("GET", f"/api/puzzles/{puzzle['id']}"))["rating"]["rating"] == 1500.0


def hidden_cards(d: dict[str, Any], shown: dict[str, Any]) -> set[str]:
    """The cards the mover may not see and the puzzle does not show: the deck's cards in no
    hand now and never played face up (Court Piece for two's cards out of play; the cards the
    others passed face down in Goat: the mover knows only their own)."""
    deal = d["record"]["deals"][0]
    face_up = {c for a in deal["actions"]
               if not a["action"].startswith("pass:") or a["seat"] == d["seat"]
               for c in a["action"].split(":")[1].split(",")}
    in_hands = {c for hand in shown["hands"] for c in hand}
    return set(deal["deck"]) - in_hands - face_up - {deal.get("trump_card")}


@pytest.mark.parametrize("game", list(GAMES))
async def test_the_position_shows_open_hands_and_nothing_more(s: Site, game: str) -> None:
    p = await s.player()
    entries = await s.services.puzzles.source.entries(game)
    # in Goat a puzzle after cards were passed face down; in the others the first
    chosen = next((e for e in entries if any(a["action"].startswith("pass:") for a in
                                             e.data["record"]["deals"][0]["actions"])),
                  entries[0])
    unseen = GAMES[game].plays_card_sets or GAMES[game].num_seats == 2
    for path in (f"/api/puzzles/{chosen.id}", f"/api/puzzles/next?game={game}",
                 f"/api/puzzles/daily?game={game}"):
        shown = await p.ok("GET", path)
        text = json.dumps(shown)
        for key in SECRET_KEYS:
            assert f'"{key}"' not in text, (path, key)
        d = await data(s, shown["id"])
        assert shown["seat"] == d["seat"] and shown["open_hands"] is True
        # every hand is shown, the mover's as in their view
        assert shown["hands"][shown["seat"]] == shown["view"]["hand"]
        assert len(shown["hands"]) == GAMES[game].num_seats
        hidden = hidden_cards(d, shown)
        assert not hidden & set(CARD.findall(text)), (path, hidden & set(CARD.findall(text)))
        if chosen.id in path:  # cards passed face down, or out of play (Court Piece for two)
            assert bool(hidden) == unseen
    # the answer gives them, once the attempt is made
    a = await p.ok("POST", f"/api/puzzles/{chosen.id}/attempts",
                   {"action": chosen.data["solution"][0]})
    assert a["solution"] == chosen.data["solution"] and "continuation" in a


async def test_the_daily_puzzle_is_the_same_for_everyone_on_a_date(s: Site) -> None:
    a, b = await s.player(), await s.player()
    today = await a.ok("GET", f"/api/puzzles/daily?game={GAME}")
    assert today["date"] == "2027-01-15"  # T0, UTC
    assert (await b.ok("GET", f"/api/puzzles/daily?game={GAME}&date=2027-01-15"))["id"] \
        == today["id"]
    days = {(await a.ok("GET", f"/api/puzzles/daily?game={GAME}&date=2027-01-{d:02}"))["id"]
            for d in range(1, 15)}
    assert len(days) > 10  # another date, another puzzle (nearly always)
    s.now = T0 + 86400
    tomorrow = await b.ok("GET", f"/api/puzzles/daily?game={GAME}")
    assert tomorrow["date"] == "2027-01-16"
    assert (await a.ok("GET", f"/api/puzzles/daily?game={GAME}&date=2027-01-15"))["id"] \
        == today["id"]
    # the same date's puzzle from a new source (a restart) is the same
    fresh = await PuzzleSource.of(s.services.store).daily(GAME, "2027-01-15")
    assert fresh is not None and fresh.id == today["id"]


async def test_next_is_one_not_tried_while_any_is_left(s: Site) -> None:
    three = [dict(e.data) for e in (await s.services.puzzles.source.entries(GAME))[:3]]
    s.services.puzzles.source = PuzzleSource([PuzzleSet(lambda: three)])
    p = await signed_in(s)
    seen = []
    for _ in range(3):
        puzzle = await p.ok("GET", f"/api/puzzles/next?game={GAME}")
        seen.append(puzzle["id"])
        await p.ok("POST", f"/api/puzzles/{puzzle['id']}/attempts",
                   {"action": await wrong_move(s, puzzle)})
    assert sorted(seen) == sorted(x["id"] for x in three)
    # all tried: one of them again, counted no more
    again = await p.ok("GET", f"/api/puzzles/next?game={GAME}")
    assert again["id"] in seen and again["attempted"] is not None and again["rated"] is False


async def test_a_streak_runs_to_the_first_miss_and_keeps_the_best(s: Site) -> None:
    p = await signed_in(s)
    assert await p.ok("GET", "/api/puzzles/streak") is None
    st = await p.ok("POST", "/api/puzzles/streak", {"game": "court-piece-2p"})
    assert st["run"] == 0 and st["over"] is False and st["best"] == 0
    first = st["puzzle"]
    a = await p.ok("POST", f"/api/puzzles/{first['id']}/attempts",
                   {"action": (await data(s, first["id"]))["solution"][0]})
    assert a["streak"]["run"] == 1 and a["streak"]["over"] is False
    second = a["streak"]["puzzle"]
    assert second["id"] != first["id"] and "solution" not in second
    assert (await p.ok("GET", "/api/puzzles/streak"))["puzzle"]["id"] == second["id"]
    # an attempt at another puzzle meanwhile is no step of the streak
    other = await p.ok("GET", "/api/puzzles/next?game=goat")
    b = await p.ok("POST", f"/api/puzzles/{other['id']}/attempts",
                   {"action": await wrong_move(s, other)})
    assert b["streak"] is None
    c = await p.ok("POST", f"/api/puzzles/{second['id']}/attempts",
                   {"action": await wrong_move(s, second)})
    assert c["streak"] == {"game": "court-piece-2p", "run": 1, "best": 1, "over": True,
                           "puzzle": None}
    assert await p.ok("GET", "/api/puzzles/streak") is None
    mine = await p.ok("GET", "/api/me/puzzles")
    assert {g["game"]: g["best_streak"] for g in mine["games"]}["court-piece-2p"] == 1


async def test_bad_input_is_a_clear_refusal(s: Site) -> None:
    p = await s.player()
    puzzle = await p.ok("GET", f"/api/puzzles/next?game={GAME}")
    pid = puzzle["id"]
    someone_elses = next(c for seat, hand in enumerate(puzzle["hands"])
                         if seat != puzzle["seat"] for c in hand)
    cases: list[tuple[str, str, Any, int, str]] = [
        ("GET", "/api/puzzles/next?game=chess", None, 400, "unknown game"),
        ("GET", "/api/puzzles/next", None, 400, "game"),
        ("GET", "/api/puzzles/nope", None, 404, "no puzzle"),
        ("GET", f"/api/puzzles/daily?game={GAME}&date=15.01.2027", None, 400, "YYYY-MM-DD"),
        ("GET", f"/api/puzzles/daily?game={GAME}&date=2027-01-16", None, 400, "not out yet"),
        ("POST", "/api/puzzles/nope/attempts", {"action": "play:AS"}, 404, "no puzzle"),
        ("POST", f"/api/puzzles/{pid}/attempts", {"action": f"play:{someone_elses}"}, 409,
         "CP-"),
        ("POST", f"/api/puzzles/{pid}/attempts", {"action": "play:ZZ"}, 400, ""),
        ("POST", f"/api/puzzles/{pid}/attempts", {"action": "x" * 65}, 400, "action"),
        ("POST", f"/api/puzzles/{pid}/attempts", {"action": "play:AS", "seat": 1}, 400, ""),
        ("POST", f"/api/puzzles/{pid}/attempts", {}, 400, "action"),
        ("POST", "/api/puzzles/streak", {"game": "chess"}, 400, "unknown game"),
        ("GET", "/api/players/nobody/puzzles", None, 404, "no player"),
    ]
    for method, path, body, status, words in cases:
        r = await (p.get(path) if method == "GET" else p.post(path, body))
        assert r.status_code == status, (path, body, r.text)
        err = r.json()["error"]
        assert words in err["message"] or words in str(err.get("rule")), (path, err)
        assert "Traceback" not in r.text
    # nothing counted by those refusals
    assert (await p.ok("GET", "/api/me/puzzles"))["games"] == []
    # no session: 401; a change from another site: 403
    bare = httpx.AsyncClient(transport=s.transport, base_url=BASE)
    try:
        assert (await bare.get(f"/api/puzzles/next?game={GAME}")).status_code == 401
        r = await bare.post(f"/api/puzzles/{pid}/attempts", json={"action": "play:AS"})
        assert r.status_code == 401
    finally:
        await bare.aclose()
    r = await p.http.post(f"/api/puzzles/{pid}/attempts", json={"action": "play:AS"},
                          headers={"Origin": "https://elsewhere.example"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"


@pytest.mark.postgres
async def test_the_ratings_move_the_same_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    """The attempt's transaction (its rows read FOR UPDATE there) on PostgreSQL."""
    async with site(tmp_path, pg_url) as it:
        it.services.puzzles.clock = lambda: it.now
        await test_solving_raises_the_player_and_lowers_the_puzzle(it)
        await test_a_puzzle_counts_once(it)
