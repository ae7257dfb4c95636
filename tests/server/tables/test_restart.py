"""Play anytime: a server killed mid-match loses nothing, bots resume; clean stops and clear
errors at the command line."""

from __future__ import annotations

import random
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from taash.record import verify
from tests.server.helpers import ROOT, Api, Server, Truth, pick_actor, tokens_of
from tests.server.tables.test_http import SHORT


def strip(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "table"}


@pytest.mark.slow
def test_sigkill_mid_match_then_restart_continues(tmp_path: Path) -> None:
    db = f"sqlite+aiosqlite:///{tmp_path / 'play.db'}"
    first = Server(db, "--bot-delay", "0", log=tmp_path / "server.log").start()
    api = Api(first.base)
    t = api.create("goat", SHORT["goat"], [{"type": "human"}] * 4)
    tid, tokens = t["id"], tokens_of(t)
    # a live table whose bots are slow: the kill comes while they are thinking it over
    slow = api.create("court-piece-2p", SHORT["court-piece-2p"],
                      [{"type": "human"}, {"type": "bot", "level": "easy"}],
                      live=True, bot_delay_ms=4000, first_seat=1)
    rng = random.Random(8)
    acked = 0
    last_cid = ""
    for _ in range(15):
        views = {s: api.view(tid, tok) for s, tok in tokens.items()}
        seat, action = pick_actor(views, rng) or (-1, "")
        last_cid = f"k{acked}"
        r = api.act(tid, tokens[seat], action, cid=last_cid)
        assert r.status_code == 200
        acked = r.json()["version"]
        last_answer = r.json()
        last_seat = seat
    before = {s: strip(api.view(tid, tok)) for s, tok in tokens.items()}
    api.close()
    first.kill()

    second = Server(db, "--bot-delay", "0", log=tmp_path / "server.log").start()
    api = Api(second.base)
    after = {s: strip(api.view(tid, tok)) for s, tok in tokens.items()}
    assert after == before and after[0]["version"] == acked
    # the last action sent again after the restart is answered the same, not applied twice
    again = api.act(tid, tokens[last_seat], "pass:6S", cid=last_cid)
    assert again.status_code == 200 and again.json() == last_answer
    # the bot of the slow table takes its turns after the restart
    v = api.wait_for(slow["id"], tokens_of(slow)[0], lambda v: v["to_move"] == 0, timeout=30)
    assert v["version"] >= 2
    while True:
        views = {s: api.view(tid, tok) for s, tok in tokens.items()}
        if views[0]["over"]:
            break
        seat, action = pick_actor(views, rng) or (-1, "")
        assert api.act(tid, tokens[seat], action).status_code == 200
    rec = api.record(tid)
    assert verify({k: x for k, x in rec.items() if k != "table"})["match"]["over"]
    Truth(rec).check_view(0, acked, before[0] | {"version": acked})
    api.close()
    assert second.stop() == 0


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_even_with_live_connections(tmp_path: Path) -> None:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}").start()
    api = Api(srv.base)
    t = api.create("goat", None, [{"type": "human"}] * 4)
    api.close()
    stream = httpx.stream("GET", f"{srv.base}/api/tables/{t['id']}/stream",
                          params={"token": tokens_of(t)[0]}, timeout=10)
    r = stream.__enter__()
    assert r.status_code == 200
    # a clean exit with a stream open (Server.stop kills after 15 s: the status is then -9)
    assert srv.stop() == 0
    stream.__exit__(None, None, None)


def run_serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "taash", "serve", *args], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)


@pytest.mark.slow
def test_serve_errors_are_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = run_serve("--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert r.returncode == 2
    assert r.stderr.strip() == f"taash: cannot listen on 127.0.0.1:{port}: the port is in use"
    for db, words in [("mysql://u@h/db", "unsupported database"),
                      ("::nonsense::", "bad database URL"),
                      (f"sqlite:///{tmp_path}/no/such/dir/x.db", "does not exist"),
                      ("postgresql+asyncpg://nobody@127.0.0.1:9/none", "cannot open the database")]:
        r = run_serve("--port", "0", "--db", db)
        assert r.returncode == 2, (db, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.stderr, r.stderr
    r = run_serve("--port", "0", "--db", f"sqlite:///{tmp_path / 'y.db'}", "--smtp", "mail:x")
    assert r.returncode == 2 and "bad SMTP URL" in r.stderr


@pytest.mark.slow
def test_no_configuration_uses_sqlite_in_the_data_folder(tmp_path: Path) -> None:
    srv = Server(None, env={"XDG_DATA_HOME": str(tmp_path / "data")}).start()
    try:
        api = Api(srv.base)
        t = api.create("court-piece-2p", None, [{"type": "human"}] * 2)
        assert api.view(t["id"], tokens_of(t)[0])["version"] == 0
        api.close()
        assert str(tmp_path / "data") in srv.banner and "sqlite" in srv.banner
        assert (tmp_path / "data" / "taash" / "taash.db").is_file()
    finally:
        assert srv.stop() == 0
