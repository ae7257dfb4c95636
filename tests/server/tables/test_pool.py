"""The bot worker pool: tables take turns for the workers, a job past its deadline is given
up (never run if it had not started), and a hard bot that misses its deadline moves as the
easy bot does.  The queue and the deadlines run on a fake clock and a fake runner, so what is
asserted is the order and the outcome, never a measured time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taash.bots import make_bot
from taash.games import new_match
from taash.server.tables.autoplay import hard_move
from taash.server.tables.pool import BotPool, DeadlineExceeded
from tests.server.helpers import Api, Server, tokens_of


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FakeRunner:
    """Jobs start when the pool hands them over and finish when the test says."""

    def __init__(self) -> None:
        self.started: list[tuple[str, Any]] = []
        self.futures: list[asyncio.Future[Any]] = []

    def __call__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.started.append(args)
        self.futures.append(fut)
        return fut

    def finish(self, i: int, value: Any = "done") -> None:
        self.futures[i].set_result(value)


def ident(key: str, n: int) -> tuple[str, int]:
    return key, n


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_tables_take_turns_for_one_worker() -> None:
    """Table A asks for 6 searches, then B and C one each: B's and C's run second and third,
    not after all of A's."""

    async def main() -> list[Any]:
        clock, runner = FakeClock(), FakeRunner()
        pool = BotPool(1, clock=clock, runner=runner)
        far = clock.now + 3600
        calls = [asyncio.create_task(pool.submit("A", ident, ("A", i), far)) for i in range(6)]
        await settle()
        calls += [asyncio.create_task(pool.submit(k, ident, (k, 0), far)) for k in "BC"]
        await settle()
        for i in range(8):
            assert len(runner.started) == i + 1  # one job at a time on one worker
            runner.finish(i, runner.started[i])
            await settle()
        results = await asyncio.gather(*calls)
        assert results == [("A", i) for i in range(6)] + [("B", 0), ("C", 0)]
        return runner.started

    started = await main()
    # A's first was already running; then B, C and A take turns
    assert started[:4] == [("A", 0), ("A", 1), ("B", 0), ("C", 0)]
    assert started[4:] == [("A", 2), ("A", 3), ("A", 4), ("A", 5)]


async def test_round_robin_across_many_tables_with_two_workers() -> None:
    async def main() -> list[Any]:
        clock, runner = FakeClock(), FakeRunner()
        pool = BotPool(2, clock=clock, runner=runner)
        far = clock.now + 3600
        tasks = [asyncio.create_task(pool.submit(k, ident, (k, i), far))
                 for k in "ABC" for i in range(3)]
        await settle()
        i = 0
        while i < len(runner.futures) or pool.queued():
            runner.finish(i)
            i += 1
            await settle()
        await asyncio.gather(*tasks)
        return runner.started

    started = await main()
    keys = [k for k, _ in started]
    assert len(keys) == 9
    # A's first two took both free workers as they came; from then on the tables take turns
    assert keys == ["A", "A", "A", "B", "C", "B", "C", "B", "C"]


async def test_a_job_whose_deadline_passes_in_the_queue_never_runs() -> None:
    async def main() -> None:
        clock, runner = FakeClock(), FakeRunner()
        pool = BotPool(1, clock=clock, runner=runner)
        busy = asyncio.create_task(pool.submit("A", ident, ("A", 0), clock.now + 3600))
        late = asyncio.create_task(pool.submit("B", ident, ("B", 0), clock.now + 5))
        ok = asyncio.create_task(pool.submit("C", ident, ("C", 0), clock.now + 3600))
        await settle()
        assert runner.started == [("A", 0)]
        clock.now += 10  # B's deadline passes while A's search holds the only worker
        runner.finish(0)
        await settle()
        # the worker skips B (expired) and takes C
        assert runner.started == [("A", 0), ("C", 0)]
        assert pool.stats.expired_queued == 1
        with pytest.raises(DeadlineExceeded):
            await late
        runner.finish(1)
        assert await ok == "done"
        assert await busy == "done"

    await main()


async def test_a_caller_gets_deadline_exceeded_when_the_running_job_is_late() -> None:
    """The deadline is the caller's: a search still running at its deadline is given up
    (its late answer is thrown away) and the worker goes on to the next table's job."""

    async def main() -> None:
        runner = FakeRunner()
        pool = BotPool(1, runner=runner)  # the real clock: the wait is the event loop's
        loop = asyncio.get_running_loop()
        slow = asyncio.create_task(pool.submit("A", ident, ("A", 0), loop.time() + 0.05))
        nxt = asyncio.create_task(pool.submit("B", ident, ("B", 0), loop.time() + 3600))
        with pytest.raises(DeadlineExceeded):
            await slow
        assert pool.stats.expired_running == 1
        runner.finish(0, "too late")
        await settle()
        assert runner.started == [("A", 0), ("B", 0)]
        runner.finish(1, "b")
        assert await nxt == "b"

    await main()


async def test_a_cancelled_caller_s_queued_job_is_dropped() -> None:
    async def main() -> None:
        clock, runner = FakeClock(), FakeRunner()
        pool = BotPool(1, clock=clock, runner=runner)
        first = asyncio.create_task(pool.submit("A", ident, ("A", 0), clock.now + 60))
        gone = asyncio.create_task(pool.submit("B", ident, ("B", 0), clock.now + 60))
        await settle()
        gone.cancel()
        await settle()
        assert pool.queued() == 0
        runner.finish(0)
        assert await first == "done"
        assert runner.started == [("A", 0)]

    await main()


@pytest.mark.slow
async def test_the_real_pool_runs_a_hard_move_in_a_worker_process() -> None:
    m = new_match("court-piece", seed=3, first_seat=0)
    seat = m.actors()[0]
    view = m.view(seat)

    async def main() -> Any:
        pool = BotPool(1)
        try:
            loop = asyncio.get_running_loop()
            return await pool.submit("t", hard_move, ("court-piece", 5, view),
                                     loop.time() + 120)
        finally:
            pool.close()

    action = await main()
    assert action in view["legal_actions"]
    assert action == make_bot("court-piece", "hard", seed=5).act(view)


@pytest.mark.slow
def test_a_hard_bot_past_its_deadline_moves_as_the_easy_bot(tmp_path: Path) -> None:
    """A server whose hard searches can never be ready in time (deadline 0): the hard seat
    still moves, at once, with the easy bot's move, and the log says why."""
    log = tmp_path / "srv.log"
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 't.db'}", "--bot-delay", "0",
                 "--log-level", "info", env={"TAASH_BOT_DEADLINE": "0"}, log=log).start()
    api = Api(srv.base)
    try:
        t = api.create("court-piece-2p", None, [{"type": "human"}, {"type": "bot",
                                                                     "level": "hard"}],
                       first_seat=1)
        tok = tokens_of(t)[0]
        v = api.wait_for(t["id"], tok, lambda v: v["version"] >= 1)
        assert v["version"] >= 1
    finally:
        api.close()
        srv.stop()
    assert "missed its deadline; the easy bot moves" in log.read_text()
