"""`taash play --server URL --tournament ID` through the real command against a real server:
the terminal tells the tournament's state and plays the player's table of the round (against
a bot entrant) to its end; once the tournament is over it shows the standings and ends."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.accounts.test_players import Browser
from tests.server.accounts.test_tokens import make_token
from tests.server.helpers import Server
from tests.test_play_server import play_terminal

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'tour.db'}", "--bot-delay", "0",
                 "--sweep", "0.3", log=tmp_path / "server.log").start()
    yield srv
    srv.stop()


def test_the_terminal_lists_a_tournament_and_plays_its_round(server: Server) -> None:
    player, organiser = Browser(server), Browser(server)
    player.first_visit()
    organiser.first_visit()
    player.send("PATCH", "/api/me", {"name": "Terminal Tara"})
    token = make_token(player, "terminal")["token"]
    r = organiser.send("POST", "/api/tournaments", {
        "name": "Evening Swiss", "game": "court-piece-2p", "options": {"target": 1},
        "rounds": 1, "starts": time.time() + 600, "turn_timer_s": 120})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    # the token registers its player (the terminal's credential acts for them)
    with httpx.Client(base_url=server.base,
                      headers={"Authorization": f"Bearer {token}"}) as api:
        assert api.post(f"/api/tournaments/{tid}/register").status_code == 200
    before = subprocess.run([sys.executable, "-m", "taash", "play", "--server", server.base,
                             "--token", token, "--tournament", tid], capture_output=True,
                            text=True, timeout=60, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert before.returncode == 0, before.stderr
    assert "Evening Swiss" in before.stdout and "you are registered" in before.stdout
    assert organiser.send("POST", f"/api/tournaments/{tid}/bots",
                          {"level": "easy"}).status_code == 200
    assert organiser.send("POST", f"/api/tournaments/{tid}/start").status_code == 200
    p, rc, err = play_terminal("--server", server.base, "--token", token, "--tournament", tid,
                               refuse_once=False)
    assert rc == 0, (err, p.out[-3000:])
    assert "round 1 of 1" in p.out and "your table of round 1" in p.out
    assert "Match over" in p.out and "Traceback" not in p.out
    for _ in range(100):  # the result is taken as the match ends
        page = httpx.get(f"{server.base}/api/tournaments/{tid}").json()
        if page["state"] == "over":
            break
        time.sleep(0.1)
    assert page["state"] == "over"
    after = subprocess.run([sys.executable, "-m", "taash", "play", "--server", server.base,
                            "--token", token, "--tournament", tid], capture_output=True,
                           text=True, timeout=60, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert after.returncode == 0, after.stderr
    assert "1. " in after.stdout and "Terminal Tara" in after.stdout
    assert "final table: /t/" in after.stdout
    bad = subprocess.run([sys.executable, "-m", "taash", "play", "--tournament", tid],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--tournament needs --server" in bad.stderr
    player.http.close()
    organiser.http.close()
