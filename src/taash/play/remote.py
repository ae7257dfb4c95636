"""`taash play --server URL`: the terminal takes a seat at a server's table.

The server is the only authority: the terminal reads its seat's view over HTTP, follows the
table's NDJSON stream for everyone's moves (its own included, so every move is told once, in
version order), and posts the player's moves with a client id (sent again after a network
error, applied once).  What it shows is the local game's: the same ``Table`` loop, narration,
screen and parser, fed with the server's views and events instead of a local match.

Credentials: a personal API token (``--token``, acting for its player at their seat), or an
invite link (``--invite``): claimed once, for the token's player or else for a new guest, and
then played with the seat's new token.  Network errors are retried with backoff and said in one
line; a refusal by the server is shown as the server says it.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

import httpx
import typer
from rich.text import Text

from taash.cli_common import fail
from taash.games.base import Json, MatchState, Outcome
from taash.play.narrate import View
from taash.play.screen import Screen, make_console
from taash.play.table import Table

BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds between tries; the last repeats
GIVE_UP_S = 120.0  # a server unreachable this long: the command ends (exit 1; TAASH_GIVE_UP_S)


class Refused(Exception):
    """The server refused a request: its status and its ``error`` object."""

    def __init__(self, status: int, error: Mapping[str, Any]) -> None:
        self.status = status
        self.code = str(error.get("code") or "error")
        self.rule = error.get("rule")
        self.message = str(error.get("message") or f"HTTP {status}")
        super().__init__(self.text())

    def text(self) -> str:
        rule = f" ({self.rule})" if self.rule and f"({self.rule})" not in self.message else ""
        return f"{self.message}{rule}"


class Unreachable(Exception):
    """The server could not be reached for ``GIVE_UP_S`` seconds."""


class Lost(Exception):
    """The server ended the seat's connection for good (a revoked or withdrawn credential)."""


def _error_of(r: httpx.Response) -> Refused:
    try:
        body = r.json()
    except ValueError:
        body = None
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict):
        err = {"code": "http", "message": f"HTTP {r.status_code} {r.reason_phrase}"}
    return Refused(r.status_code, err)


@dataclass
class Link:
    """An invite link: its table, seat and token (``/t/ID?seat=S&token=T``, whole or not)."""

    table: str
    seat: int | None
    token: str
    base: str | None  # the server it names, if it names one

    @classmethod
    def parse(cls, text: str) -> Link:
        parts = urlsplit(text.strip())
        path = [p for p in parts.path.split("/") if p]
        query = parse_qs(parts.query)
        token = (query.get("token") or [""])[0]
        if len(path) < 2 or path[-2] != "t" or not token:
            raise ValueError(f"not an invite link (…/t/TABLE?seat=S&token=T): {text!r}")
        seat_text = (query.get("seat") or [""])[0]
        base = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None
        return cls(path[-1], int(seat_text) if seat_text.isdigit() else None, token, base)


class Client:
    """HTTP to one server with one credential; transport errors retried with backoff."""

    def __init__(self, base: str, say: Callable[[str], None],
                 give_up_s: float = GIVE_UP_S) -> None:
        self.base = base.rstrip("/")
        self.say = say
        self.give_up_s = give_up_s
        self.auth: str | None = None
        self.http = httpx.Client(base_url=self.base, timeout=httpx.Timeout(20.0, connect=5.0),
                                 headers={"User-Agent": "taash-terminal"})

    def close(self) -> None:
        self.http.close()

    def headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        h = {"Authorization": f"Bearer {self.auth}"} if self.auth else {}
        return {**h, **(extra or {})}

    def request(self, method: str, path: str, body: Any = None,
                params: Mapping[str, Any] | None = None,
                headers: Mapping[str, str] | None = None) -> Any:
        """The JSON answer; Refused on a refusal, Unreachable after ``give_up_s``."""
        began = time.monotonic()
        for tries in itertools.count():
            try:
                r = self.http.request(method, path, json=body, params=params,
                                      headers=self.headers(headers))
            except httpx.TransportError as e:
                self.wait(tries, began, e)
                continue
            if r.status_code >= 500 or r.status_code == 429:
                self.wait(tries, began, _error_of(r))
                continue
            if r.status_code >= 400:
                raise _error_of(r)
            return r.json()
        raise AssertionError("unreachable")

    def wait(self, tries: int, began: float, why: Exception) -> None:
        if time.monotonic() - began > self.give_up_s:
            raise Unreachable(f"cannot reach {self.base}: {describe(why)}")
        delay = BACKOFF[min(tries, len(BACKOFF) - 1)]
        self.say(f"(the server does not answer: {describe(why)}; trying again in "
                 f"{delay:g} s)")
        time.sleep(delay)


def describe(e: Exception) -> str:
    if isinstance(e, Refused):
        return e.text()
    text = str(e) or type(e).__name__
    return f"{type(e).__name__}: {text}" if type(e).__name__ not in text else text


@dataclass
class Seat:
    """Where the terminal sits: the table, the seat (None: the player's first) and the
    query that names it."""

    table: str
    seat: int | None = None

    def params(self) -> dict[str, int]:
        return {} if self.seat is None else {"seat": self.seat}


def sit(client: Client, token: str | None, table: str | None,
        seat: int | None, invite: str | None) -> Seat:
    """Take the seat the flags name: set the client's credential, claim an invite."""
    if invite is None:
        if not token or not table:
            raise ValueError("--server needs --token and --table, or --invite")
        client.auth = token
        return Seat(table, seat)
    link = Link.parse(invite)
    if token:  # claimed for the token's player, then played with the token
        client.auth = token
        got = client.request("POST", f"/api/tables/{link.table}/claim",
                             params={"token": link.token})
        return Seat(link.table, int(got["seat"]))
    # a new guest player (the session cookie, in this client only) claims the seat and plays
    # it with the seat's new token; the claim is a change made with the cookie, so it says
    # where it comes from (the server's own origin: this is no browser on another site)
    client.request("GET", "/api/me")
    got = client.request("POST", f"/api/tables/{link.table}/claim",
                         headers={"Authorization": f"Bearer {link.token}",
                                  "Origin": client.base})
    client.http.cookies.clear()
    if not got.get("token"):
        raise ValueError("this invite's seat is yours already: play it with --token")
    client.auth = str(got["token"])
    # the link is spent: the seat's new token is the only way back to it from here
    client.say(f"(the seat is yours: to come back to it, taash play --server {client.base} "
               f"--table {link.table} --token {client.auth})")
    return Seat(link.table, int(got["seat"]))


class Follower:
    """The table's NDJSON stream, read by a thread into a queue; reconnected from the last
    version read, with backoff, when it ends or breaks."""

    def __init__(self, client: Client, seat: Seat, since: int) -> None:
        self.client = client
        self.seat = seat
        self.since = since
        self.queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="taash-stream")

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()

    def _run(self) -> None:
        # a client of its own: this thread reads while the main one posts
        with httpx.Client(base_url=self.client.base, headers={"User-Agent": "taash-terminal"},
                          timeout=httpx.Timeout(60.0, connect=5.0)) as http:
            self._follow(http)

    def _follow(self, http: httpx.Client) -> None:
        tries = 0
        down_since: float | None = None
        path = f"/api/tables/{self.seat.table}/stream"
        while not self.stopped.is_set():
            try:
                params = {**self.seat.params(), "since": self.since}
                with http.stream("GET", path, params=params,
                                 headers=self.client.headers()) as r:
                    if 400 <= r.status_code < 500 and r.status_code != 429:
                        r.read()
                        self.queue.put(("refused", _error_of(r)))
                        return
                    if r.status_code != 200:
                        raise _error_of(r)
                    if down_since is not None:
                        self.queue.put(("note", "(connected again)"))
                    tries, down_since = 0, None
                    for line in r.iter_lines():
                        if self.stopped.is_set():
                            return
                        if not line.strip():
                            continue
                        msg = json.loads(line)
                        v = msg.get("version")
                        if isinstance(v, int) and msg.get("type") in ("view", "event"):
                            self.since = max(self.since, v)
                        self.queue.put(("msg", msg))
            except (httpx.TransportError, Refused, ValueError) as e:
                if self.stopped.is_set():
                    return
                now = time.monotonic()
                down_since = now if down_since is None else down_since
                if now - down_since > self.client.give_up_s:
                    self.queue.put(("gone", Unreachable(
                        f"cannot reach {self.client.base}: {describe(e)}")))
                    return
                delay = BACKOFF[min(tries, len(BACKOFF) - 1)]
                tries += 1
                self.queue.put(("note", f"(the table's stream broke: {describe(e)}; "
                                        f"connecting again in {delay:g} s)"))
                self.stopped.wait(delay)
                continue
            # the server ended the stream (it restarts, or the credential was withdrawn):
            # connect again at once; a withdrawn credential is refused then
            tries += 1
            self.stopped.wait(BACKOFF[0] if tries > 1 else 0.0)


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
        if self.game_id == "goat":
            loser = m.get("loser")
            assert isinstance(loser, int)
            return Outcome(1 - loser, False, "GT-12")
        winner = m.get("winner")
        rule = "TW-6" if self.game_id == "court-piece-2p" else "CP-11"
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
                invite: str | None, pause: float) -> int:
    """`taash play --server`: sit, follow and play until the match is over or the player
    leaves; the exit code (1: the server refused or could not be reached, with one line on
    stderr; 2: bad flags)."""
    console = make_console()
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
            where = sit(client, token, table, seat, invite)
            v = first_view(client, where)
        except ValueError as e:
            fail(str(e))
        remote = RemoteMatch(v)
        here = Seat(where.table, remote.seat)
        screen = Screen(console, remote.seat, remote.num_seats, pause,
                        opponent=opponent_name(remote.info, remote.seat))
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
        console.print()
        typer.echo("taash: interrupted", err=True)
        return 130
    finally:
        if follower is not None:
            follower.stop()
        client.close()
