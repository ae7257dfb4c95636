"""The store's queries for Web Push (migration 0007): the VAPID key pair, the browsers'
subscriptions and the seats that muted push at a table.

Kept apart from ``store.py`` like ``store_tokens.py``: the same engine, the same SQLite writer
lock.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, delete, select, update
from sqlalchemy.exc import IntegrityError

from taash.server.store.db import Store
from taash.server.store.schema import push_mutes, push_subscriptions, seats, vapid_keys


@dataclass(frozen=True)
class PushSub:
    """One browser's subscription, for a seat (``table_id``, ``seat``) or for a player."""

    id: str
    scope: str
    endpoint: str
    p256dh: str
    auth: str
    table_id: str | None
    seat: int | None
    player_id: str | None
    language: str
    off: bool
    quiet_from: int | None
    quiet_to: int | None
    tz_offset: int
    created: float


TARGETS_CHUNK = 500  # players per query of their subscriptions


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _sub(r: object) -> PushSub:
    m = r._mapping  # type: ignore[attr-defined]
    return PushSub(m["id"], m["scope"], m["endpoint"], m["p256dh"], m["auth"], m["table_id"],
                   m["seat"], m["player_id"], m["language"], bool(m["off"]), m["quiet_from"],
                   m["quiet_to"], int(m["tz_offset"]), float(m["created"]))


class PushStore:
    """Push keys and subscriptions, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def vapid_key(self, make: str, now: float) -> str:
        """The server's VAPID private key: the one kept, else ``make``, kept now (instances
        starting together agree on whichever was kept first)."""
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(vapid_keys.c.private_key)
                                    .where(vapid_keys.c.id == "vapid"))).first()
        if r is not None:
            return str(r.private_key)
        try:
            async with self.store._writing(), self.store.engine.begin() as conn:
                await conn.execute(vapid_keys.insert().values(id="vapid", private_key=make,
                                                              created=now))
            return make
        except IntegrityError:
            return await self.vapid_key(make, now)

    async def subscribe(self, sub: PushSub) -> PushSub:
        """Keep ``sub``; a subscription of the same endpoint and scope is replaced (its keys
        and settings are the browser's latest)."""
        h = endpoint_hash(sub.endpoint)
        values = {"id": sub.id, "scope": sub.scope, "endpoint": sub.endpoint,
                  "endpoint_hash": h, "p256dh": sub.p256dh, "auth": sub.auth,
                  "table_id": sub.table_id, "seat": sub.seat, "player_id": sub.player_id,
                  "language": sub.language, "off": sub.off, "quiet_from": sub.quiet_from,
                  "quiet_to": sub.quiet_to, "tz_offset": sub.tz_offset, "created": sub.created}
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(push_subscriptions).where(and_(
                push_subscriptions.c.endpoint_hash == h, push_subscriptions.c.scope == sub.scope)))
            await conn.execute(push_subscriptions.insert().values(**values))
        return sub

    async def unsubscribe(self, scope: str, endpoint: str) -> bool:
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(delete(push_subscriptions).where(and_(
                push_subscriptions.c.endpoint_hash == endpoint_hash(endpoint),
                push_subscriptions.c.scope == scope)))
            return bool(res.rowcount)

    async def remove(self, sub_id: str) -> None:
        """A subscription the push service says is gone."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(push_subscriptions).where(
                push_subscriptions.c.id == sub_id))

    async def drop_seat(self, table_id: str, seat: int) -> None:
        """The seat's own subscriptions and mute go (a seat given to a bot)."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(push_subscriptions).where(
                push_subscriptions.c.scope == f"t:{table_id}:{seat}"))
            await conn.execute(delete(push_mutes).where(and_(
                push_mutes.c.table_id == table_id, push_mutes.c.seat == seat)))

    async def of_player(self, player_id: str) -> list[PushSub]:
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(select(push_subscriptions).where(
                push_subscriptions.c.player_id == player_id)
                .order_by(push_subscriptions.c.created))
            return [_sub(r) for r in rows]

    async def settle(self, player_id: str, values: dict[str, object]) -> int:
        """Set ``off`` or quiet hours on every subscription of the player's (theirs for all
        tables and those of their seats); how many."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(update(push_subscriptions).where(
                push_subscriptions.c.player_id == player_id).values(**values))
            return int(res.rowcount or 0)

    async def mute(self, table_id: str, seat: int, muted: bool, now: float) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(delete(push_mutes).where(and_(
                push_mutes.c.table_id == table_id, push_mutes.c.seat == seat)))
            if muted:
                await conn.execute(push_mutes.insert().values(table_id=table_id, seat=seat,
                                                              created=now))

    async def muted(self, table_id: str, seat: int) -> bool:
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(select(push_mutes.c.seat).where(and_(
                push_mutes.c.table_id == table_id, push_mutes.c.seat == seat)))).first()
            return r is not None

    async def targets(self, table_id: str, seat: int) -> list[PushSub]:
        """The subscriptions that would tell this seat of its turn: the seat's own and its
        player's for every table, none if the seat muted push here, none that are off."""
        async with self.store.engine.connect() as conn:
            if (await conn.execute(select(push_mutes.c.seat).where(and_(
                    push_mutes.c.table_id == table_id, push_mutes.c.seat == seat)))).first():
                return []
            owner = (await conn.execute(select(seats.c.player_id).where(and_(
                seats.c.table_id == table_id, seats.c.seat == seat)))).first()
            scopes = [f"t:{table_id}:{seat}"]
            if owner is not None and owner.player_id:
                scopes.append(f"p:{owner.player_id}")
            rows = await conn.execute(select(push_subscriptions).where(and_(
                push_subscriptions.c.scope.in_(scopes), push_subscriptions.c.off.is_(False)))
                .order_by(push_subscriptions.c.created))
            return [_sub(r) for r in rows]

    async def players_targets(self, player_ids: Sequence[str]) -> list[PushSub]:
        """The subscriptions for every table of any of these players (none that are off),
        asked in chunks: an event's whole field at once."""
        out: list[PushSub] = []
        async with self.store.engine.connect() as conn:
            for i in range(0, len(player_ids), TARGETS_CHUNK):
                scopes = [f"p:{p}" for p in player_ids[i:i + TARGETS_CHUNK]]
                rows = await conn.execute(select(push_subscriptions).where(and_(
                    push_subscriptions.c.scope.in_(scopes),
                    push_subscriptions.c.off.is_(False))).order_by(push_subscriptions.c.created))
                out += [_sub(r) for r in rows]
        return out

    async def player_targets(self, player_id: str) -> list[PushSub]:
        """The player's own subscriptions (for every table), none that are off."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(select(push_subscriptions).where(and_(
                push_subscriptions.c.scope == f"p:{player_id}",
                push_subscriptions.c.off.is_(False))).order_by(push_subscriptions.c.created))
            return [_sub(r) for r in rows]
