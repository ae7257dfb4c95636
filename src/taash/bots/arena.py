"""The arena: two bot levels play many deals in duplicate format, and we report who is stronger.

Duplicate format cancels the luck of the cards: each deck (a *board*) is played twice with the
same dealer, once with team 0's level at the team-0 seats and once with the teams swapped, so
each level plays every hand.  ``--deals N`` is the number of deals played in all (rounded up to
even: N/2 boards).  The confidence interval is taken over boards (the two deals of a board are
not independent), by the normal approximation.

What a "deal" is and how it scores, per game:

- ``court-piece``: one deal; win = the team that reaches 7 tricks; points = tricks taken
  (single sar) or collected (double sar); coats reported per team.
- ``court-piece-2p``: one deal; seat 0 is team 0 (then seat 1 after the swap); points = what
  the deal scored (1, 2, or 4 for a court).
- ``goat``: one game (to the end of the stock and hands); win = the team with 61+ card points;
  eggs (60-60) count half a win to each team and are also reported apart; points = card points;
  defeat points reported per team.
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)

from taash.bots import ALIASES, LEVELS, BotError, level_name, make_bot
from taash.bots.base import Bot, Json
from taash.cli_common import fail, game_and_options
from taash.games import CourtPiece, CourtPiece2P, Goat, game_class
from taash.games.base import MatchState, RecordError

EXTRA_LEVELS = ("openspiel-ismcts",)
# what the report counts beside the wins, per game (its --json key)
EXTRA_NAMES = {CourtPiece.game_id: "coats", CourtPiece2P.game_id: "courts",
               Goat.game_id: "defeat_points"}


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """One arena run; ``budget_ms`` is the search levels' time per move (None: their default);
    ``ismcts_ms`` overrides it for openspiel-ismcts, which always spends its whole budget while
    the hard level stops early on clear moves, so that the two can be given equal time."""

    game: str
    options: object  # as given: the game checks it (check_options)
    team0: str
    team1: str
    deals: int
    seed: int
    budget_ms: float | None = None
    ismcts_ms: float | None = None


@dataclass(slots=True)
class DealOutcome:
    """One deal's result from arena team 0's side, and the time each level took per move."""

    board: int
    swapped: bool
    score0: float  # 1 win, 0 loss, 0.5 eggs
    eggs: bool
    points: tuple[float, float]
    extra: tuple[int, int]  # coats (Court Piece), courts (2p) or defeat points (Goat)
    ms: dict[str, list[float]] = field(default_factory=dict)


def arena_level(level: str) -> str:
    """The canonical name of an arena level (the bot levels plus OpenSpiel's ISMCTS)."""
    if level in EXTRA_LEVELS:
        return level
    try:
        return level_name(level)
    except BotError:
        known = ", ".join((*LEVELS, *ALIASES, *EXTRA_LEVELS))
        raise BotError(f"unknown level {level!r} (levels: {known})") from None


def arena_bot(game: str, level: str, seed: int, budget_ms: float | None) -> Bot:
    if level == "openspiel-ismcts":
        try:  # an optional extra: imported by name so the core install never needs it
            mod = importlib.import_module("taash.interop.openspiel")
        except ImportError as e:
            raise BotError(f"openspiel-ismcts needs the rl extra (pip install 'taash[rl]'): "
                           f"{e}") from None
        bot: Bot = mod.IsmctsBot(game, seed=seed, budget_ms=budget_ms)
        return bot
    return make_bot(game, level, seed=seed, budget_ms=budget_ms)


def board_deal(cfg: ArenaConfig, board: int) -> tuple[list[str], int, str | None]:
    """The deck, the first seat (dealer, or caller in 2p) and Goat's trump card of a board."""
    cls = game_class(cfg.game)
    rng = random.Random(f"taash-arena:{cfg.seed}:{board}")
    deck = cls.pack().full_deck()
    rng.shuffle(deck)
    first = board % cls.num_seats
    # Goat shows a trump card drawn from the stock (GT-4); the other games have no stock.
    stock = cls.new_match(cfg.options, deal=False, first_seat=first).deal_slots().stock
    trump_card = rng.choice([deck[p] for p in stock]) if stock else None
    return deck, first, trump_card


def board_match(cfg: ArenaConfig, board: int) -> MatchState:
    """A new match of ``cfg``'s game and options with the board's deck dealt."""
    deck, first, trump_card = board_deal(cfg, board)
    m = game_class(cfg.game).new_match(cfg.options, deal=False, first_seat=first)
    m.deal(deck, trump_card) if trump_card else m.deal(deck)
    return m


def play_deal(cfg: ArenaConfig, board: int, swapped: bool) -> DealOutcome:
    """Play one deal of a board; ``swapped`` puts team 0's level at the team-1 seats."""
    n = game_class(cfg.game).num_seats
    m = board_match(cfg, board)

    def side(seat: int) -> int:  # the seat's team in the game's own numbering
        return seat if n == 2 else seat & 1

    levels = [cfg.team1 if (side(s) == 0) == swapped else cfg.team0 for s in range(n)]
    bots = [arena_bot(cfg.game, levels[s], hash_seed(cfg.seed, board, s, swapped),
                      cfg.ismcts_ms if levels[s] in EXTRA_LEVELS and cfg.ismcts_ms
                      else cfg.budget_ms) for s in range(n)]
    ms: dict[str, list[float]] = {lv: [] for lv in levels}
    while not (m.needs_deal() or m.is_over()):
        # Every seat that may act is asked (as if at once); of those that answer, the first
        # in the engine's order (GT-8: nearest the trick's first leader) acts.
        chosen: tuple[int, str] | None = None
        for s in m.actors():
            view = m.view(s)
            t0 = time.perf_counter()
            a = bots[s].act(view)
            ms[levels[s]].append((time.perf_counter() - t0) * 1000)
            if a is not None and chosen is None:
                chosen = (s, a)
        if chosen is None:
            raise RuntimeError("no seat acted")
        m.apply(*chosen)
    result = m.summary()["deals"][0]
    mine = 1 if swapped else 0  # the game's side that arena team 0 sits on
    return outcome(cfg.game, board, swapped, mine, result, ms)


def outcome(game: str, board: int, swapped: bool, mine: int, r: dict[str, Json],
            ms: dict[str, list[float]]) -> DealOutcome:
    """A finished deal's summary entry, turned to arena team 0's point of view."""
    other = 1 - mine
    if game_class(game).deal_unit == "points":  # Goat: card points, defeat points, eggs
        eggs = bool(r["eggs"])
        p = r["points"]
        d = r["defeat"]  # GT-11: only the losing side takes defeat points
        score = 0.5 if eggs else float(d[other] > 0)
        return DealOutcome(board, swapped, score, eggs, (p[mine], p[other]), (d[mine], d[other]),
                           ms)
    win = r["winner"] == mine
    if "scored" in r:  # two-player Court Piece: what the deal scored, and its court
        sc = r["scored"]
        court = int(bool(r["court"]))
        return DealOutcome(board, swapped, float(win), False, (sc[mine], sc[other]),
                           (court * win, court * (not win)), ms)
    t = r["tricks"]
    coat = int(bool(r["coat"]))
    return DealOutcome(board, swapped, float(win), False, (t[mine], t[other]),
                       (coat * win, coat * (not win)), ms)


def hash_seed(seed: int, board: int, seat: int, swapped: bool) -> int:
    """A bot's seed: fixed by the arena seed, the board, the seat and the side."""
    return random.Random(f"taash-bot:{seed}:{board}:{seat}:{int(swapped)}").getrandbits(62)


def _play_task(task: tuple[ArenaConfig, int, bool]) -> DealOutcome:
    return play_deal(*task)


def _ignore_sigint() -> None:
    # The parent handles Ctrl-C and stops the workers; they must not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(cfg: ArenaConfig, jobs: int = 1,
        progress: Callable[[DealOutcome], None] | None = None) -> list[DealOutcome]:
    """Play every deal of the arena (in ``jobs`` processes), calling ``progress`` after each."""
    tasks = [(cfg, b, sw) for b in range((cfg.deals + 1) // 2) for sw in (False, True)]
    out: list[DealOutcome] = []
    if jobs <= 1:
        for task in tasks:
            o = play_deal(*task)
            out.append(o)
            if progress:
                progress(o)
        return out
    # Pool.terminate (on leaving the with block, also by Ctrl-C) stops the workers at once;
    # they ignore SIGINT themselves so that only the parent reports the interruption.  Ctrl-C
    # is held back while the pool starts: a KeyboardInterrupt inside Pool() (which cleans up
    # after Exception only) left its workers running, and its worker-keeping thread forked a
    # new one as the interpreter exited, which then waited on the task queue for ever.  A
    # handler, not a signal mask: Python runs it in the main thread whichever thread the
    # signal reaches (the progress bar has one of its own).
    held: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, _frame: held.append(signum))
    try:
        pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_sigint)
    finally:
        signal.signal(signal.SIGINT, before)
    with pool:
        if held:  # inside the with block, so terminate() runs
            raise KeyboardInterrupt
        for o in pool.imap_unordered(_play_task, tasks, chunksize=1):
            out.append(o)
            if progress:
                progress(o)
    out.sort(key=lambda o: (o.board, o.swapped))
    return out


def report(cfg: ArenaConfig, outs: list[DealOutcome]) -> dict[str, Json]:
    """The arena's figures as plain data (what ``--json`` prints)."""
    n = len(outs)
    wins0 = sum(o.score0 for o in outs)
    eggs = sum(o.eggs for o in outs)
    rate = wins0 / n if n else 0.0
    boards: dict[int, list[float]] = {}
    for o in outs:
        boards.setdefault(o.board, []).append(o.score0)
    per_board = [sum(v) / len(v) for v in boards.values()]
    ci = confidence(per_board, rate, n)
    ms: dict[str, list[float]] = {}
    for o in outs:
        for lv, xs in o.ms.items():
            ms.setdefault(lv, []).extend(xs)
    extra_name = EXTRA_NAMES.get(cfg.game, "coats")
    points = game_class(cfg.game).deal_unit == "points"  # a deal may end in eggs
    return {
        "game": cfg.game, "options": game_class(cfg.game).check_options(cfg.options),
        "team0": cfg.team0, "team1": cfg.team1, "seed": cfg.seed, "budget_ms": cfg.budget_ms,
        "ismcts_ms": cfg.ismcts_ms,
        "deals": n, "boards": len(boards),
        "wins": {"team0": wins0, "team1": n - wins0},
        "eggs": eggs, "eggs_count": "half a win to each team" if points else None,
        "win_rate": round(rate, 4), "ci95": [round(ci[0], 4), round(ci[1], 4)],
        "points_per_deal": {"team0": _mean([o.points[0] for o in outs]),
                            "team1": _mean([o.points[1] for o in outs])},
        extra_name: {"team0": sum(o.extra[0] for o in outs),
                     "team1": sum(o.extra[1] for o in outs)},
        "ms_per_move": {lv: round(statistics.median(xs), 2) if xs else None
                        for lv, xs in ms.items()},
        "ms_p95": {lv: round(percentile(xs, 95), 2) if xs else None for lv, xs in ms.items()},
        "moves": {lv: len(xs) for lv, xs in ms.items()},
    }


def confidence(per_board: list[float], rate: float, n: int) -> tuple[float, float]:
    """95% interval of the win rate: normal over boards, or Wilson over deals if too few."""
    b = len(per_board)
    if b >= 2:
        sd = statistics.stdev(per_board)
        if sd > 0:
            h = 1.96 * sd / math.sqrt(b)
            return max(0.0, rate - h), min(1.0, rate + h)
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    denom = 1 + z * z / n
    mid = (rate + z * z / (2 * n)) / denom
    h = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / denom
    return max(0.0, mid - h), min(1.0, mid + h)


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    i = min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))
    return s[i]


def _mean(xs: list[float]) -> float:
    return round(sum(xs) / len(xs), 3) if xs else 0.0


def text_report(r: dict[str, Json]) -> str:
    lo, hi = r["ci95"]
    extra = next(k for k in ("coats", "courts", "defeat_points") if k in r)
    lines = [
        f"{r['game']}: {r['team0']} (team 0) vs {r['team1']} (team 1), {r['deals']} deals "
        f"({r['boards']} boards, duplicate), seed {r['seed']}",
        f"team 0 deal win rate {r['win_rate']:.1%}  (95% CI {lo:.1%} .. {hi:.1%})  "
        f"wins {r['wins']['team0']:g} - {r['wins']['team1']:g}"
        + (f", eggs {r['eggs']} (half a win each)" if r["eggs_count"] else ""),
        f"points per deal: team 0 {r['points_per_deal']['team0']:.2f}, "
        f"team 1 {r['points_per_deal']['team1']:.2f};  {extra.replace('_', ' ')}: "
        f"team 0 {r[extra]['team0']}, team 1 {r[extra]['team1']}",
    ]
    for lv, med in r["ms_per_move"].items():
        if med is not None:
            lines.append(f"{lv}: median {med:.1f} ms per move, 95th percentile "
                         f"{r['ms_p95'][lv]:.1f} ms ({r['moves'][lv]} moves)")
    return "\n".join(lines)


# -- the command -------------------------------------------------------------------------------

def register(app: typer.Typer) -> None:
    """Add ``taash arena`` to the command line."""

    @app.command("arena")
    def arena(
        game: Annotated[str, typer.Option(help="court-piece, court-piece-2p or goat")],
        team0: Annotated[str, typer.Option(help="level of team 0 (seats 0, 2; seat 0 in 2p)")],
        team1: Annotated[str, typer.Option(help="level of team 1")],
        deals: Annotated[int, typer.Option(help="deals to play in all (pairs of a board)")] = 100,
        seed: Annotated[int, typer.Option(help="the same seed, the same boards")] = 0,
        options: Annotated[str | None, typer.Option(help="game options as JSON")] = None,
        jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
        budget_ms: Annotated[float | None, typer.Option(
            "--budget-ms", help="time per move of hard and openspiel-ismcts")] = None,
        ismcts_ms: Annotated[float | None, typer.Option(
            "--ismcts-ms", help="time per move of openspiel-ismcts alone")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
        quiet: Annotated[bool, typer.Option("--quiet", help="no progress bar")] = False,
    ) -> None:
        """Play two bot levels against each other in duplicate format and report the result."""
        game, opts = game_and_options(game, options)
        try:
            lv0, lv1 = arena_level(team0), arena_level(team1)
            if "openspiel-ismcts" in (lv0, lv1):
                arena_bot(game, "openspiel-ismcts", 0, budget_ms)
        except (RecordError, BotError) as e:
            fail(str(e))
        if deals < 1:
            fail("--deals must be at least 1")
        if jobs < 1:
            fail("--jobs must be at least 1")
        for name, v in (("--budget-ms", budget_ms), ("--ismcts-ms", ismcts_ms)):
            if v is not None and not v > 0:
                fail(f"{name} must be more than 0")
        cfg = ArenaConfig(game, opts, lv0, lv1, deals, seed, budget_ms, ismcts_ms)
        try:
            outs = _run_with_progress(cfg, jobs, quiet)
        except KeyboardInterrupt:  # the line is taash.cli.main's
            raise typer.Exit(130) from None
        r = report(cfg, outs)
        typer.echo(json.dumps(r) if as_json else text_report(r))


def _run_with_progress(cfg: ArenaConfig, jobs: int, quiet: bool) -> list[DealOutcome]:
    if quiet:
        return run(cfg, jobs)
    total = 2 * ((cfg.deals + 1) // 2)
    console = Console(file=sys.stderr)
    wins = [0.0, 0]
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                  console=console, transient=False) as bar:
        task = bar.add_task(f"{cfg.team0} vs {cfg.team1}", total=total, rate="")

        def step(o: DealOutcome) -> None:
            wins[0] += o.score0
            wins[1] += 1
            bar.update(task, advance=1, rate=f"team 0 {wins[0] / wins[1]:.1%}")

        return run(cfg, jobs, step)
