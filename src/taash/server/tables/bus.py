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
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Literal, TypedDict

log = logging.getLogger("taash.server")

# -- the messages, one TypedDict per kind ``k`` (``t``: the table, ``i``: the sender) ------------


class ActMessage(TypedDict):
    """A table's action committed: its version is now ``v``."""

    k: Literal["act"]
    t: str
    v: int


class MetaMessage(TypedDict):
    """A table's seats changed: read them again from the database."""

    k: Literal["meta"]
    t: str


class ChatMessage(TypedDict):
    """A chat message said at instance ``i``: ``m`` is the live message's text."""

    k: Literal["chat"]
    t: str
    i: str
    m: str


class HereMessage(TypedDict):
    """Which seats of which tables are connected to instance ``i`` (its ``n``-th say)."""

    k: Literal["here"]
    i: str
    n: int
    rooms: dict[str, list[int]]


class WhoMessage(TypedDict):
    """Instance ``i`` just opened table ``t``: who is connected to it elsewhere?"""

    k: Literal["who"]
    t: str
    i: str


class GoneMessage(TypedDict):
    """Instance ``i`` stops."""

    k: Literal["gone"]
    i: str


class WithdrawnMessage(TypedDict):
    """Tokens of table ``t`` withdrawn (their hashes ``h``); confirm nonce ``n``."""

    k: Literal["withdrawn"]
    t: str
    h: list[str]
    n: str
    i: str


class WithdrawnOkMessage(TypedDict):
    """Instance ``i`` confirms ``to``'s withdrawal ``n``."""

    k: Literal["withdrawn_ok"]
    n: str
    to: str
    i: str


class RevokedMessage(TypedDict):
    """Session ``s`` revoked: its live connections end."""

    k: Literal["revoked"]
    s: str


class VoiceSeatsMessage(TypedDict):
    """The seats ``s`` of table ``t`` with voice on at instance ``i``."""

    k: Literal["vp"]
    t: str
    i: str
    s: list[int]


class VoiceSignalMessage(TypedDict):
    """A voice signal ``d`` (the client's, as it sent it) from seat ``f`` to seat ``to``."""

    k: Literal["vs"]
    t: str
    i: str
    f: int
    to: int
    d: object


class RejoinedMessage(TypedDict):
    """Not sent: told to this instance's handler when the bus is back after a break."""

    k: Literal["rejoined"]


class RereadMessage(TypedDict):
    """An instance could not publish for a while and can again: what it said meanwhile was
    lost, so every instance reads its rooms' seats again (as after its own break)."""

    k: Literal["reread"]


Message = (ActMessage | MetaMessage | ChatMessage | HereMessage | WhoMessage | GoneMessage
           | WithdrawnMessage | WithdrawnOkMessage | RevokedMessage | VoiceSeatsMessage
           | VoiceSignalMessage | RejoinedMessage | RereadMessage)
# A message as heard: JSON from another instance (another version, perhaps), so each field is
# narrowed where it is read
Heard = Mapping[str, object]
Handler = Callable[[Heard], Awaitable[None]]


class Bus:
    """The in-process bus: nothing to tell anyone else."""

    shared = False  # True: other instances hear what is published
    live = True  # False: not subscribed now (messages may be missed)

    async def check(self) -> None:
        """Raise if the bus cannot be reached (the in-process one always can)."""
        return None

    async def start(self, handler: Handler) -> None:
        return None

    async def publish(self, message: Message) -> None:
        return None

    async def publish_counted(self, message: Message) -> int:
        """Publish; how many subscribers (this instance's too) it reached, 0 if none."""
        return 0

    async def close(self) -> None:
        return None


POOL = 32  # connections to Redis per instance for publishing
PUBLISH_WAIT = 10.0  # seconds a publish waits for a free connection
# Redis not answering (its host gone, the network to it cut: nothing refused, nothing
# answered): a publish, awaited by an action, gives up after this long, not when the kernel
# does (minutes), and then the bus is left quiet for QUIET_S, one publish trying it meanwhile
ANSWER_S = 5.0
QUIET_S = 1.0


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
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=POOL, timeout=PUBLISH_WAIT, socket_timeout=ANSWER_S,
            socket_connect_timeout=ANSWER_S)
        self.redis: aioredis.Redis = aioredis.Redis.from_pool(pool)
        # the subscription's own connection: it waits for messages as long as none come (no
        # read timeout), but gives up connecting as a publish does
        self.listener: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=ANSWER_S)
        self._quiet_until = 0.0  # a publish failed: none tried before this (monotonic)
        self._trying = False  # one publish tries the bus after a quiet time, the others wait
        self._mender: asyncio.Task[None] | None = None  # tries the bus while it is quiet
        self._reread: asyncio.Future[int] | None = None  # the last ``reread`` published
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
                async with self.listener.pubsub(ignore_subscribe_messages=True) as ps:
                    await ps.subscribe(self.channel)
                    self.live = True
                    self._ready.set()
                    if not first:  # what was said while away is lost: read the store again
                        rejoined: RejoinedMessage = {"k": "rejoined"}
                        await handler(rejoined)
                    first = False
                    async for msg in ps.listen():
                        if msg.get("type") != "message":
                            continue
                        try:
                            data: object = json.loads(msg["data"])
                        except ValueError:
                            continue
                        if not isinstance(data, dict):
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

    async def publish(self, message: Message) -> None:
        await self._publish(message)

    async def publish_counted(self, message: Message) -> int:
        return await self._publish(message)

    async def _publish(self, message: Message) -> int:
        """Publish; how many subscribers it reached (0: none, or the bus is away: a committed
        action is in the store, the others catch up from there)."""
        if self._trying or time.monotonic() < self._quiet_until:
            return 0  # the bus was found away a moment ago: nothing said until it answers
        trying = self._quiet_until > 0
        self._trying = trying
        try:
            heard = int(await self.redis.publish(self.channel, json.dumps(message)))
        except Exception as e:
            self._quiet_until = time.monotonic() + QUIET_S
            if not trying:  # one line an outage, not one a message
                log.warning("event bus: could not publish: %s: %s", type(e).__name__, e)
            if self._mender is None or self._mender.done():
                self._mender = asyncio.create_task(self._mend(), name="taash-bus-mend")
            return 0
        finally:
            self._trying = False
        if trying:
            self._mended()
        return heard

    def _mended(self) -> None:
        """The bus answers again after failed publishes: the others read again what was lost."""
        if self._quiet_until == 0.0:
            return
        self._quiet_until = 0.0
        log.warning("event bus: publishing again")
        reread: RereadMessage = {"k": "reread"}
        self._reread = asyncio.ensure_future(self._publish(reread))

    async def _mend(self) -> None:
        """While the bus is quiet, try it now and then (nothing may be published meanwhile)."""
        while self._quiet_until > 0.0:
            await asyncio.sleep(max(0.0, self._quiet_until - time.monotonic()))
            if self._trying or self._quiet_until == 0.0:
                continue
            self._trying = True
            try:
                await self.redis.ping()
            except Exception:
                self._quiet_until = time.monotonic() + QUIET_S
                continue
            finally:
                self._trying = False
            self._mended()

    async def close(self) -> None:
        self.live = False
        if self._mender is not None:
            self._mender.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        with contextlib.suppress(Exception):
            await self.listener.aclose()
