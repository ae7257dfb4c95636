"""`taash fairplay RECORDS... [--player NAME] [--json]`: who plays as if they saw the cards.

For each player (by the name a table's record gives the seat, else the file and seat) and each
partnership: the decisions judged, the opportunities (hard's choice from the seat's view was
not among the best actions with every card open), the hits (the player played a best action
anyway) against what an honest player would hit, per position kind, the p-value against the
honest reference population and the deals that weigh most (taash.fairplay.detect).  A flag is a
reason for a person to look, never a verdict.

Exit 0 whenever it ran, whatever it found; 2 with one line on a malformed record or a bad flag
(1 an illegal action and 3 a fair deal whose proof fails, as ``taash record verify``).  Progress
goes to stderr (``--quiet``: none).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from taash.cli_common import fail, read_source, record_checked
from taash.fairplay.detect import (
    ALPHA,
    SOLVE_MS,
    Scan,
    Verdict,
    load_reference,
    scan_record,
    verdicts,
)
from taash.games.base import Json
from taash.review.replay import load_record


class FairplayCommand(TyperCommand):
    """`taash fairplay` with usage errors as one line on stderr (exit 2)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as e:
            fail(f"fairplay: {e.format_message()}")


def register(app: typer.Typer) -> None:
    app.command("fairplay", cls=FairplayCommand)(fairplay)


def fairplay(
    records: Annotated[list[str], typer.Argument(metavar="RECORDS...", help="records "
                                                 "(taash-record/1), - for standard input",
                                                 show_default=False)],
    player: Annotated[str | None, typer.Option(
        help="only this player (and their partnerships)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    alpha: Annotated[float, typer.Option(
        help="flag at or below this p-value")] = ALPHA,
    reference: Annotated[str | None, typer.Option(
        help="an honest reference file (default: the one shipped)")] = None,
    solver_ms: Annotated[float, typer.Option(
        help="the exact solver's budget for each position, in milliseconds of a reference "
        "core counted in positions searched (the same result on any machine)")] = SOLVE_MS,
    quiet: Annotated[bool, typer.Option("--quiet", help="no progress on stderr")] = False,
) -> None:
    """Score each player and partnership of these records for play that fits hidden cards."""
    if not 0 < alpha < 1:
        fail("--alpha must be between 0 and 1")
    if not 0 < solver_ms <= 600_000:
        fail("--solver-ms must be more than 0 and at most 600000")
    try:
        ref = load_reference(reference)
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"cannot read the reference {reference}: {e}")
    budget = ref.meta.get("budget_ms")
    budget_ms = float(budget) if isinstance(budget, int | float) else None
    loaded = []
    for path in records:
        text = read_source(path)
        with record_checked():
            loaded.append((path, *load_record(text)))
    scans: list[Scan] = []

    def say(line: str) -> None:
        if not quiet:
            typer.echo(f"fairplay: {line}", err=True)

    for path, rec, summary in loaded:
        scans.append(scan_record(rec, summary, path, budget_ms=budget_ms,
                                 solver_ms=solver_ms,
                                 wanted=lambda n: player is None or n == player,
                                 progress=say))
    players, pairs = verdicts(scans, ref, alpha, player)
    if player is not None and not players:
        fail(f"no player named {player!r} in these records")
    out: dict[str, Json] = {
        "alpha": alpha, "reference": dict(ref.meta),
        "players": [v.as_json() for v in players],
        "partnerships": [v.as_json() for v in pairs]}
    typer.echo(json.dumps(out) if as_json else text_report(players, pairs, alpha))


def text_report(players: list[Verdict], pairs: list[Verdict], alpha: float) -> str:
    lines = [f"players (flagged at p <= {alpha:g}; a flag asks a person to look, it proves "
             "nothing):"]
    for group, title in ((players, None), (pairs, "partnerships:")):
        if title and group:
            lines.append(title)
        for v in group:
            mark = "FLAGGED " if v.flagged else ""
            lines.append(f"  {mark}{v.name}: {v.hits} of {v.opportunities} opportunities hit "
                         f"(honest: {v.expected:.1f}), p = {v.p_value:.3g}, "
                         f"{v.judged} decisions judged")
            for kind, k in v.kinds.items():
                lines.append(f"    {kind}: {k['hits']:g} of {k['opportunities']:g} "
                             f"(honest {k['expected']:.1f})")
            if v.flagged:
                for d in v.deals:
                    lines.append(f"    review {d['record']} deal {d['deal']}: {d['hits']} of "
                                 f"{d['opportunities']} hit (weight {d['weight']})")
    return "\n".join(lines)
