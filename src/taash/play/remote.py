"""`taash play --server URL`: the terminal takes a seat at a server's table.

The server is the only authority: the terminal reads its seat's view over HTTP, follows the
table's NDJSON stream for everyone's moves (its own included, so every move is told once, in
version order), and posts the player's moves with a client id (sent again after a network
error, applied once).  What it shows is the local game's: the same ``Table`` loop, narration,
screen and parser, fed with the server's views and events instead of a local match.

Credentials: a personal API token (``--token``, acting for its player at their seat), or an
invite link (``--invite``): claimed once, for the token's player or else for a new guest, and
then played with the seat's new token.  Network errors are retried with backoff and said in one
line; a refusal by the server is shown as the server says it (the HTTP side is
``taash.play.remote_client``'s; this module is the table the terminal plays at).
"""

from __future__ import annotations

import itertools
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlsplit

import typer
from rich.text import Text

from taash.cli_common import fail
from taash.games import game_class
from taash.games.base import Json, MatchState, Outcome
from taash.play.narrate import View
from taash.play.remote_client import (
    GIVE_UP_S,
    Client,
    Follower,
    Link,
    Lost,
    Refused,
    Seat,
    Unreachable,
    sit,
)
from taash.play.screen import Screen, make_console
from taash.play.table import Table
from taash.play.tournament import tournament_seat


@dataclass
class RemoteMatch:
    """What the table loop and the narration read of a match, from the seat's latest view at
    the server (the hands of the others are never here)."""

    current: dict[str, Json]
    names: list[Json] = field(default_factory=list)

    @property
    def game_id(self) -> str:
        return str(self.info["game"])

    @property
    def info(self) -> dict[str, Json]:
        t = self.current["table"]
        assert isinstance(t, dict)
        return t

    @property
    def options(self) -> dict[str, Json]:
        o = self.info["options"]
        assert isinstance(o, dict)
        return o

    @property
    def num_seats(self) -> int:
        seats = self.info["seats"]
        assert isinstance(seats, list)
        return len(seats)

    @property
    def version(self) -> int:
        v = self.current["version"]
        assert isinstance(v, int)
        return v

    @property
    def seat(self) -> int:
        s = self.current["seat"]
        assert isinstance(s, int)
        return s

    def view(self, seat: int) -> View:
        assert seat == self.seat, "the server shows this terminal one seat"
        return self.current

    def summary(self) -> dict[str, Json]:
        return {"game": self.game_id, "deals": self.current.get("deals"),
                "match": self.current.get("match")}

    def is_over(self) -> bool:
        return bool(self.current.get("over"))

    def outcome(self) -> Outcome | None:
        m = self.current.get("match")
        if not self.is_over() or not isinstance(m, dict):
            return None
        # the rule that ends the game's matches (a rule of the class: any options will do)
        rule = game_class(self.game_id).new_match(deal=False, first_seat=0).over_rule()
        if "loser" in m:  # Goat: the goat loses, the other team wins
            loser = m["loser"]
            assert isinstance(loser, int)
            return Outcome(1 - loser, False, rule)
        winner = m.get("winner")
        if winner == "draw" or winner is None:
            return Outcome(None, True, rule)
        assert isinstance(winner, int)
        return Outcome(winner, False, rule)

    def action_id(self, seat: int, action: str) -> int:
        """Every action goes to the server, which judges it (and says why it refuses)."""
        return 0

    def legal_actions(self, seat: int) -> list[str]:
        legal = self.view(seat).get("legal_actions") or []
        assert isinstance(legal, list)
        return [str(a) for a in legal]

    def canonical(self, seat: int, action: str) -> str | None:
        """The legal action ``action`` names (Goat's cards in any order), else None."""
        legal = self.legal_actions(seat)
        if action in legal:
            return action
        verb, _, arg = action.partition(":")
        cards = sorted(arg.split(","))
        for a in legal:
            v, _, x = a.partition(":")
            if v == verb and sorted(x.split(",")) == cards:
                return a
        return None


class RemoteTable(Table):
    """The `taash play` loop at a server's table: the others' moves come from the stream,
    the player's go to the server, which may refuse them."""

    def __init__(self, remote: RemoteMatch, client: Client, seat: Seat, follower: Follower,
                 **kw: Any) -> None:
        self.remote = remote
        self.client = client
        self.where = seat
        self.follower = follower
        self.ids = (f"term-{secrets.token_hex(4)}-{n}" for n in itertools.count(1))
        self.shown = False  # the table is on the screen already (after a refusal)
        self.waiting = -1  # the version at which "waiting for" was last said
        # the loop and the narration read only what RemoteMatch gives (a view, its summary)
        super().__init__(cast(MatchState, remote), **kw)

    def run(self) -> int:
        self.say(("At the server's table ", "bold"), (self.where.table, "bold"),
                 f" as seat {self.human}: the others' moves appear as they are made.")
        return super().run()

    def step(self) -> None:
        v = self.remote.current
        to_move = v.get("to_move")
        if self.remote.legal_actions(self.human):
            if to_move == self.human:
                self.human_turn()
                return
            hand = v.get("hand") or []
            assert isinstance(hand, list)
            if v.get("can_molodka") and self.ask_yes(Text.assemble(
                    "Your molodka ", self.screen.cards([str(c) for c in hand]),
                    f": play it now, before {self.screen.name(int(str(to_move)))} moves? "
                    "[y/N] ")):
                self.act(self.human, "molodka:" + ",".join(str(c) for c in hand))
                return
        if isinstance(to_move, int) and self.waiting != self.remote.version:
            self.waiting = self.remote.version  # said once a move, not once a message
            self.say((f"(waiting for {self.screen.name(to_move)}\u2026)", "dim"))
        self.follow()

    # -- the server's side -------------------------------------------------------------------
    def follow(self, until: int | None = None) -> None:
        """Tell what the stream brings: one message (until the view changes), or all until
        version ``until``."""
        while True:
            kind, item = self.follower.queue.get()
            if kind == "note":
                self.say((str(item), "dim"))
                continue
            if kind in ("refused", "gone"):
                why = item.text() if isinstance(item, Refused) else str(item)
                raise Lost(f"the server ended this seat's connection: {why}")
            changed = self.take(item)
            if until is None and changed:
                return
            if until is not None and self.remote.version >= until:
                return

    def take(self, msg: Mapping[str, Any]) -> bool:
        """Apply one stream message to the view; True if the view moved on."""
        kind = msg.get("type")
        version = msg.get("version")
        if kind == "table" and isinstance(msg.get("table"), dict):
            self.remote.current["table"] = msg["table"]
            return False
        if kind not in ("view", "event") or not isinstance(version, int):
            return False
        if version <= self.remote.version and kind == "event":
            return False  # told already
        before = self.remote.current
        self.remote.current = dict(msg["view"])
        if kind == "event" and version == before["version"] + 1:
            for ev in msg["events"]:
                if ev.get("type") == "action":
                    self.tell([ev], str(ev["action"]), before)
                else:
                    self.tell([ev], "", before)
        return True

    def act(self, seat: int, action: str) -> None:
        """Post the player's move; tell it (and whatever came before it) from the stream, or
        the server's refusal."""
        canonical = self.remote.canonical(seat, action) or action
        try:
            got = self.client.request(
                "POST", f"/api/tables/{self.where.table}/actions",
                {"action": canonical, "id": next(self.ids), "version": self.remote.version},
                params=self.where.params())
        except Refused as e:
            if e.code == "stale":
                self.say(("(the table moved on meanwhile: here it is now)", "dim"))
                self.follow()
            else:
                self.refused(f"the server refused {canonical}: {e.text()}")
                self.shown = True  # asked again under the same table, as at a local one
            return
        self.follow(until=int(got["version"]))

    def show_table(self, v: View) -> None:
        if self.shown:
            self.shown = False
            return
        super().show_table(v)

    def is_legal(self, action: str) -> bool:
        return self.remote.canonical(self.human, action) is not None

    def next_deal(self) -> None:
        self.screen.pause_a_bit()  # the server deals the next at once; the loop goes on


def opponent_name(info: Mapping[str, Json], me: int) -> str | None:
    """The other player's name at a two-player table (None: a bot's seat, say "Bot")."""
    seats = info.get("seats")
    if not isinstance(seats, list) or len(seats) != 2:
        return None
    other = seats[1 - me]
    if not isinstance(other, dict) or other.get("type") == "bot":
        return None
    name = other.get("name")
    return str(name) if name else "Opponent"


def first_view(client: Client, seat: Seat) -> dict[str, Json]:
    v = client.request("GET", f"/api/tables/{seat.table}/view", params=seat.params())
    assert isinstance(v, dict)
    return v


def play_remote(server: str | None, token: str | None, table: str | None, seat: int | None,
                invite: str | None, pause: float, plain: bool = False,
                tournament: str | None = None) -> int:
    """`taash play --server`: sit, follow and play until the match is over or the player
    leaves; the exit code (1: the server refused or could not be reached, with one line on
    stderr; 2: bad flags).  ``plain``: for a screen reader (screen.py).  ``tournament``: tell
    its state and play the player's table of the round (none now: exit 0)."""
    console = make_console(plain)
    link = None
    if invite is not None:
        try:
            link = Link.parse(invite)
        except ValueError as e:
            fail(str(e))
    base = server or (link.base if link is not None else None)
    if not base:
        fail("--invite with a link that names no server needs --server URL")
    if urlsplit(base).scheme not in ("http", "https"):
        fail(f"--server must be an http:// or https:// URL, not {base!r}")
    # notes unwrapped: a command in one may be copied whole
    client = Client(base, lambda text: console.print(Text(text, style="dim"), soft_wrap=True),
                    float(os.environ.get("TAASH_GIVE_UP_S") or GIVE_UP_S))
    follower: Follower | None = None
    try:
        try:
            if tournament is not None:
                if not token:
                    raise ValueError("--tournament needs your personal API token (--token)")
                client.auth = token
                found = tournament_seat(client, tournament,
                                        lambda line: console.print(Text(line), soft_wrap=True))
                if found is None:
                    return 0
                where = found
            else:
                where = sit(client, token, table, seat, invite)
            v = first_view(client, where)
        except ValueError as e:
            fail(str(e))
        remote = RemoteMatch(v)
        here = Seat(where.table, remote.seat)
        screen = Screen(console, remote.seat, remote.num_seats, pause,
                        opponent=opponent_name(remote.info, remote.seat), plain=plain)
        follower = Follower(client, here, remote.version)
        follower.start()
        return RemoteTable(remote, client, here, follower, screen=screen, bots={}).run()
    except Refused as e:
        typer.echo(f"taash: the server refused: {e.text()}", err=True)
        return 1
    except (Unreachable, Lost) as e:
        console.print()
        typer.echo(f"taash: {e}", err=True)
        return 1
    except KeyboardInterrupt:
        console.print()  # the line is taash.cli.main's
        return 130
    finally:
        if follower is not None:
            follower.stop()
        client.close()
