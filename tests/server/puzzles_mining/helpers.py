"""The miner's tests: a server in process with mining on (the suite turns it off elsewhere:
tests/conftest.py), tables whose deals are known (the table's id and each deal's fair-deal
secret fixed, so the same cards are dealt on every run), and their matches played to the end
through the HTTP API, every seat taking its first legal action."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from taash.server.config import Settings
from taash.server.store.rows import FairRow
from taash.server.tables import match as tables_match
from taash.server.tables import service as tables_service
from tests.server.events.helpers import Player, Site, served

GAME = "court-piece-2p"
OPTIONS = {"target": 1}
TABLE = "minedtable1"
# the deals of TABLE dealt from SEED hold a puzzle when both seats play their first legal
# action (found by playing seeds 0, 1, ... so offline and mining each with taash.puzzles.mine)
SEED = 7
SOLVER_S = 20.0  # the solver's limit a position in these tests: every position settles


def secret(deal: int) -> str:
    """Deal ``deal``'s fair-deal secret at the known table."""
    return hashlib.sha256(f"taash-mining-test:{SEED}:{deal}".encode()).hexdigest()


def known_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """New tables get the id TABLE and each deal the secret ``secret(deal)``: their cards are
    the same on every run."""
    def row(deal: int, num_seats: int) -> FairRow:
        return FairRow(deal=deal, secret=secret(deal), seeds=[""] * num_seats)

    monkeypatch.setattr(tables_service, "new_table_id", lambda: TABLE)
    monkeypatch.setattr(tables_service, "new_fair_row", row)
    monkeypatch.setattr(tables_match, "new_fair_row", row)


@asynccontextmanager
async def mining_site(tmp_path: Path) -> AsyncIterator[Site]:
    """The server in process on SQLite in ``tmp_path``, the miner on."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'mining.db'}", sweep_s=60,
                        no_mining=False)
    async with served(settings, Site) as s:
        s.services.mining.time_limit = SOLVER_S
        yield s


async def consent(p: Player, on: bool) -> None:
    r = await p.http.patch("/api/me", json={"puzzle_consent": on})
    assert r.status_code == 200 and r.json()["puzzle_consent"] is on, r.text


async def two_player_table(a: Player, b: Player) -> str:
    """A table of two human seats: ``a`` made it and holds seat 0, ``b`` claims seat 1."""
    made = await a.ok("POST", "/api/tables", {
        "game": GAME, "options": OPTIONS, "live": False, "first_seat": 0,
        "seats": [{"type": "human"}, {"type": "human"}]}, status=201)
    token = next(x["token"] for x in made["seats"] if x["seat"] == 1)
    r = await b.http.post(f"/api/tables/{made['id']}/claim", params={"token": token})
    assert r.status_code == 200 and r.json()["seat"] == 1, r.text
    return str(made["id"])


async def play_first_legal(table: str, seats: dict[int, Player]) -> None:
    """Each seat of ``seats`` plays its first legal action until the match is over (a bot
    moves between, where there is one)."""
    for _ in range(4000):
        moved = False
        for seat, p in seats.items():
            v = (await p.http.get(f"/api/tables/{table}/view", params={"seat": seat})).json()
            if v.get("over"):
                return
            if v["legal_actions"]:
                r = await p.http.post(f"/api/tables/{table}/actions", params={"seat": seat},
                                      json={"action": v["legal_actions"][0],
                                            "version": v["version"]})
                assert r.status_code in (200, 409), r.text
                moved = True
        if not moved:
            await asyncio.sleep(0.01)  # a bot's move: looked at again
    raise AssertionError("the match did not end")


def metric(s: Site, name: str, **labels: str) -> float:
    return s.services.metrics.registry.get_sample_value(name, labels) or 0.0


async def heard(s: Site, outcome: str, at_least: int = 1) -> None:
    """Until the miner has counted ``at_least`` matches of ``outcome`` (queued, skipped ...):
    the hub's match_ended reached it."""
    for _ in range(1000):
        if metric(s, "taash_mining_matches_total", outcome=outcome) >= at_least:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the miner never counted a match {outcome}")


