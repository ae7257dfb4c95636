"""The detector's work on one finished match, run in a worker process (``FairPlay``'s pool):
``taash.fairplay.detect`` over the match's record, for the human seats of players who hold one
seat there (bots are never scanned, and a player at two seats of a table is not judged at it).

What comes back is plain data: per player, the deals, the decisions judged and each
opportunity as (deal, step, game key, position kind, hit)."""

from __future__ import annotations

import json

from taash.fairplay.detect import load_reference, scan_record
from taash.review.replay import load_record

Opportunity = tuple[int, int, str, str, bool]
Found = tuple[str, int, int, list[Opportunity]]  # (player, deals, judged, opportunities)


def players_of(rec: dict[str, object]) -> dict[int, str]:
    """The seats to judge: each human seat of a player who holds no other seat there."""
    seats = rec.get("seats")
    if not isinstance(seats, list):
        return {}
    held: dict[str, list[int]] = {}
    for i, s in enumerate(seats):
        if isinstance(s, dict) and s.get("type") == "human" and isinstance(s.get("player"), str):
            held.setdefault(str(s["player"]), []).append(i)
    return {at[0]: p for p, at in held.items() if len(at) == 1}


def scan_match(text: str, solver_ms: float) -> list[Found]:
    """Scan a finished match's record (JSON text, as the queue keeps it), the solver's budget
    ``solver_ms`` counted in positions searched (the same result on any machine).  Only
    players are weighed here, so the partnerships' partner-fit statistic is not asked for."""
    raw = json.loads(text)
    who = players_of(raw)
    if not who:
        return []
    seats = raw["seats"]
    # the detector names each seat by ``seats[i].name``: the player's id here (a bot's seat
    # a name no player can have)
    raw["seats"] = [{**s, "name": who.get(i, f"\x00seat {i}")} if isinstance(s, dict)
                    else {"name": f"\x00seat {i}"} for i, s in enumerate(seats)]
    ref = load_reference()
    budget = ref.meta.get("budget_ms")
    rec, summary = load_record(raw)
    wanted = set(who.values())
    scan = scan_record(rec, summary, str(raw.get("table", "")),
                       budget_ms=float(budget) if isinstance(budget, int | float) else None,
                       solver_ms=solver_ms, wanted=lambda n: n in wanted, partners=False)
    out: list[Found] = []
    for seat, player in sorted(who.items()):
        ops = [(o.deal, o.step, o.game, o.kind, o.hit) for o in scan.opportunities
               if o.seat == seat]
        out.append((player, scan.deals, scan.judged[seat], ops))
    return out
