"""The event bus between server instances.

One instance needs no bus: the table's room pushes events to its own seats.  Several instances
sharing one database publish every accepted action on Redis; an instance holding that table's
room applies it to its own copy of the match (the core is deterministic) and pushes the events
to the seats connected to it.  A message lost or out of order is not a problem: an instance that
sees a gap in the versions reads the missing actions from the database.  Changes of a table's
seats (``meta``: read them again from the database) and which seats are connected to which
instance (``here``/``who``/``gone``, numbered and repeated, see ``Hub``) travel the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

from taash.games.base import Json

log = logging.getLogger("taash.server")

Handler = Callable[[dict[str, Json]], Awaitable[None]]


class Bus:
    """The in-process bus: nothing to tell anyone else."""

    shared = False  # True: other instances hear what is published
    live = True  # False: not subscribed now (messages may be missed)

    async def check(self) -> None:
        """Raise if the bus cannot be reached (the in-process one always can)."""
        return None

    async def start(self, handler: Handler) -> None:
        return None

    async def publish(self, message: dict[str, Json]) -> None:
        return None

    async def publish_counted(self, message: dict[str, Json]) -> int:
        """Publish; how many subscribers (this instance's too) it reached, 0 if none."""
        return 0

    async def close(self) -> None:
        return None


POOL = 32  # connections to Redis per instance (one of them held by the subscription)
PUBLISH_WAIT = 10.0  # seconds a publish waits for a free connection


class RedisBus(Bus):
    """Redis publish/subscribe on one channel per database."""

    shared = True

    def __init__(self, url: str, channel: str) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.channel = channel
        # a burst of commits publishes at once: past POOL connections in use a publish waits
        # for one (up to PUBLISH_WAIT s) rather than fail, as redis-py's own pool does past
        # 100 ("Too many connections"), which lost the message and stalled the other
        # instances' seats
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL,
                                                        timeout=PUBLISH_WAIT)
        self.redis: aioredis.Redis = aioredis.Redis.from_pool(pool)
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.live = False

    async def check(self) -> None:
        await self.redis.ping()

    async def start(self, handler: Handler) -> None:
        self._task = asyncio.create_task(self._listen(handler), name="taash-bus")
        await asyncio.wait_for(self._ready.wait(), 10)

    async def _listen(self, handler: Handler) -> None:
        first = True
        while True:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as ps:
                    await ps.subscribe(self.channel)
                    self.live = True
                    self._ready.set()
                    if not first:  # what was said while away is lost: read the store again
                        await handler({"k": "rejoined"})
                    first = False
                    async for msg in ps.listen():
                        if msg.get("type") != "message":
                            continue
                        try:
                            data = json.loads(msg["data"])
                        except ValueError:
                            continue
                        try:
                            await handler(data)
                        except Exception:
                            log.exception("bus message failed: %s", data)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis went away: try again, the store has everything
                self.live = False
                log.warning("event bus: %s; reconnecting", e)
                await asyncio.sleep(1)

    async def publish(self, message: dict[str, Json]) -> None:
        try:
            await self.redis.publish(self.channel, json.dumps(message))
        except Exception as e:  # the action is committed: others catch up from the store
            log.warning("event bus: could not publish: %s", e)

    async def publish_counted(self, message: dict[str, Json]) -> int:
        try:
            return int(await self.redis.publish(self.channel, json.dumps(message)))
        except Exception as e:
            log.warning("event bus: could not publish: %s", e)
            return 0

    async def close(self) -> None:
        self.live = False
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.redis.aclose()
