"""`taash play --server` through the real command against a real server: a terminal player
and an API player play a two-player Court Piece match at one table, by a personal token or by
an invite link; the server's refusals are shown as it says them; a revoked token, a spent
invite and an unreachable server end with one clear line, never a traceback."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from taash.record import verify
from tests.server.accounts.test_players import Browser
from tests.server.accounts.test_tokens import make_token
from tests.server.helpers import Server, tokens_of
from tests.test_play import Player, answer

pytestmark = pytest.mark.slow

HAND = re.compile(r"Your hand \(\d+\):\n((?:  .*\n)+)")
CARD = re.compile(r"\d+:(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])")
SUIT = dict(zip("\u2660\u2665\u2666\u2663", "SHDC", strict=True))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 'play.db'}", "--bot-delay", "0",
                 log=tmp_path / "server.log").start()
    yield srv
    srv.stop()


class ApiPlayer(threading.Thread):
    """A program at a seat (its seat token): plays its first legal card whenever it is its
    turn, until the match is over."""

    def __init__(self, base: str, table: str, token: str) -> None:
        super().__init__(daemon=True)
        self.http = httpx.Client(base_url=base, timeout=20,
                                 headers={"Authorization": f"Bearer {token}"})
        self.table = table
        self.moves = 0
        self.stop = threading.Event()
        self.error: str | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                v = self.http.get(f"/api/tables/{self.table}/view").json()
                if v["over"]:
                    return
                if v["legal_actions"] and v["to_move"] == v["seat"]:
                    r = self.http.post(f"/api/tables/{self.table}/actions",
                                       json={"action": v["legal_actions"][0],
                                             "version": v["version"], "id": f"api{v['version']}"})
                    if r.status_code == 200:
                        self.moves += 1
                    elif r.json()["error"]["code"] != "stale":
                        self.error = r.text
                        return
                else:
                    self.next_version(v["version"])
        finally:
            self.http.close()

    def next_version(self, version: int) -> None:
        """Until the table moves past ``version``: the seat's NDJSON stream says so (a line
        for each new version), so the player waits on the server, not on a clock."""
        url = f"/api/tables/{self.table}/stream?since={version}"
        with self.http.stream("GET", url, timeout=httpx.Timeout(20, read=15)) as r:
            for line in r.iter_lines():
                if self.stop.is_set() or ('"version"' in line and '"ping"' not in line):
                    return


def not_held(screen: str) -> str | None:
    """A card code the hand on the screen does not hold (None: no hand shown)."""
    found = HAND.findall(screen)
    if not found:
        return None
    held = {("T" if r == "10" else r) + SUIT[s] for r, s in CARD.findall(found[-1])}
    return next(f"{r}{s}" for s in "SHDC" for r in "AKQJT98765432" if f"{r}{s}" not in held)


def play_terminal(*args: str, refuse_once: bool = True, limit: int = 600,
                  env: dict[str, str] | None = None) -> tuple[Player, int, str]:
    """Drive `taash play ARGS` to its end with piped answers; the first card prompt is
    answered with a card the hand does not hold (the server refuses it)."""
    p = Player(*args) if env is None else _player(env, *args)
    tried, refused = 0, not refuse_once
    for _ in range(limit):
        screen = p.wait_prompt(60)
        if screen is None:
            break
        tried = tried + 1 if "\u2717 " in screen else 0
        if not refused and screen.rstrip().endswith("Your card (number or code) >"):
            card = not_held(p.out)
            if card is not None:
                p.say(card)
                refused = True
                continue
        p.say(answer(screen, tried))
    else:
        p.proc.kill()
        raise AssertionError("the match did not end:\n" + p.out[-3000:])
    rc, err = p.finish(60)
    return p, rc, err


def _player(env: dict[str, str], *args: str) -> Player:
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        return Player(*args)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_a_terminal_player_and_an_api_player_play_a_match_by_token(server: Server) -> None:
    b = Browser(server)
    b.first_visit()
    b.send("PATCH", "/api/me", {"name": "Terminal Tara"})
    token = make_token(b, "terminal")["token"]
    # the table: the token's player at seat 0, a program with the seat token at seat 1
    t = b.create(seats=[{"type": "human"}, {"type": "human", "name": "Api Ali"}])
    api = ApiPlayer(server.base, t["id"], tokens_of(t)[1])
    api.start()
    p, rc, err = play_terminal("--server", server.base, "--token", token, "--table", t["id"])
    api.stop.set()
    api.join(10)
    out = p.out
    assert rc == 0, (err, out[-3000:])
    assert err == "" and "Traceback" not in out
    assert api.error is None and api.moves > 0
    assert f"At the server's table {t['id']} as seat 0" in out
    assert "Two-player Court Piece" in out and "Match over" in out
    # the other player's moves, by their name, and the server's refusal as the server says it
    assert re.search(r"Api Ali \(1\) plays ", out), out[-3000:]
    assert re.search(r"\u2717 the server refused play:\w\w: .+", out), out[-3000:]
    assert re.search(r"You win the match!|Api Ali wins the match\.", out)
    # the server's record is the match the terminal saw: finished and valid
    rec = httpx.get(f"{server.base}/api/tables/{t['id']}/record").json()
    summary = verify(rec)
    assert summary["match"]["over"]
    moves = [a for d in rec["deals"] for a in d["actions"]]
    # every move told once, in order, whoever made it (a narrated move starts a line)
    seen = re.findall(r"^  (You|Api Ali \(1\)) (?:calls?|plays?) ", out, re.M)
    assert [{"You": 0}.get(who, 1) for who in seen] == [a["seat"] for a in moves]
    b.close()


def test_an_invite_link_seats_the_terminal_once(server: Server) -> None:
    with httpx.Client(base_url=server.base) as program:
        t = program.post("/api/tables", json={"game": "court-piece-2p", "live": False,
                                              "options": {"target": 1},
                                              "seats": [{"type": "human", "name": "Host"},
                                                        {"type": "human"}]}).json()
    link = server.base + next(s["url"] for s in t["seats"] if s["seat"] == 1)
    api = ApiPlayer(server.base, t["id"], tokens_of(t)[0])
    api.start()
    p, rc, err = play_terminal("--server", server.base, "--invite", link, refuse_once=False)
    api.stop.set()
    api.join(10)
    assert rc == 0 and err == "", (err, p.out[-2000:])
    assert "as seat 1" in p.out and "Match over" in p.out and "Traceback" not in p.out
    assert re.search(r"Host \(0\) plays ", p.out)
    # the way back to the seat, with its new token, which plays it (the match is over: it
    # shows the table and ends at once)
    back = re.search(r"to come back to it, (taash play .+ --token (\S+))\)", p.out)
    assert back, p.out[:2000]
    assert back.group(2) != tokens_of(t)[1]
    with httpx.Client(base_url=server.base) as c:
        v = c.get(f"/api/tables/{t['id']}/view",
                  headers={"Authorization": f"Bearer {back.group(2)}"})
        assert v.status_code == 200 and v.json()["seat"] == 1
    # the seat is a player's now: the link is spent, for the terminal and for a browser
    again = subprocess.run([sys.executable, "-m", "taash", "play", "--server", server.base,
                            "--invite", link], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert again.returncode == 1 and "Traceback" not in again.stderr + again.stdout
    assert again.stderr.strip().splitlines() == [
        "taash: the server refused: this invite link has been used: another player has "
        "taken the seat. Ask for a new link"]
    b = Browser(server)
    b.first_visit()
    r = b.send("POST", f"/api/tables/{t['id']}/claim",
               headers={"Authorization": f"Bearer {tokens_of(t)[1]}"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "invite_used"
    b.close()


def test_a_revoked_token_ends_the_terminal_with_one_line(server: Server) -> None:
    b = Browser(server)
    b.first_visit()
    made = make_token(b, "soon revoked")
    t = b.create(seats=[{"type": "human"}, {"type": "human"}], first_seat=1)
    p = Player("--server", server.base, "--token", made["token"], "--table", t["id"])
    deadline = time.monotonic() + 30
    while "as seat 0" not in p.out and time.monotonic() < deadline:  # it waits for seat 1
        try:
            chunk = p.chunks.get(timeout=1)
        except Exception:
            continue
        p.out += chunk.decode("utf-8", "replace")
    assert "as seat 0" in p.out, p.out
    assert b.send("DELETE", f"/api/me/tokens/{made['id']}").status_code == 200
    rc, err = p.finish(30)
    assert rc == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "taash: the server ended this seat's connection: unknown or revoked personal token")
    b.close()


def test_an_unreachable_server_is_retried_then_said_in_one_line() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # it gives up by itself (TAASH_GIVE_UP_S): the timeout only stops a hang
    out = subprocess.run([sys.executable, "-m", "taash", "play", "--server",
                          f"http://127.0.0.1:{port}", "--token", "taash_pat_x", "--table", "t1"],
                         capture_output=True, text=True, timeout=30,
                         env=dict(os.environ, TAASH_GIVE_UP_S="2"))
    assert out.returncode == 1
    assert "Traceback" not in out.stdout + out.stderr
    assert "trying again in 0.5 s" in out.stdout and "trying again in 1 s" in out.stdout
    assert out.stderr.strip().splitlines() == [
        f"taash: cannot reach http://127.0.0.1:{port}: ConnectError: "
        + out.stderr.split("ConnectError: ", 1)[1].strip()]
    # bad flags: one line, exit 2
    bad = subprocess.run([sys.executable, "-m", "taash", "play", "--server", "ftp://x",
                          "--token", "t", "--table", "x"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("taash: --server must be an http")
    bad = subprocess.run([sys.executable, "-m", "taash", "play", "--server", "http://x"],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr == "taash: --server needs --token and --table, or --invite\n"


def test_the_terminal_carries_on_after_the_server_restarts(server: Server) -> None:
    b = Browser(server)
    b.first_visit()
    token = make_token(b, "restart")["token"]
    t = b.create(seats=[{"type": "human"}, {"type": "bot", "level": "random"}], first_seat=0)
    b.close()
    p = Player("--server", server.base, "--token", token, "--table", t["id"])
    screen = p.wait_prompt(60)
    assert screen is not None
    server.stop()
    time.sleep(1.5)
    server.start()
    tried = 0
    for _ in range(400):
        tried = tried + 1 if "\u2717 " in screen else 0
        p.say(answer(screen, tried))
        got = p.wait_prompt(90)
        if got is None:
            break
        screen = got
    rc, err = p.finish(60)
    assert rc == 0 and err == "", (err, p.out[-3000:])
    assert "Match over" in p.out and "Traceback" not in p.out
    assert re.search(r"the table's stream broke|the server does not answer", p.out)
