"""The terminal's HTTP side of `taash play --server`: a client that retries with backoff and
says why it waits, the seat the flags name (an invite claimed once, for the token's player or a
new guest), and the table's NDJSON stream read by a thread, reconnected from the last version
read.  ``taash.play.remote`` plays with them.
"""

from __future__ import annotations

import itertools
import json
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

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
