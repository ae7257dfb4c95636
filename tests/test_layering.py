"""Rules live in the core: everything else imports its constants and rules instead of keeping
copies, and the core itself does no I/O.

A copy drifts: the 52-card ``SUIT_OF``, Goat's ``SHIFT`` and verb ids, the card masks and
points were once written out again in four modules each, the trick's winner and the double-sar
collector recomputed, the deal's layout sliced as ``deck[16:36]``.  This reads the source of
every module outside the core (``taash.games`` and ``taash.cards``) and fails on any assignment
or definition of one of those names (an import, ``from taash.games.goat import SHIFT``, is
what they should do instead) and on any slice of a deck at a fixed position
(``state.deal_slots()`` says where cards go).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "taash"
CORE = ("games", "cards.py")
# Names the core defines (taash.games.tricks, taash.games.goat, taash.cards) or that one module
# of the bots defines for everyone (LEVELS, in taash.bots).
CORE_NAMES = frozenset({
    "SUIT_OF", "CP_SUIT", "GOAT_SUIT", "RANK_OF", "SUIT_MASK", "SUITS", "SUIT_SYMBOLS", "POINTS",
    "CODES", "SHIFT", "CARDS", "LEAD", "BEAT", "PASS", "MOLODKA", "VERBS", "BEATEN", "DEALT",
    "STOCK", "TRUMP_BASE", "ACTION_TEXT", "PACK", "BOT_LEVELS", "LEVELS", "defeat_points",
    "trick_winner", "best_of", "collect_step",
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
    """Every module outside the core (the migrations are frozen history, not code to share)."""
    return sorted(p for p in SRC.rglob("*.py")
                  if p.relative_to(SRC).parts[0] not in CORE and "migrations" not in p.parts)


def core_modules() -> list[Path]:
    return sorted([*(SRC / "games").rglob("*.py"), SRC / "cards.py"])


def test_the_areas_have_modules() -> None:
    assert len(modules()) >= 40, "the source tree was not found: the check would pass vacuously"
    assert len(core_modules()) >= 10


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_no_copied_constants(path: Path) -> None:
    rel = str(path.relative_to(SRC))
    copies = [f"{rel}:{line}: {name}" for name, line in assigned(ast.parse(path.read_text()))
              if name in CORE_NAMES and HOME.get(name) != rel]
    assert not copies, ("import these from the core (taash.games.tricks, taash.games.goat, "
                        "taash.cards) or from taash.bots instead of defining them: " +
                        ", ".join(copies))


def deck_slices(tree: ast.AST) -> list[int]:
    """Lines slicing something called ``deck`` at a fixed position other than its ends.

    >>> deck_slices(ast.parse("a = deck[16:36]\\nb = st.deck[st.stock_pos:]\\nc = deck[:]"))
    [1]
    """
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice)
            and (n.value.id if isinstance(n.value, ast.Name) else
                 n.value.attr if isinstance(n.value, ast.Attribute) else "") == "deck"
            and any(isinstance(b, ast.Constant) and b.value not in (None, 0)
                    for b in (n.slice.lower, n.slice.upper))]


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_deck_positions_come_from_the_core(path: Path) -> None:
    """Which positions of a deck go to which seat or the stock is ``state.deal_slots()``."""
    lines = deck_slices(ast.parse(path.read_text()))
    assert not lines, (f"{path.relative_to(SRC)} slices a deck by position at lines {lines}: "
                       "use the core's deal_slots()")


def test_levels_live_in_taash_bots() -> None:
    from taash.bots import LEVELS

    assert LEVELS == ("random", "easy", "hard")


# What a pure rules core must not reach for (DESIGN.md: no I/O, no clocks).
IO_MODULES = frozenset({"os", "io", "sys", "time", "socket", "asyncio", "pathlib", "subprocess",
                        "json", "sqlite3", "datetime", "logging", "threading", "multiprocessing"})


def imports(tree: ast.AST) -> set[str]:
    """Top-level names of the modules a module imports (absolute imports; relative ones stay
    inside the package), and every ``taash.`` module in full.

    >>> tree = ast.parse("import os.path\\nfrom taash.server import app\\nfrom . import b")
    >>> sorted(imports(tree))
    ['os', 'taash', 'taash.server']
    """
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                out.add(a.name.split(".")[0])
                if a.name.startswith("taash."):
                    out.add(a.name)
        elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
            out.add(n.module.split(".")[0])
            if n.module.startswith("taash."):
                out.add(n.module)
    return out


@pytest.mark.parametrize("path", core_modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_the_core_does_no_io(path: Path) -> None:
    found = imports(ast.parse(path.read_text()))
    bad = sorted(m for m in found if m in IO_MODULES
                 or (m.startswith("taash.") and not m.startswith(("taash.games", "taash.cards"))))
    assert not bad, f"{path.relative_to(SRC)} imports {bad}: the rules core does no I/O"
