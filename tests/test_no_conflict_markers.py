"""No merge-conflict marker is ever committed: one left in style.css (2026-12-06) made the
browser read the marker lines as part of the next rule's selector and drop that rule, and no
test noticed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^(<{7}|>{7})( |$)|^={7}$", re.M)


def test_no_tracked_text_file_holds_a_merge_conflict_marker() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    assert len(files) > 100
    found = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".gz", ".png", ".ogg", ".wasm", ".whl", ".ico", ".woff2"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for m in MARKER.finditer(text):
            found.append(f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    assert found == []
