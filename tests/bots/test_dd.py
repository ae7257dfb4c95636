"""The double-dummy solver (``bench/dd.py``, Bo Haglund's DDS through the ``endplay`` wheel)
that the single-sar benches measure play with, and those benches.  The package reaches DDS in
one place only, the deal review's ``taash.review.dds`` (endplay's public API, imported there on
first use): no bot and nothing else in ``src/`` may import it or ``bench/dd.py`` (checked
here), and the other tests skip where the library does not load."""

from __future__ import annotations

import ast
import importlib.util
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.bots import court as cp
from taash.bots.arena import ArenaConfig, arena_bot, board_match, hash_seed
from taash.games.tricks import SUIT_OF, trick_winner

ROOT = Path(__file__).resolve().parents[2]


def load_dd() -> ModuleType:
    """``bench/dd.py`` as a module (the benches import it as their neighbour ``dd``)."""
    spec = importlib.util.spec_from_file_location("dd", ROOT / "bench" / "dd.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


dd = load_dd()
needs_dds = pytest.mark.skipif(not dd.available(), reason="the DDS library did not load")


def test_nothing_in_the_package_imports_the_solver() -> None:
    """Only the review's DDS module reaches endplay (by import or by a module name given to
    importlib); the bench's solver is reached by nothing in the package."""
    found = []
    allowed = ROOT / "src" / "taash" / "review" / "dds.py"
    for path in sorted((ROOT / "src" / "taash").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and re.fullmatch(r"endplay(\.\w+)*", node.value)):
                names = [node.value]
            bad = [n for n in names if n == "dd" or n.endswith(".dd")
                   or (n.startswith("endplay") and path != allowed)]
            if bad:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {', '.join(bad)}")
    assert not found, found
    assert not (ROOT / "src" / "taash" / "bots" / "dd.py").exists()


def legal(hand: list[int], trick: list[int]) -> list[int]:
    if trick:
        follow = [c for c in hand if SUIT_OF[c] == SUIT_OF[trick[0]]]
        if follow:
            return follow
    return list(hand)


def minimax(hands: list[list[int]], trump: int, leader: int, trick: list[int], side: int) -> int:
    """Tricks ``side`` takes from here with best play by everyone (plain full search)."""
    mover = (leader + len(trick)) % 4
    if not trick and not hands[mover]:
        return 0
    best: int | None = None
    for c in legal(hands[mover], trick):
        hands[mover].remove(c)
        v = after(hands, trump, leader, [*trick, c], side)
        hands[mover].append(c)
        if best is None or (v > best if mover % 2 == side else v < best):
            best = v
    assert best is not None
    return best


def after(hands: list[list[int]], trump: int, leader: int, trick: list[int], side: int) -> int:
    if len(trick) < 4:
        return minimax(hands, trump, leader, trick, side)
    w = (leader + trick_winner(trick, trump)) % 4
    return int(w % 2 == side) + minimax(hands, trump, w, [], side)


@needs_dds
@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 2), st.integers(0, 3),
       st.integers(0, 3), st.integers(0, 3))
def test_double_dummy_matches_full_search(rng: random.Random, k: int, shown: int, leader: int,
                                          trump: int) -> None:
    """Every card's double-dummy value equals a plain minimax over the same position, with
    a trick in progress or not (small endings, so the plain search is quick)."""
    cards = rng.sample(range(52), 4 * k + 4)
    trick, pool = cards[:shown], cards[shown:]
    hands: list[list[int]] = [[] for _ in range(4)]
    for i in range(4):
        s = (leader + i) % 4
        n = k if i < shown else k + 1
        hands[s], pool = pool[:n], pool[n:]
    mover = (leader + shown) % 4
    masks = [sum(1 << c for c in h) for h in hands]
    got, nodes = dd.solve(masks, trump, leader, trick)
    assert nodes >= 0
    want = {}
    for c in legal(hands[mover], trick):
        hands[mover].remove(c)
        want[c] = after(hands, trump, leader, [*trick, c], mover % 2)
        hands[mover].append(c)
    assert got == want
    if not trick:
        best = max(want.values())
        if best:
            assert dd.reaches(masks, trump, leader, best)[0]
        if best < k + 1:
            assert not dd.reaches(masks, trump, leader, best + 1)[0]


SPADES3 = 0b111  # 2S 3S 4S
HEARTS3 = 0b111 << 13


@needs_dds
@pytest.mark.parametrize("hands,trump,leader,trick,why", [
    ([SPADES3, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 5, 0, [], "trump"),
    ([SPADES3, HEARTS3, HEARTS3 << 13, SPADES3], 0, 0, [], "two places"),
    ([SPADES3, HEARTS3, HEARTS3 << 13, 0b11 << 39], 0, 0, [], "sizes"),
    ([SPADES3, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 0, 0, [6], "sizes"),
    ([0b11, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 0, 0, [0], "two places"),
    ([1 << 52, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 0, 0, [], "out of range"),
])
def test_invalid_positions_are_refused_before_the_solver(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hands: list[int],
        trump: int, leader: int, trick: list[int], why: str) -> None:
    """DDS writes dump.txt into the working directory on any error: a bad position is
    refused with a clear error first, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=why):
        dd.solve(hands, trump, leader, trick)
    assert list(tmp_path.iterdir()) == []
    good = [SPADES3, HEARTS3, HEARTS3 << 13, SPADES3 << 3]
    with pytest.raises(ValueError, match="target"):
        dd.check(good, 0, 0, [], 4)  # four tricks asked for, three left
    assert dd.solve(good, 0, 0, [])[0]  # the valid position next to them still solves
    assert list(tmp_path.iterdir()) == []


def reading_shares(out: str) -> dict[str, float]:
    """The 'right' share of each stage line of ``court_decisions.py reading``'s report."""
    shares = {}
    for line in out.splitlines()[1:]:
        words = line.split()
        shares[words[0]] = float(words[words.index("right") + 1].rstrip("%"))
    return shares


@pytest.mark.slow
@needs_dds
def test_reading_bench_finds_the_chain_reads_hands_better_than_uniform_deals(
        tmp_path: Path) -> None:
    """``bench/court_decisions.py``: positions collected from one board, then the hand-reading
    report for the posterior chain and for uniform deals; the chain puts more unseen cards in
    the right hand, and an unknown constant is refused with a clear message."""
    bench = Path(__file__).parents[2] / "bench" / "court_decisions.py"
    pos = tmp_path / "pos.jsonl"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(bench), *args, "--jobs", "1"],
                              capture_output=True, text=True, timeout=300, check=False)

    got = run("collect", "--boards", "1", "--first", "3", "--out", str(pos))
    assert got.returncode == 0, got.stderr
    assert len(pos.read_text().splitlines()) >= 10
    chain = run("reading", str(pos), "--samples", "20")
    uniform = run("reading", str(pos), "--samples", "20", "--uniform")
    assert chain.returncode == uniform.returncode == 0, chain.stderr + uniform.stderr
    assert "settings default" in chain.stdout and "uniform deals" in uniform.stdout
    c, u = reading_shares(chain.stdout), reading_shares(uniform.stdout)
    assert c["all"] > u["all"] > 0
    bad = run("reading", str(pos), "--set", "NO_SUCH=1")
    assert bad.returncode != 0 and "NO_SUCH=1" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.slow
@needs_dds
def test_calls_bench_plays_on_only_where_the_trump_calls_differ() -> None:
    """``bench/court_decisions.py calls``: of boards 20-22 (the bench's seed), only board 21
    gets another trump call from ``hard`` than from the rules of thumb (checked here with the
    bots themselves), so the report counts one board and at most one win for each call."""
    bench = Path(__file__).parents[2] / "bench" / "court_decisions.py"
    cfg = ArenaConfig("court-piece", {}, "hard", "heuristic", 0, 99)
    differ = []
    for board in (20, 21, 22):
        m = board_match(cfg, board)
        caller = m.actors()[0]
        view = m.view(caller)
        mine = arena_bot("court-piece", "hard", hash_seed(99, board, caller, False), None)
        if mine.act(view) != cp.call_trump(view):
            differ.append(board)
    got = subprocess.run([sys.executable, str(bench), "calls", "--boards", "3", "--first", "20",
                          "--jobs", "1"], capture_output=True, text=True, timeout=300,
                         check=False)
    assert got.returncode == 0, got.stderr
    words = re.search(r"^(\d+) of 3 boards .* hard's call (\d), with the rules' call (\d)",
                      got.stdout)
    assert words, got.stdout
    assert int(words[1]) == len(differ) == 1
    assert int(words[2]) <= 1 and int(words[3]) <= 1
