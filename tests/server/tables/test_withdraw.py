"""A withdrawn seat token is refused everywhere as soon as the withdrawal is answered: two
instances on PostgreSQL and Redis, the token cached by the second, ``leave`` (or a new invite
link) answered by the first, then 30 requests at once on the second: none accepted."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.helpers import Server, tokens_of

pytestmark = pytest.mark.slow

TRIES = 30


@pytest.fixture(scope="module")
def pair(pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[tuple[Server, Server]]:
    folder: Path = tmp_path_factory.mktemp("withdraw")
    a = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", log=folder / "a.log")
    b = Server(pg_url, "--redis", redis_url, "--bot-delay", "0", log=folder / "b.log")
    failed: list[BaseException] = []

    def start(s: Server) -> None:
        try:
            s.start(timeout=120)  # a loaded machine migrates slowly
        except BaseException as e:
            failed.append(e)

    threads = [threading.Thread(target=start, args=(s,)) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(150)
    if failed:
        a.stop()
        b.stop()
        raise failed[0]
    yield a, b
    a.stop()
    b.stop()


async def _withdraw_then_try(a: Server, b: Server, how: str,
                             before: Callable[[], None]) -> list[int]:
    """Statuses of TRIES requests on B with a token withdrawn on A just before."""
    async with httpx.AsyncClient(base_url=a.base, timeout=20) as on_a, \
            httpx.AsyncClient(base_url=b.base, timeout=20,
                              limits=httpx.Limits(max_connections=TRIES)) as on_b:
        r = await on_a.post("/api/tables", json={
            "game": "court-piece", "live": False,
            "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot"},
                      {"type": "bot"}]})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        tokens = tokens_of(r.json())
        victim = tokens[1]
        auth = {"Authorization": f"Bearer {victim}"}
        # B knows the table and the token (its room caches the seats), and the connections
        # the tries will use are open already
        await asyncio.gather(*[on_b.get(f"/api/tables/{tid}/view", headers=auth)
                               for _ in range(TRIES)])
        before()
        if how == "leave":
            r = await on_a.post(f"/api/tables/{tid}/leave", headers=auth)
        else:  # the creator makes a new invite link for seat 1: its old token stops working
            r = await on_a.post(f"/api/tables/{tid}/invite", json={"seat": 1},
                                headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 200, r.text
        tries = await asyncio.gather(*[on_b.get(f"/api/tables/{tid}/view", headers=auth)
                                       for _ in range(TRIES)])
        return [t.status_code for t in tries]


def flood(redis_url: str, pg_url: str, n: int = 20_000) -> None:
    """Messages of no interest on the instances' channel, just before the withdrawal: every
    instance's bus has a backlog to get through, as a busy server's has, so one that heard
    the withdrawal late (after answering a request) would show."""
    import redis

    from taash.server.config import Settings

    channel = Settings(db_url=pg_url).bus_channel()
    r = redis.Redis.from_url(redis_url)
    with r.pipeline(transaction=False) as p:
        for i in range(n):
            p.publish(channel, json.dumps({"k": "act", "t": f"none{i}", "v": 1}))
        p.execute()
    r.close()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.parametrize("how", ["leave", "invite"])
async def test_a_withdrawn_token_is_refused_on_the_other_instance_at_once(
        pair: tuple[Server, Server], redis_url: str, pg_url: str, how: str) -> None:
    a, b = pair
    for _ in range(2):
        statuses = await _withdraw_then_try(a, b, how, lambda: flood(redis_url, pg_url))
        assert statuses.count(200) == 0, statuses
        assert set(statuses) == {401}
