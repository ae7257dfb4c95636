"""The bots and the adapters import the core's constants instead of keeping copies of them.

A copy drifts: the 52-card ``SUIT_OF``, Goat's ``SHIFT`` and verb ids, the card masks and
points were once written out again in four modules each.  This reads the source of
``taash.bots`` and ``taash.interop`` and fails on any assignment to one of those names (an
import, ``from taash.games.goat import SHIFT``, is what they should do instead).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "taash"
AREAS = ("bots", "interop")
# Names the core defines (taash.games.tricks, taash.games.goat, taash.cards) or that one module
# of the bots defines for everyone (LEVELS, in taash.bots).
CORE_NAMES = frozenset({
    "SUIT_OF", "CP_SUIT", "GOAT_SUIT", "SUIT_MASK", "SUITS", "SUIT_SYMBOLS", "POINTS", "CODES",
    "SHIFT", "CARDS", "LEAD", "BEAT", "PASS", "MOLODKA", "VERBS", "TRUMP_BASE", "ACTION_TEXT",
    "PACK", "BOT_LEVELS", "LEVELS", "defeat_points",
})
# The one place a shared name is defined.
HOME = {"LEVELS": "bots/__init__.py"}


def assigned(tree: ast.AST) -> list[tuple[str, int]]:
    """Every name bound by an assignment or a definition in a module, with its line.

    >>> assigned(ast.parse("A = 1\\nB: int = 2\\nC, (D, E) = 3, (4, 5)\\ndef f(): pass"))
    [('A', 1), ('B', 2), ('C', 3), ('D', 3), ('E', 3), ('f', 4)]
    """
    out: list[tuple[str, int]] = []

    def targets(t: ast.expr, line: int) -> None:
        if isinstance(t, ast.Name):
            out.append((t.id, line))
        elif isinstance(t, ast.Tuple | ast.List):
            for e in t.elts:
                targets(e, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                targets(t, node.lineno)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets(node.target, node.lineno)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.append((node.name, node.lineno))
    return out


def modules() -> list[Path]:
    return sorted(p for area in AREAS for p in (SRC / area).rglob("*.py"))


def test_the_areas_have_modules() -> None:
    assert len(modules()) >= 8, "the source tree was not found: the check would pass vacuously"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_copied_constants(path: Path) -> None:
    rel = str(path.relative_to(SRC))
    copies = [f"{rel}:{line}: {name}" for name, line in assigned(ast.parse(path.read_text()))
              if name in CORE_NAMES and HOME.get(name) != rel]
    assert not copies, ("import these from the core (taash.games.tricks, taash.games.goat, "
                        "taash.cards) or from taash.bots instead of defining them: " +
                        ", ".join(copies))


def test_levels_live_in_taash_bots() -> None:
    from taash.bots import LEVELS

    assert LEVELS == ("random", "easy", "hard")
