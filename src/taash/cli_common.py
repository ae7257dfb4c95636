"""What every `taash` command shares: one-line errors (exit 2) and reading a game and its options.

Kept apart from `taash.cli` so that the commands living beside their subsystems (play, arena,
serve) can use it without importing the command line itself.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import typer

from taash.fair import NotFair
from taash.games import GAMES
from taash.games.base import RecordError
from taash.record import ReplayError


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``taash: message`` on stderr and exit (2: bad input)."""
    typer.echo(f"taash: {message}", err=True)
    raise typer.Exit(code)


def read_source(file: str) -> str:
    """The text of a file, or of stdin for ``-`` (exit 2 with one line if it cannot be read)."""
    try:
        if file == "-":
            return sys.stdin.read()
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"cannot read {file}: {getattr(e, 'strerror', None) or e}")


def game_and_options(game: str, options: str | None) -> tuple[str, object]:
    """A known game id and its options parsed from JSON and checked by the game (exit 2 with
    one line otherwise); the options are returned as given, defaults not filled in."""
    if game not in GAMES:
        fail(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    opts: object = None
    if options is not None:
        try:
            opts = json.loads(options)
        except ValueError as e:
            fail(f"--options is not JSON: {e}")
    try:
        GAMES[game].check_options(opts, bounded=True)  # a match to be played: bounded
    except RecordError as e:
        fail(str(e))
    return game, opts


@contextmanager
def record_checked() -> Iterator[None]:
    """Checking a record: an illegal action exits 1 with its one line, a malformed record 2,
    a fair deal whose proof fails 3 (RECORD.md's exit codes, as ``record verify`` gives them)."""
    try:
        yield
    except ReplayError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(1) from None
    except RecordError as e:
        fail(f"malformed record: {e}")
    except NotFair as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(3) from None
