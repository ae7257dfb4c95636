"""Two instances behind a proxy that routes each table to one of them
(``--proxy-routes-tables``, deploy/Caddyfile.cluster): a table made through one instance is
not kept there; the instance its requests are routed to takes it at the first of them and
plays it with nothing passed on between the two (issue 44: no relay, so a second instance
adds capacity)."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.helpers import Api, Server, tokens_of
from tests.server.tables.test_http import SHORT
from tests.server.tables.test_live import Seat
from tests.server.tables.test_owner_instances import (
    TOKEN,
    accepted,
    play_moves,
    scrape,
    stored,
)
from tests.waiting import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def routed(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    a, b = (Server(pg_url, "--redis", redis_url, "--bot-delay", "0", "--metrics-token", TOKEN,
                   "--proxy-routes-tables", "--sweep", "0.5", log=tmp_path / f"{n}.log")
            for n in "ab")
    threads = [threading.Thread(target=s.start) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    yield a, b
    a.stop()
    b.stop()


def test_the_instance_a_table_is_routed_to_takes_it_and_nothing_is_passed_on(
        routed: tuple[Server, Server], pg_url: str) -> None:
    a, b = routed
    api_a, api_b = Api(a.base), Api(b.base)
    t = api_a.create("court-piece-2p", SHORT["court-piece-2p"], [{"type": "human"}] * 2)
    tid, tokens = t["id"], tokens_of(t)
    lease, _ = stored(pg_url, tid)
    assert lease is None  # a made it and left it: the proxy sends the table to b
    before_a, before_b = scrape(a), scrape(b)
    seats = {s: Seat(b, tid, s, tok) for s, tok in tokens.items()}
    try:
        version = play_moves(seats, api_b, tid, tokens, random.Random(7), moves=8)
    finally:
        for s in seats.values():
            s.close()
    taken, rows = stored(pg_url, tid)
    assert taken is not None and taken.address == b.base
    assert [r.version for r in rows] == list(range(1, version + 1))
    after_a, after_b = scrape(a), scrape(b)
    assert accepted(after_b) - accepted(before_b) == version
    assert accepted(after_a) == accepted(before_a)
    for m in (after_a, after_b):  # nothing passed on: each request met the table's owner
        assert m.get("taash_forwarded_total,kind=http", 0) == 0
        assert m.get("taash_forwarded_total,kind=websocket", 0) == 0
    assert after_a["taash_live_tables"] == 0
    api_a.close()
    api_b.close()


def test_a_table_of_bots_nobody_opens_is_taken_by_the_sweeper(
        routed: tuple[Server, Server], pg_url: str) -> None:
    a, _ = routed
    api_a = Api(a.base)
    t = api_a.create("court-piece-2p", SHORT["court-piece-2p"],
                     [{"type": "bot", "level": "random"}] * 2)
    tid = t["id"]
    # nobody asks for it: one of the two instances' sweepers finds its bots stalled (after
    # 10 s) and plays them: it is not lost for want of a request
    wait_until(lambda: len(stored(pg_url, tid)[1]) > 0, timeout=60, every=0.5,
               what="the bots' first moves")
    lease, _ = stored(pg_url, tid)
    assert lease is not None
    api_a.close()
