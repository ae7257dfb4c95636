"""`taash puzzles make|merge|stats`: make puzzle sets from records or bot deals, merge them,
count them (docs/puzzles.md).

- ``make [RECORD...] --out FILE``: every deal of the records (checked as ``taash record
  verify`` checks them: exit 2 on a malformed one, 1 on an illegal action, 3 on a fair deal
  whose proof fails) is searched for puzzles (``taash.puzzles.mine``), at most ``--per-game``
  of each game.  Without records, deals are played by the ``easy`` bot at every seat, from
  the arena's boards (``taash.bots.arena.board_match``, seeded by ``--seed``), until each game
  of ``--game`` has ``--per-game`` puzzles.  Progress goes to stderr; Ctrl-C writes the
  puzzles found so far and exits 130.
- ``merge SET... --out FILE``: one set of several, each id once, the themes recomputed
  (``taash.puzzles.mine.retag``).
- ``stats [SET] [--json]``: the count per game and theme (default: the shipped set).

``taash --help`` stays light: what this module imports (the bots, the review's replay and its
solver's pure-Python modules) the other commands load anyway; DDS (endplay, seconds to import)
loads only when ``make`` meets a four-player single-sar position.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import Annotated

import typer

from taash.bots import make_bot
from taash.bots.arena import ArenaConfig, board_match, hash_seed
from taash.cli_common import fail, read_source, record_checked
from taash.games.base import IllegalAction, RecordError
from taash.puzzles.mine import Limits, Puzzle, mine_deal, retag, single_deals
from taash.puzzles.store import GAMES, SetError, read_set, stats, write_set
from taash.review.replay import load_record

app = typer.Typer(no_args_is_help=True, help="Puzzles from real deals: make, merge, count.")


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="puzzles")


class Progress:
    """A line on stderr at most every ``every`` seconds (and one at the end)."""

    def __init__(self, every: float = 2.0) -> None:
        self.every = every
        self.start = self.last = time.monotonic()

    def __call__(self, game: str, deals: int, found: int, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= self.every:
            self.last = now
            typer.echo(f"puzzles: {game}: {deals} deals, {found} puzzles, "
                       f"{now - self.start:.0f} s", err=True)


def _record_deals(files: list[str]) -> Iterator[tuple[str, dict[str, object]]]:
    """(game, one-deal record) for every deal of every record file, each checked first."""
    for file in files:
        text = read_source(file)
        with record_checked():
            rec, _ = load_record(text)
        for one in single_deals(rec):
            yield str(rec["game"]), one


def _bot_deals(game: str, seed: int) -> Iterator[dict[str, object]]:
    """One-deal records played by the easy bot at every seat, board after board."""
    cfg = ArenaConfig(game, None, "easy", "easy", 2, seed)
    board = 0
    while True:
        m = board_match(cfg, board)
        bots = [make_bot(game, "easy", seed=hash_seed(seed, board, s, False))
                for s in range(m.num_seats)]
        while not (m.needs_deal() or m.is_over()):
            chosen: tuple[int, str] | None = None
            for s in m.actors():  # as the arena asks them: the first in GT-8 order acts
                a = bots[s].act(m.view(s))
                if a is not None and chosen is None:
                    chosen = (s, a)
            if chosen is None:
                raise RuntimeError("no seat acted")
            m.apply(*chosen)
        yield m.record()
        board += 1


@app.command("make")
def make(
    records: Annotated[list[str] | None, typer.Argument(
        metavar="[RECORD]...", help="record files (taash-record/1), - for stdin; none: deals "
        "played by the easy bot", show_default=False)] = None,
    out: Annotated[str, typer.Option(help="the set to write (gzipped if it ends in .gz)")]
        = "puzzles.json.gz",
    per_game: Annotated[int, typer.Option(min=1, help="puzzles of each game at most")] = 2000,
    seed: Annotated[int, typer.Option(help="the bot deals' seed")] = 1,
    game: Annotated[list[str] | None, typer.Option(
        help="the games to make puzzles for (repeat it; default: all three)")] = None,
    time_limit: Annotated[float, typer.Option(
        min=0.05, help="seconds the solver may spend on each position")] = 1.0,
) -> None:
    """Find puzzles in finished deals and write them as a set."""
    games = list(game or GAMES)
    for g in games:
        if g not in GAMES:
            fail(f"unknown game {g!r} (games: {', '.join(GAMES)})")
    limits = Limits(time_limit=time_limit)
    found: dict[str, list[dict[str, object]]] = {g: [] for g in games}
    seen: set[str] = set()
    deals = dict.fromkeys(games, 0)
    progress = Progress()

    def take(g: str, one: dict[str, object]) -> None:
        deals[g] += 1
        for p in mine_deal(one, limits):
            if p.id not in seen and len(found[g]) < per_game:
                seen.add(p.id)
                found[g].append(p.as_json())
        progress(g, deals[g], len(found[g]))

    def done() -> bool:
        return all(len(found[g]) >= per_game for g in games)

    try:
        if records:
            for g, one in _record_deals(records):
                if g in found and len(found[g]) < per_game:
                    take(g, one)
                if done():
                    break
            for g in games:
                if deals[g]:
                    progress(g, deals[g], len(found[g]), force=True)
        else:
            for g in games:
                for one in _bot_deals(g, seed):
                    if len(found[g]) >= per_game:
                        break
                    take(g, one)
                progress(g, deals[g], len(found[g]), force=True)
    except KeyboardInterrupt:
        n = _write(out, found)
        typer.echo(f"puzzles: {n} found before the interruption, written to {out}", err=True)
        raise typer.Exit(130) from None
    n = _write(out, found)
    typer.echo(f"puzzles: {n} written to {out} ({', '.join(f'{g}: {len(found[g])}' for g in games)}"
               f"; {time.monotonic() - progress.start:.0f} s)", err=True)


def _write(out: str, found: dict[str, list[dict[str, object]]]) -> int:
    try:
        return write_set(out, [p for ps in found.values() for p in ps])
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror or e}")


@app.command("merge")
def merge(
    sets: Annotated[list[str], typer.Argument(metavar="SET...", help="puzzle sets")],
    out: Annotated[str, typer.Option(help="the set to write (gzipped if it ends in .gz)")],
) -> None:
    """Merge puzzle sets into one (each puzzle id once, in the order given), the themes
    recomputed by the current definitions."""
    every = []
    for s in sets:
        for x in _read(s):
            try:
                every.append(retag(Puzzle.from_json(x)).as_json())
            except (ValueError, RecordError, IllegalAction) as e:
                fail(f"{s}: puzzle {x.get('id')}: {e}")
    try:
        n = write_set(out, every)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror or e}")
    typer.echo(f"puzzles: {n} written to {out}", err=True)


def _read(path: str | None) -> list[dict[str, object]]:
    try:
        return read_set(path)
    except SetError as e:
        fail(str(e))


@app.command("stats")
def stats_command(
    file: Annotated[str | None, typer.Argument(metavar="[SET]", help="a puzzle set (default: "
                                               "the shipped set)", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the counts as JSON")] = False,
) -> None:
    """The count of puzzles per game and theme."""
    figures = stats(_read(file))
    if as_json:
        typer.echo(json.dumps(figures))
        return
    write: Callable[[str], object] = sys.stdout.write
    for g, entry in figures["games"].items():
        themes = entry["themes"]
        assert isinstance(themes, dict)
        detail = ", ".join(f"{t} {n}" for t, n in themes.items()) or "no theme"
        write(f"{g}: {entry['count']} puzzles ({detail})\n")


__all__ = ["app", "register"]
