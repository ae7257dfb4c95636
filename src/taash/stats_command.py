"""`taash stats RECORD... [--seat S | --player WHO] [--json]`: a player's stats per game from
records (taash.stats), the figures a server's profile shows.

Records are read oldest first in the order given (streaks follow it).  ``--seat`` reads every
record from that seat (default 0: the seat `taash play` gives the person at the keyboard);
``--player`` picks, in each record a server made, the seat of that player id or name (a record
where nobody has it is an error).  Exit codes as ``taash record verify``.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from taash.cli_common import fail, read_source, record_checked
from taash.games import CLASSES
from taash.games.base import Json
from taash.record import load
from taash.stats import GameStats, add_record, seat_of_player

LABELS = {"coats_won": "coats won", "coats_suffered": "coats suffered",
          "courts_won": "courts won", "courts_suffered": "courts suffered",
          "goats": "times the goat", "goats_given": "goats given", "eggs": "eggs",
          "defeat_taken": "defeat points taken (per match)",
          "defeat_given": "defeat points given (per match)",
          "streak": "current streak", "best_streak": "longest winning streak",
          "worst_streak": "longest losing streak"}


def register(app: typer.Typer) -> None:
    app.command("stats")(stats)


def stats(
    records: Annotated[list[str], typer.Argument(metavar="RECORD...", help="record files "
                                                 "(taash-record/1), oldest first; - for stdin")],
    seat: Annotated[int | None, typer.Option(help="read every record from this seat "
                                             "(default 0)")] = None,
    player: Annotated[str | None, typer.Option(help="the player id or name whose seat to read "
                                               "(records made by a server)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """A player's stats per game: matches, deals, coats, courts, goats, eggs, streaks."""
    if seat is not None and player is not None:
        fail("stats: give --seat or --player, not both")
    result: dict[str, GameStats] = {}
    for file in records:
        text = read_source(file)
        with record_checked():
            rec = load(text)
            where = seat if seat is not None else 0
            if player is not None:
                found = seat_of_player(rec, player)
                if found is None:
                    fail(f"{file}: no seat of player {player!r} in this record")
                where = found
            add_record(result, rec, where)
    figures = [result[g].as_json() for g in sorted(result)]
    if as_json:
        typer.echo(json.dumps({"games": figures}))
        return
    console = Console()
    for g in figures:
        console.print(table_of(g))


def game_name(game: str) -> str:
    """The game's name in running text (its id where the core has no such game)."""
    cls = CLASSES.get(game)
    return cls.text_name if cls is not None else game


def table_of(g: dict[str, Json]) -> Table:
    """One game's figures as a Rich table."""
    t = Table(title=game_name(str(g["game"])), title_justify="left")
    t.add_column("")
    t.add_column("played", justify="right")
    t.add_column("won", justify="right")
    t.add_column("lost", justify="right")
    t.add_column("drawn", justify="right")
    m = g["matches"]
    d = g["deals"]
    assert isinstance(m, dict) and isinstance(d, dict)
    t.add_row("matches", *(str(m[k]) for k in ("played", "won", "lost", "drawn")))
    played, won = int(str(d["played"])), int(str(d["won"]))
    eggs = int(str(g["eggs"])) if "eggs" in g else 0  # Goat's eggs: a deal nobody won
    t.add_row("deals", str(played), str(won), str(played - won - eggs),
              str(eggs) if "eggs" in g else "")
    by = g["by_opponent"]
    assert isinstance(by, dict)
    for kind, tally in by.items():
        assert isinstance(tally, dict)
        label = (f"vs {kind.removeprefix('bot:')} bots" if kind.startswith("bot:")
                 else f"vs {kind}")
        t.add_row(label, *(str(tally[k]) for k in ("played", "won", "lost", "drawn")))
    for key, label in LABELS.items():
        if key in g:
            v = g[key]
            t.add_row(label, "—" if v is None else str(v), "", "", "")
    return t
