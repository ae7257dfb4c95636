"""The store's queries for events' best results (migration 0028; docs/events.md).

One row per board and trump call.  The row is the claim: the instance whose insert makes it
computes the result (``owner``, until ``lease``); a claim whose lease has run out with no
result (its instance stopped) is taken over by the next instance that asks.  The result is
written once (``WHERE done IS NULL``) and kept: a restart or another instance reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.event_best_schema import event_best


@dataclass(frozen=True)
class BestKey:
    event_id: str
    board: int
    opening: str  # the trump call's actions, "seat:trump:S", comma-separated ("" in Goat)


@dataclass(frozen=True)
class BestRow:
    """A board's best result as kept: claimed (``done`` None: being computed since
    ``started``, or waiting for a worker) or done (the bounds, ``proven`` when they meet)."""

    owner: str
    lease: float
    budget: float
    started: float | None
    done: float | None
    lower: int | None
    upper: int | None
    proven: bool | None
    solver: str | None
    seconds: float | None
    nodes: int | None
    most: int | None


def _row(r: object) -> BestRow:
    m = r._mapping  # type: ignore[attr-defined]
    return BestRow(m["owner"], float(m["lease"]), float(m["budget"]), m["started"], m["done"],
                   m["lower"], m["upper"],
                   bool(m["proven"]) if m["proven"] is not None else None, m["solver"],
                   m["seconds"], m["nodes"], m["most"])


def _where(k: BestKey) -> ColumnElement[bool]:
    return and_(event_best.c.event_id == k.event_id, event_best.c.board == k.board,
                event_best.c.opening == k.opening)


class EventBestStore:
    """Claims and results of boards' best results, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, k: BestKey) -> BestRow | None:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(event_best).where(_where(k)))).first()
        return _row(r) if r is not None else None

    async def claim(self, k: BestKey, owner: str, now: float, lease: float,
                    budget: float) -> bool:
        """Take the computing of a board's best result: True for one caller only, among every
        instance (a new row, or one whose lease ran out with no result)."""
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(event_best.insert().values(
                    event_id=k.event_id, board=k.board, opening=k.opening, owner=owner,
                    lease=lease, budget=budget))
            return True
        except IntegrityError:
            pass
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(update(event_best).where(and_(
                _where(k), event_best.c.done.is_(None), event_best.c.lease < now))
                .values(owner=owner, lease=lease, budget=budget, started=None))
        return res.rowcount == 1

    async def start(self, k: BestKey, owner: str, now: float, lease: float) -> bool:
        """Its worker begins: the claim renewed until ``lease``, if still the owner's."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(update(event_best).where(and_(
                _where(k), event_best.c.owner == owner, event_best.c.done.is_(None)))
                .values(started=now, lease=lease))
        return res.rowcount == 1

    async def save(self, k: BestKey, now: float, lower: int, upper: int, proven: bool,
                   solver: str, seconds: float, nodes: int, most: int) -> bool:
        """Keep the result; the first one written stays (False: one was kept already)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(update(event_best).where(and_(
                _where(k), event_best.c.done.is_(None))).values(
                done=now, lower=lower, upper=upper, proven=proven, solver=solver,
                seconds=seconds, nodes=nodes, most=most))
        return res.rowcount == 1

    async def give_up(self, k: BestKey, owner: str, retry: float) -> None:
        """The owner's computing failed: anyone may claim it again from ``retry`` on."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(event_best).where(and_(
                _where(k), event_best.c.owner == owner, event_best.c.done.is_(None)))
                .values(lease=retry, started=None))
