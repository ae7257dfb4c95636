"""`taash review FILE [--deal D] [--seat S] [--json]`: a finished deal, trick by trick.

In a terminal it steps through a deal: Enter or ``n`` the next trick, ``b`` back, a number
jumps to that trick, ``o`` shows every hand or only seat S's, ``q`` quits; past a deal's last
trick come the next deal's (without ``--deal``).  With piped input it prints every trick of
the deal (of every deal without ``--deal``) once.  ``--analyse`` adds, under each play, what
``hard`` would have played from that seat's view and what the play cost with all cards open
(taash.review.analyse); ``--json`` prints the deals and that analysis for programs.

Cards and suits are drawn by ``taash.play.screen``.  Exit codes as ``taash record verify``: 2 a
malformed record or a bad flag, 1 an illegal action in it, 3 a fair deal whose proof fails.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from taash.cli_common import fail, read_source, record_checked
from taash.games import game_class
from taash.games.base import Json
from taash.play.screen import Screen, make_console
from taash.review.analyse import BOT_BUDGET_MS, DealAnalysis, analyse_deal
from taash.review.pages import Pages, browse
from taash.review.replay import DealReplay, Trick, load_record, replay_deal


class ReviewCommand(TyperCommand):
    """`taash review` with usage errors as one line on stderr (exit 2)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as e:
            fail(f"review: {e.format_message()}")


def register(app: typer.Typer) -> None:
    app.command("review", cls=ReviewCommand)(review)


def review(
    file: Annotated[str, typer.Argument(metavar="FILE", help="a record (taash-record/1), "
                                        "or - for standard input", show_default=False)],
    deal: Annotated[int | None, typer.Option(
        help="the deal to review, 0-based as in `record verify` (default: every deal)")] = None,
    seat: Annotated[int | None, typer.Option(
        help="whose hand to show, and whose play to analyse (default: every seat)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the deals and their "
                                          "analysis as JSON")] = False,
    analyse: Annotated[bool | None, typer.Option(
        "--analyse/--no-analyse", help="what each play cost (default: with --json only)")]
        = None,
    solver_time: Annotated[float, typer.Option(
        help="seconds the exact solver may spend on each position")] = 2.0,
) -> None:
    """Replay a finished deal from its record, trick by trick, every hand open or one seat's.

    Keys in a terminal: Enter or n next trick, b back, a number jumps to that trick, o every
    hand or only --seat's, q quit.  Piped, it prints every trick once.
    """
    text = read_source(file)
    with record_checked():
        rec, summary = load_record(text)
    n_deals = len(rec["deals"])
    if n_deals == 0:
        fail("the record has no deals to review")
    if deal is not None and not 0 <= deal < n_deals:
        fail(f"--deal must be 0..{n_deals - 1} (the record has {n_deals} deal"
             f"{'s' if n_deals != 1 else ''}), not {deal}")
    seats = game_class(rec["game"]).num_seats
    if seat is not None and not 0 <= seat < seats:
        fail(f"--seat must be 0..{seats - 1} for {rec['game']}, not {seat}")
    if solver_time <= 0:
        fail("--solver-time must be more than 0 seconds")
    do_analyse = as_json if analyse is None else analyse
    which = [deal] if deal is not None else list(range(n_deals))

    def load(i: int) -> tuple[DealReplay, DealAnalysis | None]:
        d = replay_deal(rec, i, summary)
        a = None
        if do_analyse:
            a = analyse_deal(d, None if seat is None else [seat], time_limit=solver_time,
                             budget_ms=BOT_BUDGET_MS, progress=progress_line(i))
        return d, a

    if as_json:
        out = {"game": rec["game"], "options": rec["options"],
               "deals": [deal_json(*load(i)) for i in which]}
        typer.echo(json.dumps(out))
        return
    console = make_console()
    screen = Screen(console, seat if seat is not None else 0, seats)
    page = Pages(screen, seat)
    if file != "-" and sys.stdin.isatty():
        browse(page, which, load)
        return
    for i in which:
        page.whole(*load(i))


def progress_line(deal: int) -> Callable[[int, int], None] | None:
    """A progress line on a terminal's stderr while a deal is analysed."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        sys.stderr.write(f"\ranalysing deal {deal}: {done}/{total} actions{end}")
        sys.stderr.flush()

    return show


# -- JSON ---------------------------------------------------------------------------------------

def deal_json(d: DealReplay, a: DealAnalysis | None) -> dict[str, Json]:
    """A deal for programs: its tricks, every action (with its analysis) and its result."""
    play_from = 1 if d.call is not None and d.steps else 0
    actions = []
    for s in d.steps:
        r = a.for_step(s.index) if a is not None else None
        entry: dict[str, Json] = {"step": s.index, "trick": s.trick, "seat": s.seat,
                                  "action": s.action}
        if a is not None:
            entry["known"] = r.known.as_json() if r is not None and r.known else None
            entry["open"] = r.open.as_json() if r is not None and r.open else None
        actions.append(entry)
    out: dict[str, Json] = {
        "deal": d.deal, "complete": d.complete, "result": dict(d.result),
        "call": None if d.call is None else {"seat": d.call.seat, "suit": d.call.suit,
                                             "first_cards": list(d.call.first_cards)},
        "hands": [list(h) for h in d.positions[play_from].hands],
        "tricks": [trick_json(t) for t in d.tricks],
        "actions": actions,
        "match": None if d.outcome is None else {"winner": d.outcome.winner,
                                                 "draw": d.outcome.draw,
                                                 "reason": d.outcome.reason},
    }
    if a is not None:
        out["solver"] = a.solver
        out["seats"] = [s.as_json() for s in a.seats]
        out["notes"] = list(a.notes)
    return out


def trick_json(t: Trick) -> dict[str, Json]:
    out: dict[str, Json] = {
        "trick": t.number, "leader": t.leader, "winner": t.winner, "steps": list(t.steps),
        "plays": [{"seat": p.seat, "verb": p.verb, "cards": list(p.cards),
                   "face_down": p.face_down} for p in t.plays],
        "won": list(t.won)}
    if t.collector is not None:
        out["collector"] = dict(t.collector)
        out["collected"] = t.collected
    if t.points is not None:
        out["points"] = list(t.points)
    return out
