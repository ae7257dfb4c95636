"""Issue 43, "the first hour": the home page's rows of a player's tables say who sits there
and whose turn it is (``to_move``, ``seats``), and a player holds one seat of a table unless
its host made it for pass and play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.accounts.test_players import Browser
from tests.server.helpers import Server, tokens_of


@pytest.fixture
def browsers(server: Server) -> Iterator[Any]:
    made: list[Browser] = []

    def make() -> Browser:
        b = Browser(server)
        b.first_visit()
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


ROW = {"id", "game", "seat", "your_turn", "over", "version", "live", "updated", "to_move",
       "seats"}


def test_my_tables_say_who_sits_there_and_whose_turn(browsers: Any) -> None:
    a, b = browsers(), browsers()
    a.send("PATCH", "/api/me", {"name": "Ayesha"})
    b.send("PATCH", "/api/me", {"name": "Dima"})
    t = a.create("court-piece", options=None, open=True,
                 seats=[{"type": "human"}, {"type": "human", "name": "Ravi"},
                        {"type": "human"}, {"type": "human"}])
    tid = t["id"]
    joined = b.send("POST", f"/api/tables/{tid}/join", {"seat": 2})
    assert joined.status_code == 200, joined.text
    to_move = a.http.get(f"/api/tables/{tid}").json()["table"]["to_move"]
    seats = [{"seat": 0, "type": "human", "name": "Ayesha", "level": None},
             {"seat": 1, "type": "human", "name": "Ravi", "level": None},
             {"seat": 2, "type": "human", "name": "Dima", "level": None},
             {"seat": 3, "type": "human", "name": None, "level": None}]
    mine = a.http.get("/api/me/tables").json()
    assert len(mine) == 1 and set(mine[0]) == ROW, mine
    assert (mine[0]["to_move"], mine[0]["your_turn"]) == (to_move, to_move == 0)
    assert mine[0]["seats"] == seats
    theirs = b.http.get("/api/me/tables").json()
    assert [(r["seat"], r["to_move"], r["your_turn"]) for r in theirs] == [
        (2, to_move, to_move == 2)]
    assert theirs[0]["seats"] == seats
    # by token: the same row, for each token's seat; nothing private (no token, no e-mail)
    by_token = a.send("POST", "/api/my-tables",
                      {"tokens": [tokens_of(t)[0], tokens_of(t)[1]]}).json()
    assert {r["seat"]: (r["to_move"], r["seats"]) for r in by_token} == {
        0: (to_move, seats), 1: (to_move, seats)}
    assert all(set(r) == ROW for r in by_token)
    assert "token" not in str(by_token) and "hash" not in str(by_token)


def test_a_table_against_a_bot_lists_the_bot(browsers: Any) -> None:
    a = browsers()
    t = a.create(seats=[{"type": "human"}, {"type": "bot", "level": "easy"}])
    mine = a.http.get("/api/me/tables").json()
    assert mine[0]["id"] == t["id"] and mine[0]["to_move"] == 0
    assert [s["type"] for s in mine[0]["seats"]] == ["human", "bot"]


# -- one seat per player per table, unless the table is for pass and play ---------------------
def refused_a_second_seat(r: Any) -> None:
    assert r.status_code == 409, r.text
    err = r.json()["error"]
    assert err["code"] == "seated_already", err
    assert "one seat" in err["message"] and "pass and play" in err["message"], err


def test_a_player_cannot_join_a_second_seat_of_a_table(browsers: Any) -> None:
    a, b = browsers(), browsers()
    t = a.create(seats=[{"type": "human"}, {"type": "human"}], open=True)
    tid = t["id"]
    refused_a_second_seat(a.send("POST", f"/api/tables/{tid}/join", {}))
    refused_a_second_seat(a.send("POST", f"/api/tables/{tid}/join", {"seat": 1}))
    # the seat stays free for someone else
    assert [e["free_seats"] for e in a.http.get("/api/lobby").json() if e["id"] == tid] == [[1]]
    assert b.send("POST", f"/api/tables/{tid}/join", {}).json()["seat"] == 1
    assert [r["seat"] for r in a.http.get("/api/me/tables").json()] == [0]
    assert a.http.get(f"/api/tables/{tid}").json()["table"]["pass_and_play"] is False


def test_a_player_cannot_claim_a_second_seats_invite(browsers: Any) -> None:
    a, b = browsers(), browsers()
    t = a.create("court-piece", options=None, seats=[{"type": "human"}] * 4)
    tid, tokens = t["id"], tokens_of(t)
    refused_a_second_seat(a.send("POST", f"/api/tables/{tid}/claim",
                                 headers={"Authorization": f"Bearer {tokens[1]}"}))
    # the invite still works, for another player
    r = b.send("POST", f"/api/tables/{tid}/claim",
               headers={"Authorization": f"Bearer {tokens[1]}"})
    assert r.status_code == 200 and r.json()["seat"] == 1, r.text
    # and its own seat's player claims it again as before: theirs, no new token
    again = b.send("POST", f"/api/tables/{tid}/claim",
                   headers={"Authorization": f"Bearer {tokens[1]}"})
    assert again.status_code == 200 and again.json()["token"] is None, again.text


def test_a_pass_and_play_table_gives_one_player_every_seat(browsers: Any) -> None:
    a = browsers()
    t = a.create("court-piece", options=None, seats=[{"type": "human"}] * 4,
                 pass_and_play=True)
    tid, tokens = t["id"], tokens_of(t)
    for seat in (1, 2, 3):
        r = a.send("POST", f"/api/tables/{tid}/claim",
                   headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200 and r.json()["seat"] == seat, r.text
    assert sorted(r["seat"] for r in a.http.get("/api/me/tables").json()) == [0, 1, 2, 3]
    assert a.http.get(f"/api/tables/{tid}").json()["table"]["pass_and_play"] is True
    # an open one: its host joins the free seats
    t = a.create(seats=[{"type": "human"}, {"type": "human"}], open=True, pass_and_play=True)
    assert a.send("POST", f"/api/tables/{t['id']}/join", {}).json()["seat"] == 1
