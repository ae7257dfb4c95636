"""Several instances on one database scan each finished match once (docs/fairplay.md, "In the
server"): two ``Services`` in one process, each with its own store, on PostgreSQL (and on
SQLite), drain the shared queue at once; each match is claimed by one of them (a lease in the
store), both do part of the work, and none is scanned twice.  A claim left by an instance that
stopped runs out, and another takes the match.  Two instances weighing one player at once open
one case, and so do two weighing one partnership."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy import select

from taash.server.app import Services
from taash.server.config import Settings
from taash.server.fairplay import service as fairplay_service
from taash.server.store.db import Store
from taash.server.store.fairplay import FairPlayStore, ScanRow
from taash.server.store.fairplay_pairs import PairScanRow
from taash.server.store.fairplay_schema import fairplay_cases
from tests.server.tables.test_owners import Quiet

pytestmark = pytest.mark.slow  # two instances in process

GAME = "court-piece-2p"
MATCHES = 8


class Scans:
    """The detector's work, counted: each call names its instance (its pool's thread) and
    match.  The first scan of each instance waits until the other's has begun too, so the two
    drains overlap (without claims, both would scan the first match)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.begun = {"A": threading.Event(), "B": threading.Event()}
        self.lock = threading.Lock()

    def __call__(self, text: str, _solver_time: float) -> tuple[list[Any], list[Any]]:
        import json

        rec = json.loads(text)
        who = threading.current_thread().name[0]  # the pool's prefix: A or B
        with self.lock:
            self.calls.append((who, rec["table"]))
        self.begun[who].set()
        for e in self.begun.values():
            e.wait(timeout=30)
        return [(rec["seats"][0]["player"], 1, 1, [])], []


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'once.db'}"
    return str(request.getfixturevalue("pg_url"))


@pytest_asyncio.fixture
async def pair(db: str) -> AsyncIterator[tuple[Services, Services]]:
    made: list[Services] = []
    pools: list[ThreadPoolExecutor] = []
    for name in "AB":
        settings = Settings(db_url=db, sweep_s=60)
        store = Store(settings.resolved_db_url())
        await store.migrate()
        s = Services(settings, store, Quiet())
        pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        s.fairplay._executor, s.fairplay._own_executor = pool, False
        pools.append(pool)
        made.append(s)
    yield made[0], made[1]
    for s in made:
        await s.close()
        await s.store.close()
    for pool in pools:
        pool.shutdown()


def record(table: str, player: str) -> dict[str, Any]:
    return {"table": table, "seats": [{"type": "human", "player": player},
                                      {"type": "bot", "level": "hard", "player": None}]}


async def test_two_instances_scan_each_queued_match_once(
        pair: tuple[Services, Services], monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = pair
    scans = Scans()
    monkeypatch.setattr(fairplay_service, "scan_match", scans)
    tables = [f"once{id(scans) % 100000}-{i}" for i in range(MATCHES)]
    for i, t in enumerate(tables):
        assert await (a if i % 2 else b).fairplay.queue(t, GAME, 1000.0 + i,
                                                       record(t, f"pl-{t}"))
    done = await asyncio.gather(a.fairplay.drain(), b.fairplay.drain())
    counted = Counter(t for _, t in scans.calls)
    assert {t: counted[t] for t in tables} == dict.fromkeys(tables, 1)
    assert sum(done) == MATCHES and min(done) >= 1  # both did part of the work
    assert {who for who, _ in scans.calls} == {"A", "B"}
    store = FairPlayStore(a.store)
    assert [q for q in await store.queued(100) if q.table_id in tables] == []
    for t in tables:
        (row,) = await store.scans(f"pl-{t}", 0.0, 10)
        assert row.table_id == t and row.deals == 1
    # nothing is left for either
    assert await asyncio.gather(a.fairplay.drain(), b.fairplay.drain()) == [0, 0]


async def test_a_claim_left_by_a_stopped_instance_runs_out(
        pair: tuple[Services, Services], monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = pair
    scans = Scans()
    scans.begun["A"].set()  # only B scans here
    monkeypatch.setattr(fairplay_service, "scan_match", scans)
    t = f"left{id(scans) % 100000}"
    await a.fairplay.queue(t, GAME, 1.0, record(t, f"pl-{t}"))
    now = a.fairplay.clock()
    store = FairPlayStore(a.store)
    held = await store.claim("gone-instance", now, fairplay_service.CLAIM_S)
    assert held is not None and held.table_id == t
    assert await b.fairplay.drain() == 0  # held by the instance that stopped
    b.fairplay.clock = lambda: now + fairplay_service.CLAIM_S + 1  # its claim has run out
    assert await b.fairplay.drain() == 1
    assert scans.calls == [("B", t)]
    assert not await store.renew(t, "gone-instance", now + 1000)  # its claim is gone


def gated(look: Callable[..., Awaitable[str | None]], mine: asyncio.Event,
          every: dict[str, asyncio.Event]) -> Callable[..., Awaitable[str | None]]:
    async def after_both(*whose: str) -> str | None:
        found = await look(*whose)
        mine.set()
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in every.values())), 30)
        return found

    return after_both


async def test_two_instances_weighing_a_player_at_once_open_one_case(
        pair: tuple[Services, Services]) -> None:
    """Two of a player's matches scanned on two instances at the same moment: each weighs the
    player, and one case opens, the other instance's weighing bringing it up to date."""
    a, b = pair
    player = f"both{time.time_ns() % 10**9}"
    store = FairPlayStore(a.store)
    for d in range(20):
        t = f"{player}-{d}"
        await store.scanned(t, [ScanRow(player, t, GAME, 1000.0 + d, 1, 5,
                                        [(0, 10, GAME, "follow", True)])])
    # both find no open case before either opens one (the moment the race is lost)
    looked = {"a": asyncio.Event(), "b": asyncio.Event()}
    for name, s in (("a", a), ("b", b)):
        s.fairplay.store.open_case = gated(s.fairplay.store.open_case, looked[name], looked)
    got = await asyncio.gather(a.fairplay.weigh(player), b.fairplay.weigh(player))
    async with a.store.engine.connect() as conn:
        opened = [r.id for r in await conn.execute(select(fairplay_cases.c.id).where(
            fairplay_cases.c.player_id == player, fairplay_cases.c.status == "open"))]
    assert len(opened) == 1 and got == [opened[0], opened[0]]


async def test_two_instances_weighing_a_partnership_at_once_open_one_case(
        pair: tuple[Services, Services]) -> None:
    """As a player's: two instances weigh a flagged partnership at the same moment, both
    finding no case open, and one case of the two players opens."""
    a, b = pair
    tag = time.time_ns() % 10**9
    one, two = f"pa{tag}", f"pb{tag}"
    store = FairPlayStore(a.store)
    for d in range(20):
        t = f"{one}-{d}"
        await store.scanned(t, [], [PairScanRow(one, two, t, "court-piece", 1000.0 + d, 1, 9,
                                                [(0, 10, "court-piece/single", "follow",
                                                  True)])])
    looked = {"a": asyncio.Event(), "b": asyncio.Event()}
    for name, s in (("a", a), ("b", b)):
        s.fairplay.store.open_case = gated(s.fairplay.store.open_case, looked[name], looked)
    got = await asyncio.gather(a.fairplay.weigh_pair(one, two), b.fairplay.weigh_pair(two, one))
    async with a.store.engine.connect() as conn:
        opened = [(r.id, r.player_id, r.partner_id) for r in await conn.execute(
            select(fairplay_cases).where(fairplay_cases.c.player_id.in_([one, two]),
                                         fairplay_cases.c.status == "open"))]
    assert len(opened) == 1 and got == [opened[0][0], opened[0][0]]
    assert opened[0][1:] == (one, two)  # the two players in order, whoever weighed them
