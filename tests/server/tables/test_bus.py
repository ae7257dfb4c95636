"""The Redis bus under a burst: every commit's message reaches the other instances, however
many are published at once (a bug fixed: redis-py's pool refused past 100 connections in use
with "Too many connections", the message was lost and the other instances' seats stalled)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from taash.games.base import Json
from taash.server.tables.bus import RedisBus


@pytest.mark.redis
async def test_a_burst_of_publishes_all_arrive(redis_url: str) -> None:
    channel = f"taash-test-bus-{uuid.uuid4().hex}"
    n = 600

    async def run() -> list[int]:
        got: list[int] = []
        done = asyncio.Event()

        async def heard(msg: dict[str, Json]) -> None:
            if msg.get("k") == "act":
                got.append(int(msg["v"]))  # type: ignore[arg-type]
                if len(got) == n:
                    done.set()

        listener, sender = RedisBus(redis_url, channel), RedisBus(redis_url, channel)
        await listener.start(heard)
        try:
            # as many tables committing at once as a loaded instance has
            await asyncio.gather(*(sender.publish({"k": "act", "t": "T", "v": i})
                                   for i in range(n)))
            await asyncio.wait_for(done.wait(), 20)
        except TimeoutError:
            pass
        finally:
            await sender.close()
            await listener.close()
        return got

    got = await run()
    assert sorted(got) == list(range(n)), f"{n - len(got)} of {n} messages lost"
