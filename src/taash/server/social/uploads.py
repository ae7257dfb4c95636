"""Matches played offline, brought home (issue 46): a player uploads the ``taash-record/1`` of a
match they played in the page with no network (``POST /api/me/records``), the server checks it
exactly as ``taash record verify`` does (``taash.offline.checked``: the same words, the same exit
codes) and keeps it once, with its history line and stats, marked offline and never rated.

A record is kept once per player: it is keyed by the SHA-256 of its canonical JSON (keys sorted,
no spaces, UTF-8), so an upload retried after a lost answer finds the first one again.  Who sat
at the other seats is not taken from the record (a record is only what its uploader says): they
are bots, of the level the record's ``seats`` names where it names one.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from typing import Literal

from typing_extensions import TypedDict

from taash.bots import LEVELS
from taash.games import game_class
from taash.games.base import is_int
from taash.offline import checked
from taash.record import NESTED
from taash.server.errors import NotFound, RecordRefused
from taash.server.store.social import ResultRow, SocialStore
from taash.stats import GameStats, add_record, match_result, side_of


class UploadJson(TypedDict):
    """An offline record kept: ``id`` names its line in the player's history."""

    id: str
    game: str
    offline: Literal[True]
    rated: Literal[False]
    summary: dict[str, object]


#: how deep a record's JSON may nest: a record's own fields go 6 deep (an action's ``legal``
#: map), so this leaves an engine's own fields room and writing it again (``canonical``) far
#: from Python's recursion limit
MAX_DEPTH = 64


def too_deep(value: object) -> bool:
    """Whether JSON ``value`` nests deeper than ``MAX_DEPTH`` (looked at without recursion)."""
    todo: list[tuple[object, int]] = [(value, 1)]
    while todo:
        v, depth = todo.pop()
        inner = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if inner is None:
            continue
        if depth > MAX_DEPTH:
            return True
        todo.extend((x, depth + 1) for x in inner)
    return False


def canonical(record: object) -> bytes:
    """The record's canonical JSON, what its key is the SHA-256 of."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode()


def verified(text: str, seat: object) -> dict[str, object]:
    """The summary of a finished match's record in which ``seat`` is a seat; RecordRefused
    (with ``taash record verify``'s words and exit code) otherwise."""
    out = checked(text)
    error = out.get("error")
    if isinstance(error, dict):
        exit_code = error["exit"]
        assert isinstance(exit_code, int)
        raise RecordRefused(str(error["message"]), exit=exit_code)
    summary = out["summary"]
    assert isinstance(summary, dict)
    game = str(summary["game"])
    n = game_class(game).num_seats
    if not is_int(seat) or not 0 <= seat < n:
        raise RecordRefused(f"seat: must be your seat in the record, 0..{n - 1}, not "
                            f"{json.dumps(seat)}", exit=2)
    match = summary["match"]
    assert isinstance(match, dict)
    if not match.get("over"):
        raise RecordRefused("the match is not over: only a finished match joins your history",
                            exit=2)
    return summary


def _levels(record: dict[str, object], n: int) -> list[str | None]:
    """Each seat's bot level as the record's ``seats`` names it (None where it names none)."""
    seats = record.get("seats")
    out: list[str | None] = [None] * n
    if isinstance(seats, list) and len(seats) == n:
        for i, s in enumerate(seats):
            level = s.get("level") if isinstance(s, dict) else None
            out[i] = level if isinstance(level, str) and level in LEVELS else None
    return out


async def upload(store: SocialStore, player_id: str, record: object,
                 seat: object) -> tuple[UploadJson, bool]:
    """Check and keep an offline record of ``player_id`` at ``seat``; the answer, and whether
    it is new (False: this player brought this very record before; nothing changed)."""
    if too_deep(record):
        raise RecordRefused(f"malformed record: {NESTED}", exit=2)
    text = canonical(record).decode()
    summary = await asyncio.to_thread(verified, text, seat)  # a long match: replay off the loop
    assert isinstance(record, dict) and isinstance(seat, int)  # verified says so
    game = str(summary["game"])
    cls = game_class(game)
    me = side_of(game, seat)
    n = cls.num_seats
    levels = _levels(record, n)

    def bot(i: int) -> dict[str, object]:
        return {"type": "bot", "level": levels[i], "name": None}

    entry: dict[str, object] = {
        "options": cls.check_options(record.get("options")), "offline": True,
        "partners": [bot(i) for i in range(n) if i != seat and side_of(game, i) == me],
        "opponents": [bot(i) for i in range(n) if side_of(game, i) != me]}
    match = summary["match"]
    assert isinstance(match, dict)
    result = match_result(game, match, me)
    assert result is not None  # verified: the match is over
    # stats by opponent kind read the record's seats: the ones the server stands by
    counted: dict[str, object] = {k: v for k, v in record.items() if k != "seats"}
    if all(level is not None for i, level in enumerate(levels) if i != seat):
        counted["seats"] = [{"type": "human", "player": player_id} if i == seat
                            else {"type": "bot", "level": levels[i]}
                            for i in range(n)]

    def add_stats(_: str, old: GameStats | None) -> GameStats:
        stats = {game: old} if old is not None else {}
        add_record(stats, counted, seat, summary)
        return stats[game]

    new_id = "off_" + secrets.token_hex(8)
    digest = hashlib.sha256(text.encode()).hexdigest()
    kept = await store.add_offline(new_id, digest, game, text,
                                   ResultRow(player_id, seat, result, entry), time.time(),
                                   add_stats)
    answer: UploadJson = {"id": kept or new_id, "game": game, "offline": True, "rated": False,
                          "summary": dict(summary)}
    return answer, kept is None


async def kept_record(store: SocialStore, record_id: str) -> dict[str, object]:
    """An offline record as it was brought home; NotFound if there is none."""
    text = await store.offline_record(record_id)
    if text is None:
        raise NotFound(f"no offline record {record_id!r}")
    rec = json.loads(text)
    assert isinstance(rec, dict)
    return rec
