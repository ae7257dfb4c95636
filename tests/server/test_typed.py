"""The server is typed at its boundary (issue 42): request bodies are pydantic models,
response bodies and bus messages TypedDicts, and a value that is truly arbitrary JSON from
outside is ``object``, narrowed with ``isinstance`` where it is read.  ``Json`` (the core's
alias of ``Any``) and ``Any`` itself switch mypy's strict checking off wherever they flow, so
their uses in ``src/taash/server/`` may only get fewer: lower the numbers below as they do.

Counted as names in the code (tokens), so a comment or a docstring does not count.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "taash" / "server"

#: ``Json`` in the server: 236 on 2026-12-06 before issue 42's typing; 213 with notify typed,
#: 160 with the bus, voice, ops and store too, 104 with review and social, 45 with accounts, 3
#: with the tables (those of tables/autoplay.py, which someone else was changing then), 0 since
JSON_MAX = 0
#: ``Any`` in the server: 63 on 2026-12-06 before issue 42's typing; 55 with ops and store typed,
#: 45 with review and social, 40 with accounts, 17 with the tables, config, cli and http: each
#: where a library's own signature has it, said in a comment there
ANY_MAX = 17
#: the only modules that may use them (a new use elsewhere is typed, whatever the totals)
JSON_IN: set[str] = set()
ANY_IN = {"cli.py", "config.py", "http/openapi.py", "store/rows.py"}


def names(src: str, wanted: frozenset[str]) -> list[str]:
    """The names among ``wanted`` that the code uses, comments and strings left out.

    >>> names("from typing import Any  # Any more?\\nx: Any = 'Any'\\n", frozenset({"Any"}))
    ['Any', 'Any']
    """
    return [t.string for t in tokenize.generate_tokens(io.StringIO(src).readline)
            if t.type == tokenize.NAME and t.string in wanted]


def counts() -> dict[str, dict[str, int]]:
    """For ``Json`` and ``Any``: how many times each server module uses it."""
    found: dict[str, dict[str, int]] = {"Json": {}, "Any": {}}
    files = sorted(SERVER.rglob("*.py"))
    assert len(files) > 80  # the server's sources, not an empty folder
    for path in files:
        where = path.relative_to(SERVER).as_posix()
        for name in names(path.read_text(encoding="utf-8"), frozenset(found)):
            found[name][where] = found[name].get(where, 0) + 1
    return found


def test_json_and_any_only_get_fewer() -> None:
    found = counts()
    json, any_ = sum(found["Json"].values()), sum(found["Any"].values())
    assert json <= JSON_MAX, (
        f"{json} uses of Json in src/taash/server (at most {JSON_MAX}): type the value (a "
        "TypedDict, a pydantic model, or object narrowed with isinstance)")
    assert any_ <= ANY_MAX, (
        f"{any_} uses of Any in src/taash/server (at most {ANY_MAX}): only where a library's "
        "own signature demands it, with a comment why")


def test_json_and_any_only_where_they_were_left() -> None:
    found = counts()
    assert set(found["Json"]) <= JSON_IN, sorted(set(found["Json"]) - JSON_IN)
    assert set(found["Any"]) <= ANY_IN, sorted(set(found["Any"]) - ANY_IN)
