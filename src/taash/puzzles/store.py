"""Puzzle sets on disk: ``{"format": "taash-puzzles/1", "puzzles": [...]}`` as JSON, gzipped
when the file's name ends in ``.gz``; each puzzle is ``Puzzle.as_json()``'s object
(``taash.puzzles.mine``, docs/puzzles.md).  The shipped set is the package's ``set.json.gz``.

Reading a set for its counts (``stats``) parses the JSON only; ``load_set`` makes ``Puzzle``
objects (which can rebuild their positions through the core).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path

from taash.games import CourtPiece, CourtPiece2P, Goat
from taash.puzzles.themes import COURT_THEMES, GOAT_THEMES

SET_FORMAT = "taash-puzzles/1"
SHIPPED = "set.json.gz"
#: the games puzzles are made for, in order
GAMES = (CourtPiece.game_id, CourtPiece2P.game_id, Goat.game_id)


class SetError(ValueError):
    """A puzzle set that cannot be read (one line: what and where)."""


def shipped_path() -> Path:
    """The shipped set's file inside the installed package."""
    return Path(str(resources.files("taash.puzzles").joinpath(SHIPPED)))


def read_set(path: str | Path | None = None) -> list[dict[str, object]]:
    """The puzzles of a set file (default: the shipped set) as plain JSON objects."""
    p = shipped_path() if path is None else Path(path)
    try:
        raw = p.read_bytes()
        text = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        data = json.loads(text)
    except OSError as e:
        raise SetError(f"cannot read {p}: {e.strerror or e}") from None
    except (ValueError, EOFError, gzip.BadGzipFile) as e:
        raise SetError(f"{p}: not a puzzle set ({e})") from None
    if not isinstance(data, dict) or data.get("format") != SET_FORMAT \
            or not isinstance(data.get("puzzles"), list):
        raise SetError(f"{p}: not a puzzle set (format {SET_FORMAT!r} with a puzzles list)")
    puzzles: list[dict[str, object]] = data["puzzles"]
    for i, x in enumerate(puzzles):
        if not isinstance(x, dict) or not isinstance(x.get("game"), str) \
                or not isinstance(x.get("themes"), list) or not isinstance(x.get("id"), str):
            raise SetError(f"{p}: puzzles[{i}] is not a puzzle (id, game, themes)")
    return puzzles


def write_set(path: str | Path, puzzles: Iterable[Mapping[str, object]]) -> int:
    """Write a set (gzipped if the name ends in .gz), dropping repeated ids; returns the
    count written."""
    seen: set[object] = set()
    out = []
    for x in puzzles:
        if x["id"] not in seen:
            seen.add(x["id"])
            out.append(x)
    text = json.dumps({"format": SET_FORMAT, "puzzles": out}, separators=(",", ":"))
    data = text.encode()
    p = Path(path)
    p.write_bytes(gzip.compress(data, 9, mtime=0) if p.name.endswith(".gz") else data)
    return len(out)


def stats(puzzles: Sequence[Mapping[str, object]]) -> dict[str, dict[str, dict[str, object]]]:
    """``{"games": {game: {"count": N, "themes": {theme: n}}}}``: every game of ``GAMES``
    with each of its themes (0 where none), any other game found after them; themes sorted
    by name."""
    games: dict[str, dict[str, object]] = {}
    themes: dict[str, dict[str, int]] = {}
    for g in GAMES:
        themes[g] = dict.fromkeys(GOAT_THEMES if g == Goat.game_id else COURT_THEMES, 0)
        games[g] = {"count": 0, "themes": themes[g]}
    for x in puzzles:
        g = str(x["game"])
        if g not in games:
            themes[g] = {}
            games[g] = {"count": 0, "themes": themes[g]}
        entry = games[g]
        entry["count"] = int(str(entry["count"])) + 1
        ts = x["themes"]
        assert isinstance(ts, list)
        for t in ts:
            themes[g][str(t)] = themes[g].get(str(t), 0) + 1
    for g, entry in games.items():
        entry["themes"] = dict(sorted(themes[g].items()))
    return {"games": games}


__all__ = ["GAMES", "SET_FORMAT", "SHIPPED", "SetError", "read_set", "shipped_path", "stats",
           "write_set"]
