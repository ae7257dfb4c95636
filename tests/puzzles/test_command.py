"""`taash puzzles make|merge|stats` end to end, in subprocesses."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from taash.games import CourtPiece2P
from taash.puzzles.mine import Puzzle, check
from taash.puzzles.store import GAMES, read_set
from taash.puzzles.themes import COURT_THEMES, GOAT_THEMES
from taash.record import random_record
from tests.conftest import run_taash

pytestmark = pytest.mark.slow  # subprocesses and the solver


def shape_ok(figures: dict[str, object]) -> None:
    games = figures["games"]
    assert isinstance(games, dict)
    assert list(games)[:3] == list(GAMES)
    for entry in games.values():
        assert set(entry) == {"count", "themes"}
        assert isinstance(entry["count"], int)
        assert all(isinstance(n, int) and 0 <= n <= entry["count"]
                   for n in entry["themes"].values())
    assert set(games[GAMES[0]]["themes"]) == set(games[GAMES[1]]["themes"]) == set(COURT_THEMES)
    assert set(games[GAMES[2]]["themes"]) == set(GOAT_THEMES)


def test_make_from_records_then_stats(tmp_path: Path) -> None:
    game = CourtPiece2P.game_id
    rec = tmp_path / "match.json"
    rec.write_text(json.dumps(random_record(game, seed=5, deals=3)))
    out = tmp_path / "set.json.gz"
    r = run_taash("puzzles", "make", str(rec), "--out", str(out), "--per-game", "3")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert f"puzzles: {game}:" in r.stderr  # the progress, on stderr
    puzzles = [Puzzle.from_json(x) for x in read_set(out)]  # type: ignore[arg-type]
    assert 1 <= len(puzzles) <= 3
    assert {p.game for p in puzzles} == {game}
    assert all(check(p) is None for p in puzzles)
    assert json.loads(gzip.decompress(out.read_bytes()))["format"] == "taash-puzzles/1"
    s = run_taash("puzzles", "stats", str(out), "--json")
    assert s.returncode == 0, s.stderr
    figures = json.loads(s.stdout)
    shape_ok(figures)
    assert figures["games"][game]["count"] == len(puzzles)
    assert figures["games"][GAMES[2]]["count"] == 0


def test_make_with_bot_deals_and_merge(tmp_path: Path) -> None:
    game = CourtPiece2P.game_id
    a, b, both = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "both.json"
    for seed, out in ((1, a), (2, b)):
        r = run_taash("puzzles", "make", "--game", game, "--per-game", "2", "--seed", str(seed),
                      "--out", str(out))
        assert r.returncode == 0, r.stderr
        assert len(read_set(out)) == 2
    r = run_taash("puzzles", "merge", str(a), str(b), str(a), "--out", str(both))
    assert r.returncode == 0, r.stderr
    ids = [x["id"] for x in read_set(both)]
    assert len(ids) == len(set(ids)) == len({x["id"] for x in read_set(a) + read_set(b)})


def test_stats_of_the_shipped_set() -> None:
    r = run_taash("puzzles", "stats", "--json")
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout)
    shape_ok(figures)
    assert all(figures["games"][g]["count"] > 0 for g in GAMES)
    text = run_taash("puzzles", "stats")
    assert text.returncode == 0 and all(f"{g}: " in text.stdout for g in GAMES)


@pytest.mark.parametrize("content", ["{not json", '{"game": "court-piece"}', '[1, 2]'])
def test_a_malformed_record_exits_2_with_one_line(tmp_path: Path, content: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    r = run_taash("puzzles", "make", str(bad), "--out", str(tmp_path / "x.json"))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("taash: malformed record"), r.stderr
    assert not (tmp_path / "x.json").exists()


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    for args in (["make", "--game", "chess", "--out", str(tmp_path / "x")],
                 ["stats", str(tmp_path / "missing.json.gz")],
                 ["make", str(tmp_path / "missing.json"), "--out", str(tmp_path / "x")]):
        r = run_taash("puzzles", *args)
        assert r.returncode == 2, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    (tmp_path / "notaset.json").write_text('{"format": "other"}')
    r = run_taash("puzzles", "stats", str(tmp_path / "notaset.json"))
    assert r.returncode == 2 and "not a puzzle set" in r.stderr


def test_ctrl_c_writes_what_was_found_and_exits_130(tmp_path: Path) -> None:
    out = tmp_path / "part.json"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "taash", "puzzles", "make", "--game",
                             CourtPiece2P.game_id, "--per-game", "100000", "--out", str(out)],
                            stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first progress line: it is mining
    assert first.startswith("puzzles: "), first
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    assert proc.wait(timeout=120) == 130
    assert "Traceback" not in rest
    assert "found before the interruption" in rest
    assert isinstance(read_set(out), list)
