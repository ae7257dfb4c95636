"""Tables nobody comes to: their bots stop after the idle time (``--idle-after``) and play on
when someone connects; after a restart they stay stopped; and an address without a session
may keep only two tables of bots only playing at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import Server
from tests.waiting import wait_until

pytestmark = pytest.mark.slow

BOTS = [{"type": "bot", "level": "random"}] * 4


def bot_table(http: httpx.Client, headers: dict[str, str] | None = None,
              **kw: Any) -> httpx.Response:
    return http.post("/api/tables", json={"game": "court-piece", "seats": BOTS, "live": True,
                                          "bot_delay_ms": 50, **kw}, headers=headers)


def public(http: httpx.Client, tid: str) -> dict[str, Any]:
    r = http.get(f"/api/tables/{tid}")  # a look at the public view is nobody coming
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def version(http: httpx.Client, tid: str) -> int:
    return int(public(http, tid)["version"])


def wait_idle(http: httpx.Client, tid: str, timeout: float = 20) -> dict[str, Any]:
    """The public view once the table says it rests."""
    def rests() -> Any:  # the public view, or None
        v = public(http, tid)
        return v if v["table"]["idle"] else None

    return wait_until(rests, timeout=timeout, what=f"table {tid} to rest")


def wait_until_still(http: httpx.Client, tid: str, quiet: float = 1.0,
                     timeout: float = 20) -> int:
    """The table's version once it has not changed for ``quiet`` seconds.  The server has no
    sign for "will not be driven": the quiet window is the check itself, over three sweeps
    (0.3 s each) and a bot's turn, in which a table still driven would have moved."""
    last = {"v": version(http, tid), "since": time.monotonic()}

    def still() -> Any:  # the version, or None
        now = version(http, tid)
        if now != last["v"]:
            last["v"], last["since"] = now, time.monotonic()
            return None
        return now if time.monotonic() - last["since"] >= quiet else None

    try:
        stopped: int = wait_until(still, timeout=timeout, what=f"table {tid} to stop", every=0.1)
        return stopped
    except AssertionError as e:
        raise AssertionError(f"{e} (version {last['v']})") from None


@pytest.fixture
def idle_server(tmp_path: Path) -> Iterator[Server]:
    # a rate limit (high: never reached here) turns the cap on tables of bots only on
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'idle.db'}", "--idle-after", "1",
                 "--sweep", "0.3", "--rate-limit", "1000", log=tmp_path / "idle.log").start()
    yield srv
    srv.stop()


def test_an_idle_table_stops_its_bots_and_plays_on_when_someone_watches(
        idle_server: Server) -> None:
    with httpx.Client(base_url=idle_server.base, timeout=20) as http:
        r = bot_table(http)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        assert not public(http, tid)["table"]["idle"]
        wait_idle(http, tid)
        stopped = wait_until_still(http, tid)
        assert stopped > 0  # it played while it was new
        assert public(http, tid)["table"]["idle"]

        # a spectator's stream: the bots play on while it is open
        done = threading.Event()

        def watch() -> None:
            with httpx.Client(base_url=idle_server.base, timeout=20) as h, \
                    h.stream("GET", f"/api/tables/{tid}/stream") as s:
                for _ in s.iter_lines():
                    if done.is_set():
                        return

        t = threading.Thread(target=watch, daemon=True)
        t.start()
        wait_until(lambda: version(http, tid) > stopped + 3, timeout=10,
                   what="the watched table to play on")
        assert not public(http, tid)["table"]["idle"]
        done.set()
        t.join(10)


def test_an_idle_table_is_not_driven_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"
    srv = Server(db, "--idle-after", "1", "--sweep", "0.3", log=tmp_path / "a.log").start()
    with httpx.Client(base_url=srv.base, timeout=20) as http:
        tid = bot_table(http).json()["id"]
        wait_idle(http, tid)
        stopped = wait_until_still(http, tid)
    srv.stop()

    srv = Server(db, "--idle-after", "1", "--sweep", "0.3", log=tmp_path / "b.log").start()
    try:
        with httpx.Client(base_url=srv.base, timeout=20) as http:
            after = public(http, tid)  # loaded again from the store: it still rests
            assert after["table"]["idle"] and after["version"] == stopped
    finally:
        srv.stop()

    # the same table on a server that never rests tables: the sweeper drives it again
    srv = Server(db, "--idle-after", "0", "--sweep", "0.3", log=tmp_path / "c.log").start()
    try:
        with httpx.Client(base_url=srv.base, timeout=20) as http:
            wait_until(lambda: version(http, tid) > stopped, timeout=15,
                       what="the sweeper to drive the table again")
    finally:
        srv.stop()


def test_tables_of_bots_only_are_capped_per_address_without_a_session(
        idle_server: Server) -> None:
    with httpx.Client(base_url=idle_server.base, timeout=20) as http:
        made = [bot_table(http) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        err = made[2].json()["error"]
        assert err["code"] == "rate_limited"
        assert "tables of bots only" in err["message"]
        # a table with a human seat is no bot-only table: not capped
        r = http.post("/api/tables", json={"game": "court-piece-2p",
                                           "seats": [{"type": "human"}, {"type": "bot"}]})
        assert r.status_code == 201, r.text

        # a player with a session may make their own (the page's cookie)
        assert http.get("/api/me").status_code == 200
        r = bot_table(http, {"Origin": idle_server.base}, bot_delay_ms=60_000)
        assert r.status_code == 201, r.text  # the cookie's player, not the address, counts
        http.cookies.clear()

        # once the address's two tables rest (idle), it may make another
        for r in made[:2]:
            wait_idle(http, r.json()["id"])
        assert bot_table(http).status_code == 201
