"""A newcomer finds any rule by its RULES.md id with one grep of src/taash/games."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_rule_id_is_named_in_the_core() -> None:
    ids = set(re.findall(r"\b((?:CP|TW|GT)-\d+)\b", (ROOT / "docs" / "RULES.md").read_text()))
    assert len(ids) >= 29
    core = "\n".join(p.read_text() for p in sorted((ROOT / "src/taash/games").rglob("*.py")))
    missing = sorted(i for i in ids if not re.search(rf"\b{re.escape(i)}\b", core))
    assert not missing, f"rule ids not found in src/taash/games: {missing}"
