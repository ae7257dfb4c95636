"""The package's import graph, measured (issue 42): which modules import each other in a
circle, and how many imports hide inside functions to dodge one.

The layers' rules are import-linter contracts (pyproject's [tool.importlinter], checked by
``lint-imports`` in scripts/test).  What those cannot say is "no circle at all"; this does:
no circle of imports that run (each module imports on its own), and none with the imports made
for type annotations counted too (the last one, a table's room and its parts, went on
2026-12-06).  Imports inside functions may only get fewer: lower the number below as they do;
the goal is at most 15 (optional extras only).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp

SRC = Path(__file__).resolve().parents[1] / "src" / "taash"

#: imports inside functions (90 on 2026-12-06 in the morning, 86 after access.py, 79 at noon;
#: 10 once the imports that dodged nothing moved up and the server's commands loaded lazily)
INNER_IMPORTS_MAX = 10


def circles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The strongly connected groups of two or more modules (Tarjan's algorithm, iterative).

    >>> g = grimp.ImportGraph()
    >>> for a, b in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")]:
    ...     g.add_import(importer=a, imported=b)
    >>> [sorted(c) for c in circles(g)]
    [['p.a', 'p.b', 'p.c']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w)))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        group.add(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        out.append(group)
    return out


def test_no_module_imports_itself_back_when_it_runs() -> None:
    """Imports that run (those under ``if TYPE_CHECKING`` left out): no circle at all, so
    every module can be imported on its own, first, in any order."""
    graph = grimp.build_graph("taash", exclude_type_checking_imports=True, cache_dir=None)
    assert len(graph.modules) > 100
    assert [sorted(c) for c in circles(graph)] == []


def test_no_import_circle_at_all_type_only_imports_included() -> None:
    """With the imports made only for type annotations too (``if TYPE_CHECKING``): no circle
    anywhere.  Where a part needs something of its owner (a room's autoplay, feed, wire and
    presence; the hub's services), it types what it needs as a ``Protocol`` or is handed a
    callable, and imports nothing that imports it back."""
    graph = grimp.build_graph("taash", cache_dir=None)  # a cache can hold an old graph
    assert len(graph.modules) > 100  # the package was found: the check is not vacuous
    assert "taash.server.tables.room" in graph.modules
    assert [sorted(c) for c in circles(graph)] == []


def inner_imports() -> list[str]:
    """Each import written inside a function, as ``path:line``."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        seen: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Import | ast.ImportFrom) and sub.lineno not in seen:
                        seen.add(sub.lineno)
                        out.append(f"{path.relative_to(SRC)}:{sub.lineno}")
    return out


def test_imports_inside_functions_only_get_fewer() -> None:
    found = inner_imports()
    assert len(list(SRC.rglob("*.py"))) > 100  # the source was found: the count means something
    assert len(found) <= INNER_IMPORTS_MAX, (
        f"{len(found)} imports inside functions (at most {INNER_IMPORTS_MAX}): import at the "
        f"top of the module, or break the circle that stops you")


# -- issue 42's rules for sizes and game ids ---------------------------------------------------

#: game-id literals ("court-piece", "court-piece-2p", "goat") in Python outside taash.games, the
#: whole package counted, the server included: 131 on 2026-12-06 (117 outside the server), 27
#: after the descriptor's capabilities (13 outside the server: doctest examples and two
#: defaults; 14 in the server), 15 once push notices named games from the page's words.
GAME_ID_LITERALS_MAX = 15
GAME_ID = re.compile(r"[\"'](court-piece-2p|court-piece|goat)[\"']")

#: the same in the page's JavaScript (src/taash/web, vendored files aside): 25 on 2026-12-06;
#: 4 once the page read each game's ranks, shown trump card and card sets from its descriptor
#: (catalogue.js): the renderers' catalogue (games/index.js), the new table's icons
#: (home_new_table.js) and a Goat
#: chat phrase that shares the game's name.
WEB_GAME_ID_LITERALS_MAX = 4

MODULE_LINES_MAX = 400
CLASS_LINES_MAX = 250
#: the server's modules and classes over those sizes, by file name (wherever the file moves in
#: the server) and class name: none (the last, room.py's Room, 292 lines on 2026-12-06, gave
#: its live connections to connections.Connections and its seeds to seeds.py)
SERVER_OVERSIZE: set[str] = set()


def game_id_literals() -> list[str]:
    """Each game-id string literal outside taash.games, as ``path:line``."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "games":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out += [f"{rel}:{n}"] * len(GAME_ID.findall(line))
    return out


def test_game_ids_are_written_out_only_in_defaults_and_catalogues() -> None:
    """Outside taash.games no code branches on a game id: it asks the game's class
    (``shows_trump_card``, ``plays_card_sets``, ``deal_unit``, ``seat_word``, ``teams``...)
    or a registry keyed by the classes' ids."""
    found = game_id_literals()
    assert len(found) > 5  # the source was read (doctest examples use the ids)
    assert len(found) <= GAME_ID_LITERALS_MAX, (
        f"{len(found)} game-id literals outside taash.games (at most {GAME_ID_LITERALS_MAX}): "
        f"ask the game's class instead: {found}")


def web_game_id_literals() -> list[str]:
    """Each game-id string literal in the page's JavaScript, as ``path:line``."""
    out = []
    for path in sorted((SRC / "web").rglob("*.js")):
        rel = path.relative_to(SRC)
        if "vendor" in rel.parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out += [f"{rel}:{n}"] * len(GAME_ID.findall(line))
    return out


def test_the_page_asks_the_games_descriptor_not_their_ids() -> None:
    """The page sorts a hand, checks a fair deal, opens the rules and words a result from what
    each game's descriptor says (GET /api/games: catalogue.js), not from its id."""
    found = web_game_id_literals()
    assert found  # the page was read (the renderers' catalogue names each game)
    assert len(found) <= WEB_GAME_ID_LITERALS_MAX, (
        f"{len(found)} game-id literals in the page (at most {WEB_GAME_ID_LITERALS_MAX}): "
        f"read the game's descriptor instead: {found}")


#: the page's modules and classes over those sizes (src/taash/web): none (TableView, the review,
#: the home screen and voice were split along their seams: the board, the messages, the
#: seating, the acts; the deal drawn, the analysis; the new table, my tables, joining, the
#: player; the peer, the panel)
WEB_OVERSIZE: set[str] = set()
JS_CLASS = re.compile(r"^(?:export )?class (\w+)")


def web_oversize() -> list[str]:
    """The page's modules over MODULE_LINES_MAX lines and classes (from ``class X`` to the
    first line that closes at the margin) over CLASS_LINES_MAX, with their line counts."""
    out = []
    for path in sorted((SRC / "web").rglob("*.js")):
        rel = path.relative_to(SRC / "web").as_posix()
        if "vendor" in rel.split("/"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > MODULE_LINES_MAX:
            out.append(f"{rel} ({len(lines)} lines)")
        for n, line in enumerate(lines):
            m = JS_CLASS.match(line)
            if m:
                end = next(k for k in range(n, len(lines)) if lines[k].startswith("}"))
                if end - n + 1 > CLASS_LINES_MAX:
                    out.append(f"{rel}:{m.group(1)} ({end - n + 1} lines)")
    return out


def test_the_pages_modules_and_classes_are_sizes_a_reader_can_hold() -> None:
    found = web_oversize()
    new = [f for f in found if f.split(" (")[0] not in WEB_OVERSIZE]
    assert new == [], f"split these along a seam a reader can hold: {new}"


def oversize() -> list[str]:
    """Modules over MODULE_LINES_MAX lines and classes over CLASS_LINES_MAX, as ``path`` and
    ``path:Class`` with their line counts."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MODULE_LINES_MAX:
            out.append(f"{rel} ({lines} lines)")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > CLASS_LINES_MAX:
                    out.append(f"{rel}:{node.name} ({size} lines)")
    return out


def test_no_module_over_400_lines_nor_class_over_250() -> None:
    found = oversize()
    outside = [f for f in found if not f.startswith(("server/", "web/"))]
    assert outside == [], f"split these along a seam a reader can hold: {outside}"
    server = [f.split(" (")[0] for f in found if f.startswith("server/")]
    new = [f for f in server if f.rpartition("/")[2] not in SERVER_OVERSIZE]
    assert new == [], f"the server's oversized modules and classes may only go: {new}"
