"""The puzzle miner over the server's finished matches (docs/puzzles.md "Mined on the
server"): a match whose players all consented is mined when it ends and its puzzles kept as the
shipped set's entries are, with no player in them; without every player's consent, at an
event's board, or where a person left their seat to a bot, nothing is; a record that cannot be
mined is logged and the job goes on."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from taash.puzzles.mine import Limits, Puzzle, check, mine_deal, single_deals
from taash.record import validate
from taash.server.puzzles_mining.service import core_record
from taash.server.puzzles_mining.work import finished
from taash.server.store.mined_puzzles import MinedPuzzles
from taash.server.store.mining_queue import MiningQueue
from tests.server.events.helpers import event_body
from tests.server.puzzles_mining.helpers import (
    GAME,
    OPTIONS,
    SOLVER_S,
    TABLE,
    consent,
    heard,
    known_deals,
    metric,
    mining_site,
    play_first_legal,
    two_player_table,
)

pytestmark = pytest.mark.slow  # matches played to the end, then mined in a worker process


def expected(record: dict[str, object]) -> set[str]:
    """The ids of the puzzles taash.puzzles.mine finds in a record's finished deals."""
    found: set[str] = set()
    for one in single_deals(validate(record)):
        if finished(one):
            found |= {p.id for p in mine_deal(one, Limits(time_limit=SOLVER_S))}
    return found


async def test_a_finished_match_with_consent_yields_its_puzzles(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    known_deals(monkeypatch)
    async with mining_site(tmp_path) as s:
        a, b = await s.player(), await s.player()
        await consent(a, True)
        await consent(b, True)
        table = await two_player_table(a, b)
        assert table == TABLE
        await play_first_legal(table, {0: a, 1: b})
        await heard(s, "queued")
        await s.services.mining.drain()  # after the job's own pass, if it took the match first
        assert await MiningQueue(s.services.store).queued(10) == []
        mined = await MinedPuzzles(s.services.store).of_game(GAME)
        record = await a.ok("GET", f"/api/tables/{table}/record")
        want = expected(record)
        assert want, "the known deal holds a puzzle"
        assert {p["id"] for p in mined} == want
        assert metric(s, "taash_puzzles_mined_total", game=GAME) == len(want)
        assert metric(s, "taash_mining_matches_total", outcome="mined") == 1
        names = [(await p.ok("GET", "/api/me"))["name"] for p in (a, b)]
        for p in mined:  # as the set's entries: rebuilt and solved afresh, nobody named
            puzzle = Puzzle.from_json(p)
            assert check(puzzle, SOLVER_S) is None
            assert puzzle.options == {**puzzle.options, **OPTIONS}
            assert set(p) == {"id", "game", "options", "record", "seat", "solution",
                              "obvious", "value", "continuation", "themes", "rating"}
            text = json.dumps(p)
            assert not [x for x in (a.id, b.id, table, *names) if x in text]
        # mined again (a stop before the queue was emptied): each id is kept once
        assert await s.services.mining.queue(table, GAME, 1.0, record, [a.id, b.id])
        await s.services.mining.drain()
        assert metric(s, "taash_mining_matches_total", outcome="mined") == 2
        assert len(await MinedPuzzles(s.services.store).of_game(GAME)) == len(want)


async def test_without_every_players_consent_nothing_is_mined(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    known_deals(monkeypatch)  # the same deal as above, which holds a puzzle
    async with mining_site(tmp_path) as s:
        a, b = await s.player(), await s.player()
        await consent(a, True)  # b never turned it on (off by default)
        table = await two_player_table(a, b)
        await play_first_legal(table, {0: a, 1: b})
        await heard(s, "skipped")
        assert await MiningQueue(s.services.store).queued(10) == []
        assert await s.services.mining.drain() == 0
        assert await MinedPuzzles(s.services.store).counts() == {}
        # consent withdrawn after a match was queued (queued here as a match's end queues it
        # on both players' consent): asked again before it is mined, dropped
        record = await a.ok("GET", f"/api/tables/{table}/record")
        assert await MiningQueue(s.services.store).enqueue(
            table, GAME, 1.0, json.dumps(core_record(record)), [a.id, b.id])
        await s.services.mining.drain()
        assert await MiningQueue(s.services.store).queued(10) == []
        assert await MinedPuzzles(s.services.store).counts() == {}
        assert metric(s, "taash_mining_matches_total", outcome="dropped") == 1


async def test_a_seat_left_to_a_bot_keeps_the_match_out(tmp_path: Path) -> None:
    async with mining_site(tmp_path) as s:
        a = await s.player()
        await consent(a, True)
        made = await a.ok("POST", "/api/tables", {
            "game": GAME, "options": OPTIONS, "live": False, "first_seat": 0,
            "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]}, status=201)
        table = made["id"]
        v = await a.ok("GET", f"/api/tables/{table}/view", params={"seat": 0})
        r = await a.http.post(f"/api/tables/{table}/actions", params={"seat": 0},
                              json={"action": v["legal_actions"][0], "version": v["version"]})
        assert r.status_code == 200, r.text
        r = await a.http.post(f"/api/tables/{table}/leave")
        assert r.status_code == 200, r.text
        # bots alone play it out now: a table of bots, but a person's moves are in it
        await heard(s, "skipped")
        assert await MiningQueue(s.services.store).queued(10) == []
        # so too where a player deletes their account before the end (their seat: a bot's)
        b = await s.player()
        await consent(b, True)
        made = await b.ok("POST", "/api/tables", {
            "game": GAME, "options": OPTIONS, "live": False, "first_seat": 0,
            "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]}, status=201)
        v = await b.ok("GET", f"/api/tables/{made['id']}/view", params={"seat": 0})
        r = await b.http.post(f"/api/tables/{made['id']}/actions", params={"seat": 0},
                              json={"action": v["legal_actions"][0], "version": v["version"]})
        assert r.status_code == 200, r.text
        r = await b.http.request("DELETE", "/api/me", json={"confirm": "delete"})
        assert r.status_code == 200, r.text
        await heard(s, "skipped", 2)
        assert await MiningQueue(s.services.store).queued(10) == []
        assert metric(s, "taash_mining_matches_total", outcome="queued") == 0


async def test_a_table_of_bots_is_mined_without_anyones_consent(tmp_path: Path) -> None:
    async with mining_site(tmp_path) as s:
        a = await s.player()  # makes the table, sits at none of its seats
        await a.ok("POST", "/api/tables", {
            "game": GAME, "options": OPTIONS, "live": False, "first_seat": 0,
            "seats": [{"type": "bot", "level": "random"}] * 2}, status=201)
        await heard(s, "queued")
        await s.services.mining.drain()
        assert await MiningQueue(s.services.store).queued(10) == []
        assert metric(s, "taash_mining_matches_total", outcome="mined") == 1


async def test_an_event_board_is_never_mined(tmp_path: Path) -> None:
    async with mining_site(tmp_path) as s:
        host, p = await s.player(), await s.player()
        await consent(p, True)
        ev = await host.ok("POST", "/api/events", event_body(boards=1), status=201)
        eid = ev["id"]
        await p.ok("POST", f"/api/events/{eid}/entry", status=201)
        done = await p.play_board(eid, 1, lambda legal: legal[0])
        assert done["done"]
        # a board is not a table: its end is no match's end at the hub
        assert metric(s, "taash_mining_matches_total", outcome="queued") == 0
        # and its record, offered to the miner, is refused: its deal was dealt for the board
        rec = await p.ok("GET", f"/api/events/{eid}/boards/1/record")
        assert not await s.services.mining.queue("anytable", ev["game"], 1.0, rec, [p.id])
        assert await MiningQueue(s.services.store).queued(10) == []
        assert metric(s, "taash_mining_matches_total", outcome="skipped") == 1


async def test_the_job_survives_a_malformed_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    known_deals(monkeypatch)
    async with mining_site(tmp_path) as s:
        a, b = await s.player(), await s.player()
        await consent(a, True)
        await consent(b, True)
        table = await two_player_table(a, b)
        await play_first_legal(table, {0: a, 1: b})
        await heard(s, "queued")
        record = await a.ok("GET", f"/api/tables/{table}/record")
        mining = s.services.mining
        # queued before the good one: an illegal action, and a record that is no record
        bad: Any = json.loads(json.dumps(core_record(record)))
        bad["deals"][0]["actions"][3]["action"] = "play:ZZ"
        with caplog.at_level(logging.ERROR, logger="taash.server"):
            assert await mining.queue("badmove", GAME, 0.5, bad)
            assert await mining.queue("notarecord", GAME, 0.6, {"game": GAME, "deals": "x"})
            await mining.drain()
        assert await MiningQueue(s.services.store).queued(10) == []
        assert len(await MinedPuzzles(s.services.store).of_game(GAME)) >= 1
        given_up = [r.getMessage() for r in caplog.records if "given up" in r.getMessage()]
        assert any("badmove" in m for m in given_up) and any("notarecord" in m
                                                            for m in given_up), given_up
        assert metric(s, "taash_mining_matches_total", outcome="failed") == 2
