"""schemathesis over the server's own /openapi.json: requests made from the schema (valid and
not), a few per route, and not one answer is a server error or a status the schema does not
document for that route.  Bounded: ``MAX_EXAMPLES`` per route and phase, a fixed seed, the
live stream left out (it never ends by itself).  It runs as schemathesis's own command (its
pytest plugin does not load under this pytest)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.helpers import Server

pytestmark = pytest.mark.slow

MAX_EXAMPLES = 10


def test_no_server_error_and_no_undocumented_status(tmp_path: Path) -> None:
    st = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    if st is None:
        pytest.skip("schemathesis is not installed (pip install -e '.[dev]')")
    # idle tables rest after 2 s: the tables of bots the fuzzer makes do not play on
    srv = Server(f"sqlite+aiosqlite:///{tmp_path / 's.db'}", "--bot-delay", "0",
                 "--idle-after", "2", log=tmp_path / "s.log").start()
    try:
        run = subprocess.run(
            [st, "run", f"{srv.base}/openapi.json", "--checks",
             "not_a_server_error,status_code_conformance", "--max-examples",
             str(MAX_EXAMPLES), "--seed", "25", "--exclude-path-regex", "/stream$",
             "--phases", "examples,coverage,fuzzing", "--request-timeout", "20",
             "--no-color", "--workers", "1"],
            capture_output=True, text=True, timeout=420, cwd=tmp_path)
    finally:
        srv.stop()
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-6000:]
    log = (tmp_path / "s.log").read_text()
    assert "Traceback" not in log, log[-3000:]
