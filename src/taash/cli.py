"""`taash`: play in a terminal, serve, check and make records, run the arena.

Exit codes: 0 ok, 1 an illegal action, 2 bad input, 3 a fair deal whose proof fails (record
verify).  Errors are one clear line on stderr.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from taash import stats_command
from taash.bots import arena
from taash.cli_common import fail, game_and_options, read_source, record_checked
from taash.fairplay import command as fairplay_command
from taash.games.base import RecordError
from taash.play import command as play_command
from taash.play import event_command
from taash.record import random_record, verify
from taash.review import command as review_command


def _registers(module: str) -> Callable[[typer.Typer], None]:
    """``register(app)`` of a command's module, imported only when it is called (see LAZY)."""

    def register(app: typer.Typer) -> None:
        importlib.import_module(module).register(app)

    return register


@dataclass(frozen=True, slots=True)
class Lazy:
    """A command whose module is imported when it runs: ``register(app)`` adds it (with the
    other commands of its module), ``summary`` is the first paragraph of its help."""

    register: Callable[[typer.Typer], None]
    summary: str


#: The server's commands: their modules load FastAPI, SQLAlchemy, Alembic and uvicorn (about
#: half a second), which `taash --help`, `play`, `record` and the rest never need; and the
#: puzzles' (the miner and the solver).  `taash --help` lists them by their summary
#: (tests/test_cli.py holds it to the command's own help).
LAZY: dict[str, Lazy] = {
    "serve": Lazy(_registers("taash.server.cli"),
                  "Run the game server: HTTP API, live channel and web interface."),
    "backup": Lazy(_registers("taash.server.ops.cli"),  # SQLAlchemy and the store
                   "Back the database up while the server runs (SQLite's online backup, or "
                   "pg_dump)."),
    "restore": Lazy(_registers("taash.server.ops.cli"),
                    "Restore a backup into a database (stop the server first), then upgrade "
                    "it."),
    "db": Lazy(_registers("taash.server.ops.cli"),
               "Look after the server's database: upgrade, check, copy."),
    "moderator": Lazy(_registers("taash.server.ops.cli"),
                      "Grant, revoke and list the moderator role (fair play's review queue)."),
    # the puzzles' solver and miner (DDS where it applies)
    "puzzles": Lazy(_registers("taash.puzzles.command"),
                    "Puzzles from real deals: make, merge, count."),
}
#: the order `taash --help` lists the commands in (any other last)
ORDER = ("arena", "play", "event", "review", "puzzles", "fairplay", "serve", "backup", "restore",
         "stats", "record", "db", "moderator")


class Commands(TyperGroup):
    """`taash` itself: a lazy command stands in the list by its summary until it is run."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        every = {**self.commands, **{name: typer.core.TyperCommand(name, help=lazy.summary)
                                     for name, lazy in LAZY.items()}}
        rank = {name: i for i, name in enumerate(ORDER)}
        self.commands = {name: every[name]
                         for name in sorted(every, key=lambda n: rank.get(n, len(ORDER)))}
        self.lazy = set(LAZY)

    def load(self, name: str) -> None:
        """Import a lazy command's module and put its commands in place of their summaries."""
        own = typer.Typer()
        LAZY[name].register(own)
        for loaded, command in typer.main.get_group(own).commands.items():
            self.commands[loaded] = command
            self.lazy.discard(loaded)

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name in self.lazy:
            self.load(name)
            command = self.commands[name]
        return name, command, rest


app = typer.Typer(cls=Commands, add_completion=False, no_args_is_help=True,
                  pretty_exceptions_enable=False,
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


# Commands that live beside their subsystem register themselves: `register(app)`.
for module in (arena, play_command, review_command, stats_command, event_command,
               fairplay_command):
    module.register(app)


def main() -> None:
    """The commands; Ctrl-C is one line, ``taash: interrupted``, and exit code 130 wherever it
    lands: in a command that stops for it (``raise typer.Exit(130)``, saying nothing), or
    anywhere else (typer turns a KeyboardInterrupt into exit code 130 without a word)."""
    try:
        app()
    except KeyboardInterrupt:
        pass
    except SystemExit as e:
        if e.code != 130:
            raise
    typer.echo("taash: interrupted", err=True)
    sys.exit(130)


if __name__ == "__main__":
    main()
