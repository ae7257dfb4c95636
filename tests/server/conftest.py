from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.conftest import unavailable
from tests.server.helpers import Api, Server

# PostgreSQL and Redis for the tests that scale out (scripts/services starts them); missing,
# those tests skip, or fail under CI=true.
PG_ADMIN = os.environ.get("TAASH_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("TAASH_TEST_REDIS", "redis://127.0.0.1:6379/0")


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pg_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for the module (dropped after it), as an asyncpg URL: its
    name is unique to this worker's process and module, so no two workers share one."""
    name = f"taash_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        await _admin(f'CREATE DATABASE "{name}"')
        error = None
    except Exception as e:
        error = e
    if error is not None:  # outside the except: a failure under CI says one line, no chain
        unavailable(f"PostgreSQL is not reachable at {PG_ADMIN}: {error}")
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    yield f"{base}/{name}"
    await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_timeout=2).ping()
        error = None
    except Exception as e:
        error = e
    if error is not None:
        unavailable(f"Redis is not reachable at {REDIS}: {error}")
    return REDIS


@pytest.fixture(scope="session")
def server_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("taash-server")


@pytest.fixture(scope="session")
def server(server_dir: Path) -> Iterator[Server]:
    """One SQLite server for the tests that do not restart it."""
    srv = Server(f"sqlite+aiosqlite:///{server_dir / 'shared.db'}", "--sweep", "0.3",
                 "--bot-delay", "0", log=server_dir / "shared.log").start()
    yield srv
    srv.stop()


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    a = Api(server.base)
    yield a
    a.close()
