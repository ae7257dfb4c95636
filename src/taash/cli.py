"""`taash`: play in a terminal, serve, check and make records, run the arena.

Exit codes: 0 ok, 1 an illegal action, 2 bad input, 3 a fair deal whose proof fails (record
verify).  Errors are one clear line on stderr.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from taash.cli_common import fail, game_and_options, read_source, record_checked
from taash.games.base import RecordError
from taash.record import random_record, verify

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Court Piece, two-player Court Piece and Goat: play, serve, records.")
record_app = typer.Typer(no_args_is_help=True, help="Check and make game records (taash-record/1).")
app.add_typer(record_app, name="record")


@record_app.command("verify")
def record_verify(file: Annotated[str, typer.Argument(help="record file, or - for stdin")]) -> None:
    """Replay a record, check every action and fair deal, and print its summary as JSON."""
    text = read_source(file)
    with record_checked():
        summary = verify(text)
    typer.echo(json.dumps(summary))


@record_app.command("random")
def record_random(
    game: Annotated[str, typer.Option(help="court-piece, court-piece-2p or goat")],
    options: Annotated[str | None, typer.Option(help="game options as JSON")] = None,
    seed: Annotated[int | None, typer.Option(help="seed: the same seed, the same record")] = None,
    deals: Annotated[int | None, typer.Option(min=1, help="stop after this many deals")] = None,
    legal: Annotated[bool, typer.Option("--legal", help="add every seat's legal actions")] = False,
    fair: Annotated[bool, typer.Option("--fair", help="fair deals: a taash-shuffle/1 proof "
                                       "in every deal, made from the seed")] = False,
) -> None:
    """Play a match with uniformly random legal actions and print its record."""
    game, opts = game_and_options(game, options)
    try:
        rec = random_record(game, opts, seed=seed, deals=deals, legal=legal, fair=fair)
    except RecordError as e:
        fail(str(e))
    typer.echo(json.dumps(rec))


# Commands that live beside their subsystem register themselves here: each module named has
# `register(app: typer.Typer) -> None`.
EXTENSIONS: list[str] = ["taash.bots.arena", "taash.play", "taash.review.command", "taash.server",
                         "taash.server.ops.cli", "taash.stats_command"]


def _register_extensions() -> None:
    import importlib

    for name in EXTENSIONS:
        importlib.import_module(name).register(app)


_register_extensions()


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("\ninterrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
