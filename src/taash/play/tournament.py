"""`taash play --server URL --tournament ID`: the tournament's state in a few lines, then the
player's table of the round, if they have one now (docs/tournaments.md).  The table is played
as any table at a server (``taash.play.remote``), with the player's personal API token."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from taash.play.remote_client import Client, Seat

TOP = 10  # standings lines shown


def describe(page: Mapping[str, Any]) -> list[str]:
    """The tournament as the terminal tells it: what, when, where it stands, the standings."""
    kind = "Swiss" if page.get("kind") == "swiss" else "Arena"
    lines = [f"{page.get('name')} — {kind}, {page.get('game')}, {page.get('entrants')} "
             f"entrants ({page.get('state')})"]
    state = page.get("state")
    if state == "scheduled":
        lines.append(f"starts in {int(page.get('seconds_to_start') or 0)} s"
                     + (" — you are registered" if page.get("registered") else ""))
    elif page.get("kind") == "swiss":
        lines.append(f"round {page.get('round')} of {page.get('rounds')}")
    standings = page.get("standings") or []
    if standings and state != "scheduled":
        swiss = page.get("kind") == "swiss"
        for row in standings[:TOP]:
            extra = f"  Buchholz {row['buchholz']:g}" if swiss else (
                "  (streak)" if row.get("streak") else "")
            lines.append(f"{row['rank']:>3}. {row['name']:<24} {row['score']:g}{extra}")
    if page.get("final_table"):
        lines.append(f"final table: /t/{page['final_table']}")
    return lines


def tournament_seat(client: Client, tournament: str,
                    say: Callable[[str], None]) -> Seat | None:
    """Tell the tournament's state; the player's table now (None: none at the moment)."""
    page = client.request("GET", f"/api/tournaments/{tournament}")
    assert isinstance(page, dict)
    for line in describe(page):
        say(line)
    mine = page.get("my_table")
    if not isinstance(mine, dict):
        if page.get("state") == "running":
            say("you have no table at the moment (not registered, or your game of this "
                "round is over): come back for the next round")
        return None
    say(f"your table of round {mine['round']}: /t/{mine['table']} (seat {mine['seat']})")
    return Seat(str(mine["table"]), int(mine["seat"]))
