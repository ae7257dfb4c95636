from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.helpers import Api, Server


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
