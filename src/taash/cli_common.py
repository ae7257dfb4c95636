"""What every `taash` command shares: one-line errors (exit 2) and reading a game and its options.

Kept apart from `taash.cli` so that the commands living beside their subsystems (play, arena,
serve) can use it without importing the command line itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer

from taash.games import GAMES
from taash.games.base import RecordError


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``taash: message`` on stderr and exit (2: bad input)."""
    typer.echo(f"taash: {message}", err=True)
    raise typer.Exit(code)


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
    from taash.fair import NotFair
    from taash.record import ReplayError

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
