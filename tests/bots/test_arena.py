"""The arena through the real command line (a subprocess), and its figures."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taash.bots.arena import ArenaConfig, confidence, play_deal, report, run
from tests.waiting import wait_until


def taash(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "taash", *args], capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ, PYTHONUNBUFFERED="1"))


@pytest.mark.slow
def test_arena_json_end_to_end() -> None:
    r = taash("arena", "--game", "court-piece", "--team0", "heuristic", "--team1", "random",
              "--deals", "6", "--seed", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["deals"] == 6 and out["boards"] == 3
    assert out["wins"]["team0"] + out["wins"]["team1"] == 6
    assert out["win_rate"] == pytest.approx(out["wins"]["team0"] / 6, abs=1e-4)
    lo, hi = out["ci95"]
    assert 0 <= lo <= out["win_rate"] <= hi <= 1
    assert set(out["ms_per_move"]) == {"easy", "random"}
    again = json.loads(taash("arena", "--game", "court-piece", "--team0", "easy", "--team1",
                             "random", "--deals", "6", "--seed", "3", "--json").stdout)
    assert again["wins"] == out["wins"]  # the same seed, the same boards and bots


@pytest.mark.slow
def test_arena_goat_and_2p_text() -> None:
    r = taash("arena", "--game", "goat", "--team0", "easy", "--team1", "random", "--deals",
              "2", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "win rate" in r.stdout and "eggs" in r.stdout and "ms per move" in r.stdout
    r = taash("arena", "--game", "court-piece-2p", "--team0", "hard", "--team1", "easy",
              "--deals", "2", "--budget-ms", "3", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["moves"]["hard"] > 0


@pytest.mark.parametrize("args", [
    ["--game", "chess", "--team0", "easy", "--team1", "random"],
    ["--game", "goat", "--team0", "expert", "--team1", "random"],
    ["--game", "goat", "--team0", "easy", "--team1", "random", "--options", '{"eggs": 3}'],
    ["--game", "goat", "--team0", "easy", "--team1", "random", "--options", "{not json"],
    ["--game", "goat", "--team0", "easy", "--team1", "random", "--deals", "0"],
])
def test_arena_bad_input_exits_2_with_one_line(args: list[str]) -> None:
    r = taash("arena", *args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def pool_workers(pid: int) -> int:
    """How many processes ``pid`` has forked (same command line: the arena's worker pool)."""
    own = Path(f"/proc/{pid}/cmdline").read_bytes()
    n = 0
    for proc in Path("/proc").iterdir():
        try:
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            n += ppid == pid and (proc / "cmdline").read_bytes() == own
        except (OSError, ValueError, IndexError):  # not a process, or gone meanwhile
            continue
    return n


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.slow
def test_arena_ctrl_c_stops_cleanly() -> None:
    # Ctrl-C as soon as the pool has begun to start its workers (not after a guessed delay):
    # a Ctrl-C inside Pool() used to leave a worker waiting for ever, holding the pipes open.
    # Three times, since that window is short.
    for _ in range(3):
        p = subprocess.Popen([sys.executable, "-m", "taash", "arena", "--game", "court-piece",
                              "--team0", "hard", "--team1", "easy", "--deals", "400",
                              "--jobs", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(lambda p=p: pool_workers(p.pid) >= 1 or p.poll() is not None, timeout=60,
                   what="the arena's first worker")
        assert p.poll() is None, "the arena ended before it was interrupted"
        p.send_signal(signal.SIGINT)
        # every process holding the pipes has exited: no worker outlives its arena
        _out, err = p.communicate(timeout=30)
        assert p.returncode == 130
        assert "Traceback" not in err and "interrupted" in err


def test_duplicate_swaps_teams_on_the_same_deck() -> None:
    cfg = ArenaConfig("court-piece-2p", None, "easy", "random", 2, 7)
    a = play_deal(cfg, 0, False)
    b = play_deal(cfg, 0, True)
    assert (a.board, b.board) == (0, 0) and (a.swapped, b.swapped) == (False, True)
    outs = run(cfg)
    assert [(o.board, o.swapped) for o in outs] == [(0, False), (0, True)]
    r: dict[str, Any] = report(cfg, outs)
    assert r["deals"] == 2


def test_confidence_interval() -> None:
    lo, hi = confidence([1.0, 0.5, 1.0, 0.5], 0.75, 8)
    assert lo < 0.75 < hi
    lo, hi = confidence([1.0], 1.0, 2)  # too few boards: Wilson over deals
    assert 0 < lo < 1 and hi == 1.0


@pytest.mark.slow
def test_arena_openspiel_ismcts_level() -> None:
    pytest.importorskip("pyspiel")
    r = taash("arena", "--game", "court-piece-2p", "--team0", "openspiel-ismcts", "--team1",
              "random", "--deals", "2", "--budget-ms", "5", "--ismcts-ms", "3", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["moves"]["openspiel-ismcts"] > 0 and out["deals"] == 2
    assert out["ismcts_ms"] == 3
