from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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
