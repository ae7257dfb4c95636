from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import pytest

# The puzzle miner (taash.server.puzzles_mining) searches every finished match of bots in a
# worker process: off for the suite's servers, in process and `taash serve` alike, so that the
# tables other tests play out cost no mining; the miner's own tests turn it on
# (Settings(no_mining=False), tests/server/puzzles_mining).
os.environ.setdefault("TAASH_NO_MINING", "1")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"


def run_taash(*args: str, input: str | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real `taash` command in a subprocess."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "taash", *args], input=input, text=True,
                          capture_output=True, timeout=timeout, env=env)


@pytest.fixture
def taash() -> Any:
    return run_taash


def load_json(path: Path) -> Any:
    return json.loads(path.read_text())


# -- markers (registered in pyproject; --strict-markers) --------------------------------------
# Each test declares its own: `pytestmark = [pytest.mark.browser, pytest.mark.slow]` in a
# module, or `@pytest.mark.slow` on one test.  The fixtures that need a service must agree with
# the markers, so that `-m "not browser"` or `-m "not postgres"` really leaves them out.
NEEDS = {"browser": "browser", "pg_url": "postgres", "redis_url": "redis"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = []
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        marks = {m.name for m in item.iter_markers()}
        need = {NEEDS[f] for f in names & NEEDS.keys()}
        if "browser" in marks | need:  # a Chromium: never in the fast loop (-m "not slow")
            need.add("slow")
        lack = sorted(need - marks)
        if lack:
            missing.append(f"{item.nodeid}: mark it {', '.join(lack)}")
    if missing:
        raise pytest.UsageError("tests whose fixtures need a marker they do not declare:\n  "
                                + "\n  ".join(missing))


# `slow` is a judgement the test's author makes; the run names the tests that took a second or
# more without it (the fast loop, -m "not slow", should stay fast), as a note, not a failure.
SLOW_SECONDS = 1.0
_unmarked_slow: list[tuple[float, str]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if (report.when == "call" and report.passed and report.duration >= SLOW_SECONDS
            and "slow" not in report.keywords):
        _unmarked_slow.append((report.duration, report.nodeid))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _unmarked_slow:
        terminalreporter.write_sep("-", "took a second or more without @pytest.mark.slow")
        for took, nodeid in sorted(_unmarked_slow, reverse=True)[:20]:
            terminalreporter.write_line(f"{took:6.2f}s {nodeid}")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def unavailable(what: str) -> NoReturn:
    """A service or program a test needs is missing: skip it, but under CI (CI=true, which
    .ci/run sets) fail, so a broken CI machine cannot pass by skipping."""
    if in_ci():
        pytest.fail(f"{what} (CI=true: a missing service fails the run)", pytrace=False)
    pytest.skip(what)
