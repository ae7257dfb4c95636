"""A player's own data kept by the newer features (store/my_data.py): puzzles, clubs,
tournament and event entries and fair-play notices are in the export; after ``DELETE /api/me``
none of the player's puzzle rows, memberships, pending entries or notices remain, a club they
owned passes to a member (or closes), finished results stay under "deleted player", the
anti-abuse record stays, and another player's data is untouched.  SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from taash.server.store.club_schema import club_members, clubs
from taash.server.store.fairplay_schema import fairplay_cases, fairplay_notices
from taash.server.store.puzzle_schema import puzzle_attempts, puzzle_players
from taash.server.store.schema import event_boards, event_entries, players
from taash.server.store.tournament_schema import tournament_entrants
from tests.server.events.helpers import Player, event_body
from tests.server.tournaments.helpers import Site, site, swiss_body

pytestmark = pytest.mark.slow  # a server in process per test


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str | None:
    return str(request.getfixturevalue("pg_url")) if request.param == "postgres" else None


@pytest.fixture
async def s(db_url: str | None, tmp_path: Path) -> AsyncIterator[Site]:
    async with site(tmp_path, db_url) as it:
        it.services.events.clock = lambda: it.now
        yield it


async def ok(p: Player, method: str, path: str, body: Any = None, status: int = 200) -> Any:
    r = await p.http.request(method, path, json=body)
    assert r.status_code == status, (method, path, r.text)
    return r.json() if r.content else None


async def attempt(p: Player) -> str:
    """One puzzle tried (its first legal move): the puzzle's id."""
    r = await p.http.get("/api/puzzles/next", params={"game": "court-piece-2p"})
    assert r.status_code == 200, r.text
    pz = r.json()
    await ok(p, "POST", f"/api/puzzles/{pz['id']}/attempts",
             {"action": pz["view"]["legal_actions"][0]})
    return str(pz["id"])


async def count(s: Site, table: Any, **where: str) -> int:
    q = select(func.count()).select_from(table)
    for k, v in where.items():
        q = q.where(table.c[k] == v)
    async with s.services.store.engine.connect() as conn:
        return int((await conn.execute(q)).scalar_one())


def unique(word: str) -> str:
    return f"{word} {uuid.uuid4().hex[:8]}"


async def test_the_export_shows_the_newer_data_and_the_deletion_removes_it(s: Site) -> None:
    me = await s.player(unique("Leaving"))
    friend = await s.player(unique("Staying"))
    await ok(me, "PATCH", "/api/me", {"puzzle_consent": True})
    solved = await attempt(me)
    await attempt(friend)
    # clubs: one the player owns with a member, one they own alone, one they are a member of
    shared = await ok(me, "POST", "/api/clubs", {"name": unique("Shared"), "public": True}, 201)
    await ok(friend, "POST", f"/api/clubs/{shared['id']}/join")
    alone = await ok(me, "POST", "/api/clubs", {"name": unique("Alone"), "public": True}, 201)
    theirs = await ok(friend, "POST", "/api/clubs", {"name": unique("Theirs"), "public": True},
                      201)
    await ok(me, "POST", f"/api/clubs/{theirs['id']}/join")
    # tournaments: one not yet started, one running
    later = await ok(friend, "POST", "/api/tournaments", swiss_body(), 201)
    await ok(me, "POST", f"/api/tournaments/{later['id']}/register")
    going = await ok(friend, "POST", "/api/tournaments", swiss_body(name="Now"), 201)
    for p in (me, friend):
        await ok(p, "POST", f"/api/tournaments/{going['id']}/register")
    await ok(friend, "POST", f"/api/tournaments/{going['id']}/start")
    # events: one open, one closed (its scores are history)
    still = await ok(friend, "POST", "/api/events", event_body(), 201)
    over = await ok(friend, "POST", "/api/events", event_body(), 201)
    for e in (still, over):
        await ok(me, "POST", f"/api/events/{e['id']}/entry", None, 201)
    await ok(friend, "POST", f"/api/events/{over['id']}/close")
    # fair play: a warning the player was told of, and the case behind it
    async with s.services.store.engine.begin() as conn:
        await conn.execute(fairplay_cases.insert().values(
            id="case1", player_id=me.id, opened=s.now, updated=s.now, status="warned",
            p_value=0.001, deals=40, evidence='{"secret": "evidence"}', decided=s.now,
            decided_by=friend.id, note="moderator's note"))
        await conn.execute(fairplay_notices.insert().values(
            id="note1", player_id=me.id, kind="warned", created=s.now, seen=None))

    data = await ok(me, "GET", "/api/me/export")
    pz = data["puzzles"]
    assert pz["consent"] is True and [a["puzzle"] for a in pz["attempts"]] == [solved]
    assert [r["game"] for r in pz["ratings"]] == ["court-piece-2p"]
    assert pz["attempts"][0]["at"].endswith("Z")
    assert {(c["id"], c["role"]) for c in data["clubs"]} == {
        (shared["id"], "owner"), (alone["id"], "owner"), (theirs["id"], "member")}
    assert {(t["id"], t["state"]) for t in data["tournaments"]} == {
        (later["id"], "scheduled"), (going["id"], "running")}
    events = {e["id"]: e for e in data["events"]}
    assert set(events) == {still["id"], over["id"]} and events[over["id"]]["closed"]
    assert [b["board"] for b in events[still["id"]]["boards"]] == [1]
    assert data["fairplay_notices"] == [{"id": "note1", "kind": "warned",
                                         "created": data["fairplay_notices"][0]["created"],
                                         "seen": None}]
    text = json.dumps(data)  # no evidence, no note, no moderator
    assert "evidence" not in text and "moderator's note" not in text and "case1" not in text

    r = await me.http.request("DELETE", "/api/me", json={"confirm": "delete"})
    assert r.status_code == 200, r.text

    # nothing of the player's puzzles, memberships, pending entries or notices is left
    for table in (puzzle_players, puzzle_attempts, club_members, fairplay_notices):
        assert await count(s, table, player_id=me.id) == 0, table.name
    async with s.services.store.engine.connect() as conn:
        consent = (await conn.execute(select(players.c.puzzle_consent).where(
            players.c.id == me.id))).scalar_one()
        owners = dict((await conn.execute(select(clubs.c.id, clubs.c.owner))).all())
        closed = dict((await conn.execute(select(clubs.c.id, clubs.c.closed))).all())
        entries = (await conn.execute(select(tournament_entrants.c.tournament_id,
                                             tournament_entrants.c.name).where(
            tournament_entrants.c.player_id == me.id))).all()
        kept = (await conn.execute(select(event_entries.c.event_id).where(
            event_entries.c.player_id == me.id))).scalars().all()
        boards = (await conn.execute(select(event_boards.c.event_id).where(
            event_boards.c.player_id == me.id))).scalars().all()
    assert consent is False
    # the club passes to its member; the one with nobody left closes
    assert owners[shared["id"]] == friend.id and closed[shared["id"]] is None
    assert closed[alone["id"]] is not None
    # the running tournament keeps the entry, anonymised; the one not started lost it
    assert entries == [(going["id"], "deleted player")]
    page = await ok(friend, "GET", f"/api/tournaments/{going['id']}")
    assert "Leaving" not in json.dumps(page)
    # the closed event keeps its entry and scores (as "deleted player"); the open one not
    assert kept == [over["id"]] and set(boards) == {over["id"]}
    standings = await ok(friend, "GET", f"/api/events/{over['id']}/standings")
    assert "Leaving" not in json.dumps(standings)
    # the anti-abuse record stays
    assert await count(s, fairplay_cases, player_id=me.id) == 1
    # the other player's data is untouched
    assert await count(s, puzzle_attempts, player_id=friend.id) == 1
    assert await count(s, puzzle_players, player_id=friend.id) == 1
    assert await count(s, club_members, player_id=friend.id) == 2
    mine = await ok(friend, "GET", "/api/me/clubs")
    assert {c["role"] for c in mine["clubs"] if c["id"] == shared["id"]} == {"owner"}
    assert await count(s, tournament_entrants, player_id=friend.id) == 1


async def test_a_running_tournament_plays_on_with_a_bot_for_a_deleted_entrant(s: Site) -> None:
    me = await s.player(unique("Leaving"))
    organiser = await s.player(unique("Organiser"))
    t = await ok(organiser, "POST", "/api/tournaments", swiss_body(rounds=2), 201)
    await ok(me, "POST", f"/api/tournaments/{t['id']}/register")
    await ok(organiser, "POST", f"/api/tournaments/{t['id']}/bots", {"level": "random"})
    await ok(organiser, "POST", f"/api/tournaments/{t['id']}/start")
    r = await me.http.request("DELETE", "/api/me", json={"confirm": "delete"})
    assert r.status_code == 200, r.text
    page: dict[str, Any] = {}
    for _ in range(20_000):  # every seat is a bot's now: the rounds play themselves
        page = await ok(organiser, "GET", f"/api/tournaments/{t['id']}")
        if page["state"] == "over":
            break
        await asyncio.sleep(0.01)
    assert page["state"] == "over" and [g["round"] for g in page["games"]] == [1, 2]
    for g in page["games"]:
        seats = (await ok(organiser, "GET", f"/api/tables/{g['table']}"))["table"]["seats"]
        assert all(x["type"] == "bot" for x in seats), seats
        assert "deleted player" in {x["name"] for x in seats}
    assert "Leaving" not in json.dumps(page)


async def test_a_deletion_cut_short_after_its_first_commit_is_finished_by_the_sweep(
        s: Site) -> None:
    """The process stopped right after ``delete_player`` committed (the account gone, its
    puzzle rows, memberships and ratings not yet): the hourly sweep finishes the deletion, and
    a finished one is not done again."""
    from taash.server.accounts.deletion import DELETED_NAME, finish_deletions

    me = await s.player(unique("Cut"))
    done = await s.player(unique("Done"))
    for p in (me, done):
        await ok(p, "PATCH", "/api/me", {"puzzle_consent": True})
        await attempt(p)
        await ok(p, "POST", "/api/clubs", {"name": unique("Club"), "public": True}, 201)
    await ok(done, "DELETE", "/api/me", {"confirm": "delete"})  # the whole deletion
    store = s.services.store
    await s.services.tokens.store.delete_player(me.id, s.now, DELETED_NAME)  # then a stop
    assert await count(s, puzzle_attempts, player_id=me.id) == 1
    assert await count(s, club_members, player_id=me.id) == 1
    assert await store.unfinished_deletions() == [me.id]
    s.services._forgot = -float("inf")  # the hourly sweep is due
    await s.services.forget_expired(starting=False)
    assert await count(s, puzzle_attempts, player_id=me.id) == 0
    assert await count(s, puzzle_players, player_id=me.id) == 0
    assert await count(s, club_members, player_id=me.id) == 0
    assert await store.unfinished_deletions() == []
    assert await finish_deletions(store) == 0
    async with store.engine.connect() as conn:
        rows = {r.id: r.forgotten for r in await conn.execute(
            select(players.c.id, players.c.forgotten)
            .where(players.c.id.in_([me.id, done.id])))}
    assert rows[me.id] is not None and rows[done.id] is not None
