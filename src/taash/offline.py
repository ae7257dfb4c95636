"""The engine of offline play (issue 46): the rules core and the bots answering JSON messages,
for the page's Web Worker, where it runs unchanged under Pyodide (``web/offline_worker.js``).

It adds no rule: it calls the core and the bots as the server does (``check_options`` bounded,
the easy and random bots kept per seat and seeded from the match's seed, a fresh hard bot per
move, a refusal worded as the server's ``error`` object) and ``taash.record.verify`` as
``taash record verify`` does.  One message in, one answer out, both JSON objects; an answer
holds ``error`` (``code``, ``rule``, ``message``) where the request was refused::

    >>> from taash.games import Goat
    >>> e = Engine()
    >>> m = e.handle({"op": "new", "game": Goat.game_id, "seed": 3, "first_seat": 0})["match"]
    >>> seat = e.handle({"op": "actors", "match": m})["actors"][0]
    >>> e.handle({"op": "apply", "match": m, "seat": seat, "action": "play:2S"})["error"]["rule"]
    'GT-7'
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from taash.bots import Bot, BotError, level_name, make_bot
from taash.fair import NotFair
from taash.games import IllegalAction, MalformedAction, MatchState, RecordError, game_class
from taash.games.base import Json
from taash.record import ReplayError, verify

#: what the hard bot's seed adds per seat (the server's autoplay: seed + 1_000_003 * seat + the
#: table's version), so two seats never search alike
SEAT_STRIDE = 1_000_003


class Refused(ValueError):
    """A request the engine cannot answer: unknown op or match, a missing or ill-typed field."""


@dataclass
class Table:
    """One offline match: its state, the number of actions applied (the server's version) and
    the bots that keep their randomness from move to move."""

    game: str
    seed: int
    state: MatchState
    version: int = 0
    bots: dict[tuple[int, str], Bot] = field(default_factory=dict)


def illegal(e: IllegalAction | MalformedAction) -> dict[str, Json]:
    """The server's ``error`` object for a refused action (``taash.server.errors.error_of``)."""
    if isinstance(e, MalformedAction):
        return {"code": "malformed", "rule": None, "message": str(e)}
    err: dict[str, Json] = {"code": "illegal", "rule": e.rule, "message": e.message}
    if e.key:
        err["key"] = e.key
        err["params"] = dict(e.params)
    return err


def checked(rec: Json) -> dict[str, Json]:
    """``taash record verify`` on a record: ``summary``, or ``error`` with the exit code the
    command gives (1 illegal, 2 malformed, 3 not fair) and its one line."""
    try:
        return {"summary": verify(rec if isinstance(rec, str) else json.dumps(rec))}
    except ReplayError as e:
        return {"error": {"exit": 1, "message": str(e)}}
    except RecordError as e:
        return {"error": {"exit": 2, "message": f"malformed record: {e}"}}
    except NotFair as e:
        return {"error": {"exit": 3, "message": str(e)}}


class Engine:
    """The offline matches of one page, by number."""

    def __init__(self) -> None:
        self.tables: dict[int, Table] = {}
        self.next_id = 1
        self.ops: dict[str, Callable[[Mapping[str, Json]], dict[str, Json]]] = {
            "new": self.new, "view": self.view, "actors": self.actors, "legal": self.legal,
            "apply": self.apply, "bot": self.bot, "record": self.record,
            "summary": self.summary, "close": self.close,
            "verify": lambda msg: checked(msg.get("record"))}

    def handle(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        """The answer to one message (``op`` names what it asks)."""
        op = msg.get("op")
        try:
            if not isinstance(op, str) or op not in self.ops:
                raise Refused(f"op: one of {', '.join(self.ops)}, not {op!r}")
            return self.ops[op](msg)
        except (Refused, RecordError, BotError) as e:
            return {"error": {"code": "bad_request", "rule": None, "message": str(e)}}

    def handle_json(self, text: str) -> str:
        """``handle`` on JSON text (what crosses from the worker's JavaScript)."""
        try:
            msg = json.loads(text)
        except ValueError as e:
            msg = {"op": None, "why": str(e)}
        if not isinstance(msg, dict):
            msg = {"op": None}
        return json.dumps(self.handle(msg))

    def new(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        """A new match: ``game``, ``options`` (defaults filled in, bounded as the server's
        new table), ``seed`` (the decks and the bots follow from it) and ``first_seat``."""
        cls = game_class(msg.get("game"))
        options = cls.check_options(msg.get("options"), bounded=True)
        seed = msg.get("seed")
        if seed is None:
            seed = random.SystemRandom().getrandbits(62)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise Refused(f"seed: a whole number 0 or more, not {seed!r}")
        first = msg.get("first_seat")
        if first is None:
            first = random.Random(seed).randrange(cls.num_seats)
        if not isinstance(first, int) or isinstance(first, bool) \
                or not 0 <= first < cls.num_seats:
            raise Refused(f"first_seat must be a seat 0..{cls.num_seats - 1}")
        state = cls.new_match(options, seed=seed, first_seat=first)
        number = self.next_id
        self.next_id += 1
        self.tables[number] = Table(cls.game_id, seed, state)
        return {"match": number, "seed": seed, "first_seat": first, "options": options,
                "actors": state.actors(), "view": dict(state.public_view())}

    def table(self, msg: Mapping[str, Json]) -> Table:
        number = msg.get("match")
        if not isinstance(number, int) or number not in self.tables:
            raise Refused(f"match: no match {number!r}")
        return self.tables[number]

    def seat(self, t: Table, msg: Mapping[str, Json], optional: bool = False) -> int | None:
        seat = msg.get("seat")
        if seat is None and optional:
            return None
        n = game_class(t.game).num_seats
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise Refused(f"seat: a seat 0..{n - 1}, not {seat!r}")
        return seat

    def view(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        """A seat's view (its hand, its legal actions), or with no seat the public view."""
        t = self.table(msg)
        seat = self.seat(t, msg, optional=True)
        view = t.state.public_view() if seat is None else t.state.view(seat)
        return {"version": t.version, "view": dict(view)}

    def actors(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        t = self.table(msg)
        return {"version": t.version, "actors": t.state.actors(), "over": t.state.is_over()}

    def legal(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        t = self.table(msg)
        seat = self.seat(t, msg)
        assert seat is not None
        return {"version": t.version, "legal_actions": t.state.legal_actions(seat)}

    def apply(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        """Apply one action; the events, or the core's refusal (nothing changed)."""
        t = self.table(msg)
        seat = self.seat(t, msg)
        assert seat is not None
        action = msg.get("action")
        if not isinstance(action, str):
            raise Refused(f"action: a string, not {action!r}")
        try:
            events = t.state.apply(seat, action)
        except (IllegalAction, MalformedAction) as e:
            return {"version": t.version, "error": illegal(e)}
        t.version += 1
        return {"version": t.version, "events": [dict(e) for e in events],
                "actors": t.state.actors(), "over": t.state.is_over()}

    def bot(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        """A bot's move for a seat (``level``: random, easy or hard; ``budget_ms`` the hard
        bot's budget, the server's default if absent): ``action`` (None where the seat may
        decline, a Goat molodka) and how long it thought, ``ms``.  Nothing is applied."""
        t = self.table(msg)
        seat = self.seat(t, msg)
        assert seat is not None
        level = msg.get("level", "easy")
        if not isinstance(level, str):
            raise Refused(f"level: a string, not {level!r}")
        level = level_name(level)
        budget = msg.get("budget_ms")
        if budget is not None and (not isinstance(budget, int | float)
                                   or isinstance(budget, bool) or budget <= 0):
            raise Refused(f"budget_ms: a number over 0, not {budget!r}")
        view = t.state.view(seat)
        t0 = time.perf_counter()
        if level == "hard":
            bot = make_bot(t.game, "hard", seed=t.seed + SEAT_STRIDE * seat + t.version,
                           budget_ms=budget)
        else:
            if (seat, level) not in t.bots:
                t.bots[seat, level] = make_bot(t.game, level, seed=t.seed + seat)
            bot = t.bots[seat, level]
        action = bot.act(view)
        ms = (time.perf_counter() - t0) * 1000
        return {"version": t.version, "action": None if action is None else str(action),
                "ms": round(ms, 3)}

    def record(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        """The match's ``taash-record/1`` record, every deck and action so far."""
        t = self.table(msg)
        return {"version": t.version, "record": t.state.record()}

    def summary(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        t = self.table(msg)
        return {"version": t.version, "summary": dict(t.state.summary())}

    def close(self, msg: Mapping[str, Json]) -> dict[str, Json]:
        """Forget a match (its record should have been kept first)."""
        self.table(msg)
        number = msg["match"]
        assert isinstance(number, int)
        del self.tables[number]
        return {}
