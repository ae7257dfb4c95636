"""`taash event`: a server's duplicate events from the terminal (docs/events.md): list them,
show a game's daily event, enter one and play its boards, one at a time, against the robots.

It speaks HTTP with the standard library (no httpx: a `taash` start stays quick) and acts with
a personal API token (``--token`` or ``TAASH_TOKEN``; ``play`` scope to enter and play).  At
the prompt: a number from the list of legal moves, or the action itself (``play:AS``); ``q``
stops (the entry is kept on the server: come back with the same command, on any device).
"""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from taash.cli_common import fail

event_app = typer.Typer(no_args_is_help=True,
                        help="Duplicate events at a server: list, enter and play their boards.")

Server = Annotated[str, typer.Option(envvar="TAASH_SERVER",
                                     help="the taash server (http://host:port) or TAASH_SERVER")]
Token = Annotated[str | None, typer.Option(
    envvar="TAASH_TOKEN", help="your personal API token (the site's account panel) or "
    "TAASH_TOKEN", show_default=False)]


def register(app: typer.Typer) -> None:
    app.add_typer(event_app, name="event")


class Refused(Exception):
    """The server said no (its message), or could not be reached."""


class EventClient:
    """JSON over HTTP to one server, with one personal token."""

    def __init__(self, server: str, token: str | None) -> None:
        if not server.startswith(("http://", "https://")):
            fail(f"--server must be an http:// or https:// URL, not {server!r}")
        self.base = server.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: object = None) -> Any:
        headers = {"User-Agent": "taash-terminal", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, headers=headers,
                                     method=method)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise Refused(_message(e.read(), e.code)) from None
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise Refused(f"cannot reach {self.base}: {e}") from None


def _message(raw: bytes, status: int) -> str:
    try:
        err = json.loads(raw).get("error") or {}
    except (ValueError, AttributeError):
        err = {}
    message = str(err.get("message") or f"HTTP {status}")
    rule = err.get("rule")
    return f"{message} ({rule})" if rule and f"({rule})" not in message else message


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _event_line(e: Mapping[str, Any]) -> str:
    mine = "  (entered)" if e.get("entered") else ""
    return (f"{e['id']}  {e['game']}  {e['boards']} boards  {e['state']}  "
            f"{e['entrants']} entrants  closes {_when(e['closes'])}{mine}")


@event_app.command("list")
def list_events(server: Server, token: Token = None) -> None:
    """The events open or to come, and (with a token) those you entered."""
    client = EventClient(server, token)
    try:
        got = client.call("GET", "/api/events")
    except Refused as err:
        fail(str(err), 1)
    for e in got["events"]:
        typer.echo(_event_line(e))
    if not got["events"]:
        typer.echo("no events open or to come (taash event daily GAME makes today's)")
    if got["mine"]:
        typer.echo("yours:")
        for mine in got["mine"]:
            typer.echo("  " + _event_line(mine))


@event_app.command("daily")
def daily(game: Annotated[str, typer.Argument(help="court-piece, court-piece-2p or goat")],
          server: Server, token: Token = None) -> None:
    """Today's event of a game (made on the first ask)."""
    try:
        e = EventClient(server, token).call("GET", f"/api/events/daily/{game}")
    except Refused as err:
        fail(str(err), 1)
    typer.echo(_event_line(e))
    typer.echo(f"commit {e['commit']}")


@event_app.command("enter")
def enter(event: Annotated[str, typer.Argument(help="the event's id")], server: Server,
          token: Token = None) -> None:
    """Enter an event (once)."""
    if not token:
        fail("event enter: give your personal API token (--token or TAASH_TOKEN)")
    try:
        e = EventClient(server, token).call("POST", f"/api/events/{event}/entry")
    except Refused as err:
        fail(str(err), 1)
    typer.echo(f"entered {e['id']}: {e['boards']} boards of {e['game']}; the deals are "
               f"committed to by {e['commit']}")


def _show(b: Mapping[str, Any]) -> list[str]:
    """Print the board as the entrant sees it; its legal actions, numbered."""
    v = b["view"]
    typer.echo(f"board {b['board']} of {b['boards']}  trump {v.get('trump') or '-'}  "
               f"tricks {v.get('tricks')}")
    trick = v.get("trick") or []
    shown = [f"{p['seat']}:{p.get('card') or ','.join(p.get('cards') or []) or p.get('verb')}"
             for p in trick if isinstance(p, dict)]
    typer.echo(f"trick  {' '.join(shown) or '-'}")
    typer.echo(f"hand   {' '.join(v.get('hand') or [])}")
    legal: list[str] = v.get("legal_actions") or []
    typer.echo("moves  " + "  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1)))
    return legal


@event_app.command("play")
def play(event: Annotated[str, typer.Argument(help="the event's id")], server: Server,
         token: Token = None) -> None:
    """Play your boards of an event, one at a time, from where you left off."""
    if not token:
        fail("event play: give your personal API token (--token or TAASH_TOKEN)")
    client = EventClient(server, token)
    ids = (f"term-{secrets.token_hex(4)}-{n}" for n in range(1, 1 << 30))
    try:
        b = client.call("GET", f"/api/events/{event}/board")
        while True:
            if b["done"]:
                typer.echo(f"board {b['board']} over: {_result(b['result'])}")
                if b["next"] is None:
                    typer.echo("every board played: the standings are published at the close")
                    return
                b = client.call("GET", f"/api/events/{event}/boards/{b['next']}")
                continue
            legal = _show(b)
            try:
                line = input("> ").strip()
            except EOFError:
                line = "q"
            if line in ("q", "quit"):
                typer.echo("stopped: your entry is kept; play on with the same command")
                return
            action = legal[int(line) - 1] if line.isdigit() and 0 < int(line) <= len(legal) \
                else line
            try:
                b = client.call("POST", f"/api/events/{event}/boards/{b['board']}/actions",
                                {"action": action, "version": b["version"], "id": next(ids)})
            except Refused as e:
                typer.echo(f"refused: {e}")
    except Refused as e:
        fail(str(e), 1)


def _result(r: Mapping[str, Any] | None) -> str:
    if not r:
        return "-"
    if "tricks" in r:
        return f"your side took {r['tricks']} tricks"
    return f"your side took {r['points']} points" + (
        f" and {r['defeat']} defeat points (the goat)" if r.get("defeat") else ", no goat")
