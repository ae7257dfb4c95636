from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import pytest

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
# browser: the test drives Chromium (it uses the `browser` fixture of tests/web).
# services: the test needs PostgreSQL and Redis (the `pg_url` / `redis_url` fixtures).
# slow: browser tests, and the tests below, each of which took a second or more on a busy
# machine; `./scripts/test -m "not slow"` is the fast loop.  A name of None: the whole module.
SLOW: dict[str, set[str] | None] = {
    "tests/web/test_web.py": None,
    "tests/server/test_scale.py": None,
    "tests/server/test_restart.py": None,
    "tests/server/test_ops.py": None,
    "tests/server/test_notify.py": {"test_your_turn_then_a_reminder"},
    "tests/server/test_http.py": {"test_hard_bot_plays_from_a_worker_process"},
    "tests/bots/test_arena.py": {"test_arena_json_end_to_end", "test_arena_goat_and_2p_text",
                                 "test_arena_ctrl_c_stops_cleanly",
                                 "test_arena_openspiel_ismcts_level"},
    "tests/bots/test_search.py": {
        "test_a_candidate_is_played_on_as_the_rules_of_thumb_would",
        "test_reading_bench_finds_the_chain_reads_hands_better_than_uniform_deals",
        "test_calls_bench_plays_on_only_where_the_trump_calls_differ"},
    "tests/games/test_properties.py": {"test_no_view_shows_a_hidden_card"},
    "tests/test_fair.py": {"test_a_derived_deck_is_a_permutation_of_the_pack_and_reproducible"},
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(str(config.rootpath))
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        browser = "browser" in names
        if browser:
            item.add_marker(pytest.mark.browser)
        if names & {"pg_url", "redis_url"}:
            item.add_marker(pytest.mark.services)
        path = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        slow = SLOW.get(path, set())
        if browser or slow is None or getattr(item, "originalname", item.name) in slow:
            item.add_marker(pytest.mark.slow)



def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def unavailable(what: str) -> NoReturn:
    """A service or program a test needs is missing: skip it, but under CI (CI=true, which
    .ci/run sets) fail, so a broken CI machine cannot pass by skipping."""
    if in_ci():
        pytest.fail(f"{what} (CI=true: a missing service fails the run)", pytrace=False)
    pytest.skip(what)
