"""The `taash play` command: flags, the match and its bots, exit codes."""

from __future__ import annotations

import random
import sys
from enum import StrEnum
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from taash.bots import Bot, make_bot
from taash.cli_common import fail, game_and_options
from taash.games import GAMES, OptionError, new_match
from taash.play.screen import Screen, make_console
from taash.play.table import Table


class Level(StrEnum):
    easy = "easy"
    hard = "hard"
    random = "random"


class PlayCommand(TyperCommand):
    """`taash play` with usage errors as one line on stderr (exit 2), not a help panel."""

    # (ctx is the Context of typer's vendored click, which typer does not export)
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as e:
            fail(f"play: {e.format_message()}")


def register(app: typer.Typer) -> None:
    app.command("play", cls=PlayCommand)(play)


def play(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="court-piece, court-piece-2p or goat", show_default=False)] = None,
    options: Annotated[str | None, typer.Option(
        help='game options as JSON, e.g. \'{"sar": "double"}\'')] = None,
    seat: Annotated[int | None, typer.Option(
        help="your seat (0 is the first seat; at a server, yours there)",
        show_default=False)] = None,
    level: Annotated[Level, typer.Option(help="the bots' level")] = Level.easy,
    seed: Annotated[int | None, typer.Option(
        help="seed for the deals and the bots: the same seed, the same cards")] = None,
    pause: Annotated[float | None, typer.Option(
        help="seconds to wait after each bot move (default 0.6 in a terminal, else 0)")] = None,
    server: Annotated[str | None, typer.Option(
        help="play at this taash server's table instead (http://host:port)",
        show_default=False)] = None,
    token: Annotated[str | None, typer.Option(
        envvar="TAASH_TOKEN", help="at a server: your personal API token (made on the "
        "site's account panel), or a seat's token; or TAASH_TOKEN", show_default=False)] = None,
    table: Annotated[str | None, typer.Option(
        help="at a server: the table's id", show_default=False)] = None,
    invite: Annotated[str | None, typer.Option(
        help="at a server: an invite link; its seat becomes yours", show_default=False)] = None,
    tournament: Annotated[str | None, typer.Option(
        help="at a server: a tournament's id; shows it and plays your table of the round",
        show_default=False)] = None,
    plain: Annotated[bool, typer.Option(
        help="for a screen reader: no colour or escape codes, cards in words, line by line")]
    = False,
) -> None:
    """Play a whole match in the terminal against bots, or at a server's table.

    Type a card (AS, 10h), its number in your hand, or a full action (trump:H, lead:9H,KH);
    ? for help and your legal moves, hint for a suggestion, q to quit.

    At a server: taash play --server URL --token TOKEN --table ID [--seat S], or
    taash play --server URL --invite LINK, or
    taash play --server URL --token TOKEN --tournament ID (your table of the round).
    """
    if tournament is not None and (server is None or table is not None or invite is not None):
        fail("play: --tournament needs --server URL (and no --table or --invite)")
    if server is not None or invite is not None:
        if game is not None or options is not None or seed is not None:
            fail("play: at a server the table decides the game, options and seed")
        if pause is not None and pause < 0:
            fail("--pause must be 0 or more seconds")
        # here, not at the top: httpx (remote play only) adds ~0.08 s to every `taash` start
        from taash.play.remote import play_remote

        raise typer.Exit(play_remote(server, token, table, seat, invite,
                                     0.0 if pause is None else pause, plain=plain,
                                     tournament=tournament))
    if table is not None:
        fail("play: --table is for a server's table: add --server URL")
    seat = 0 if seat is None else seat
    if game is None:
        fail(f"play: which game? ({', '.join(GAMES)})")
    game, opts = game_and_options(game, options)
    try:
        match = new_match(game, opts, seed=seed)
    except OptionError as e:
        fail(str(e))
    seats = match.num_seats
    if not 0 <= seat < seats:
        fail(f"--seat must be 0..{seats - 1} for {game}, not {seat}")
    if pause is None:
        pause = 0.6 if sys.stdout.isatty() else 0.0
    if pause < 0:
        fail("--pause must be 0 or more seconds")
    base = seed if seed is not None else random.randrange(1 << 30)
    bots: dict[int, Bot] = {s: make_bot(game, level.value, base * 10 + s + 1)
                            for s in range(seats) if s != seat}
    screen = Screen(make_console(plain), seat, seats, pause, plain=plain)
    board = Table(match, screen, bots, hint_seed=base * 10)
    try:
        code = board.run()
    except KeyboardInterrupt:
        screen.console.print()  # the line is taash.cli.main's
        raise typer.Exit(130) from None
    raise typer.Exit(code)
