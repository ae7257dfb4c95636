"""The detector's work on one finished match, run in a worker process (``FairPlay``'s pool):
``taash.fairplay.detect`` over the match's record, for the human seats of players who hold one
seat there (bots are never scanned, and a player at two seats of a table is not judged at it).

What comes back is plain data: per player, the deals, the decisions judged and each
opportunity as (deal, step, game key, position kind, hit); and per partnership of two such
players (a side of Court Piece or Goat, both seats human: a side with a bot is never scored),
the same for the partnership's statistic (``pair_found``)."""

from __future__ import annotations

import json

from taash.fairplay.detect import Scan, load_reference, scan_record
from taash.fairplay.partner import PARTNER_GAMES
from taash.fairplay.score import PARTNER_STAT
from taash.review.replay import load_record

Opportunity = tuple[int, int, str, str, bool]
Found = tuple[str, int, int, list[Opportunity]]  # (player, deals, judged, opportunities)
# (player, partner: the two ids in order; deals, judged, the partnership's opportunities)
PairFound = tuple[str, str, int, int, list[Opportunity]]


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


def sides_of(game: str, who: dict[int, str]) -> list[tuple[int, int]]:
    """The partnerships to score: the sides of a game played two against two whose two seats
    are players judged here (a side with a bot, or one player at both seats, is not)."""
    if game not in PARTNER_GAMES:
        return []
    return [(a, b) for a, b in ((0, 2), (1, 3)) if a in who and b in who]


def pair_found(scan: Scan, who: dict[int, str], sides: list[tuple[int, int]]
               ) -> list[PairFound]:
    """Each side's opportunities for its partnership's statistic: partner-fit, or in a game
    ``PARTNER_STAT`` lists as "open" (Goat) its two seats' open-best opportunities pooled, as
    ``taash.fairplay.score.verdicts`` weighs a partnership."""
    out: list[PairFound] = []
    for side in sides:
        opened = [o for o in scan.opportunities
                  if o.seat in side and PARTNER_STAT.get(o.game) == "open"]
        fits = [o for o in scan.pair_ops
                if o.seat in side and PARTNER_STAT.get(o.game, "fit") == "fit"]
        ops = sorted((o.deal, o.step, o.game, o.kind, o.hit) for o in [*opened, *fits])
        a, b = sorted(who[s] for s in side)
        out.append((a, b, scan.deals, sum(scan.judged[s] for s in side), ops))
    return out


def scan_match(text: str, solver_ms: float) -> tuple[list[Found], list[PairFound]]:
    """Scan a finished match's record (JSON text, as the queue keeps it), the solver's budget
    ``solver_ms`` counted in positions searched (the same result on any machine): what each
    player's seat found, and each partnership's (Court Piece's partner-fit statistic only for
    a side of two players: its two hard searches a decision are not spent on a side with a
    bot)."""
    raw = json.loads(text)
    who = players_of(raw)
    if not who:
        return [], []
    seats = raw["seats"]
    # the detector names each seat by ``seats[i].name``: the player's id here (a bot's seat
    # a name no player can have)
    raw["seats"] = [{**s, "name": who.get(i, f"\x00seat {i}")} if isinstance(s, dict)
                    else {"name": f"\x00seat {i}"} for i, s in enumerate(seats)]
    ref = load_reference()
    budget = ref.meta.get("budget_ms")
    rec, summary = load_record(raw)
    wanted = set(who.values())
    sides = sides_of(str(rec["game"]), who)
    scan = scan_record(rec, summary, str(raw.get("table", "")),
                       budget_ms=float(budget) if isinstance(budget, int | float) else None,
                       solver_ms=solver_ms, wanted=lambda n: n in wanted,
                       partners=bool(sides), pair_wanted=lambda n: n in wanted)
    out: list[Found] = []
    for seat, player in sorted(who.items()):
        ops = [(o.deal, o.step, o.game, o.kind, o.hit) for o in scan.opportunities
               if o.seat == seat]
        out.append((player, scan.deals, scan.judged[seat], ops))
    return out, pair_found(scan, who, sides)
