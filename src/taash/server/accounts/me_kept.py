"""The export's parts for the newer features' rows of a player (``GET /api/me/export``:
``puzzles``, ``clubs``, ``tournaments``, ``events``, ``fairplay_notices``), shaped from
store/my_data.py's rows: ISO times, no other player's private data, no fair-play evidence and
no moderator (a notice is exported as the player was shown it)."""

from __future__ import annotations

import json

from typing_extensions import TypedDict

from taash.server.store.my_data import Kept
from taash.server.tables import wire


class ExportedPuzzleRating(TypedDict):
    game: str
    rating: float
    rd: float
    volatility: float
    attempts: int
    solved: int
    best_streak: int
    updated: str


class ExportedAttempt(TypedDict):
    """The player's first attempt at a puzzle; the ratings are None where it was not rated."""

    puzzle: str
    game: str
    action: str
    solved: bool
    at: str
    rated: bool
    rating_before: float | None
    rating_after: float | None
    puzzle_before: float | None
    puzzle_after: float | None


class ExportedStreak(TypedDict):
    game: str
    run: int
    puzzle: str
    started: str
    updated: str


class ExportedPuzzles(TypedDict):
    consent: bool  # "my finished deals may become puzzles"
    ratings: list[ExportedPuzzleRating]
    attempts: list[ExportedAttempt]
    streak: ExportedStreak | None


class ExportedClub(TypedDict):
    """A club of the player's: ``role`` owner, admin or member, or ``invited``."""

    id: str
    name: str
    role: str
    since: str


class ExportedEntry(TypedDict):
    """An entry in a tournament (``partner``: the other player's id in a pair)."""

    id: str
    name: str
    game: str
    kind: str
    state: str
    starts: str
    seed: int
    partner: str | None
    entry_name: str
    registered: str


class ExportedAction(TypedDict):
    seat: int
    action: str


class ExportedBoard(TypedDict):
    """A board the player played: every seat's actions in order (the robots' too)."""

    board: int
    actions: list[ExportedAction]
    done: bool
    score: int | None
    finished: str | None


class ExportedEvent(TypedDict):
    id: str
    game: str
    daily: bool
    opens: str
    closes: str
    closed: str | None
    entered: str
    boards: list[ExportedBoard]


class ExportedNotice(TypedDict):
    """A fair-play decision as the player is told it: ``warned``, ``banned`` or ``lifted``."""

    id: str
    kind: str
    created: str
    seen: str | None


def _f(x: object) -> float:
    assert isinstance(x, (int, float))
    return float(x)


def _maybe(x: object) -> float | None:
    return None if x is None else _f(x)


def _iso(t: float | None) -> str | None:
    return None if t is None else wire.iso(t)


def puzzles(k: Kept) -> ExportedPuzzles:
    st = k.puzzle_streak
    return {"consent": k.consent,
            "ratings": [{"game": str(r["game"]), "rating": _f(r["rating"]), "rd": _f(r["rd"]),
                         "volatility": _f(r["volatility"]), "attempts": int(_f(r["attempts"])),
                         "solved": int(_f(r["solved"])),
                         "best_streak": int(_f(r["best_streak"])),
                         "updated": wire.iso(_f(r["updated"]))} for r in k.puzzle_players],
            "attempts": [{"puzzle": str(a["puzzle_id"]), "game": str(a["game"]),
                          "action": str(a["action"]), "solved": bool(a["solved"]),
                          "at": wire.iso(_f(a["at"])), "rated": bool(a["rated"]),
                          "rating_before": _maybe(a["player_before"]),
                          "rating_after": _maybe(a["player_after"]),
                          "puzzle_before": _maybe(a["puzzle_before"]),
                          "puzzle_after": _maybe(a["puzzle_after"])}
                         for a in k.puzzle_attempts],
            "streak": None if st is None else {
                "game": str(st["game"]), "run": int(_f(st["run"])),
                "puzzle": str(st["puzzle_id"]), "started": wire.iso(_f(st["started"])),
                "updated": wire.iso(_f(st["updated"]))}}


def clubs(k: Kept) -> list[ExportedClub]:
    return [{"id": c.id, "name": c.name, "role": c.role or "invited",
             "since": wire.iso(c.joined)} for c in k.clubs]


def tournaments(k: Kept) -> list[ExportedEntry]:
    return [{"id": e.id, "name": e.name, "game": e.game, "kind": e.kind, "state": e.state,
             "starts": wire.iso(e.starts), "seed": e.seed, "partner": e.partner,
             "entry_name": e.entry_name, "registered": wire.iso(e.registered)}
            for e in k.tournaments]


def _actions(text: str) -> list[ExportedAction]:
    got = json.loads(text)
    return [{"seat": int(a["seat"]), "action": str(a["action"])}
            for a in (got if isinstance(got, list) else []) if isinstance(a, dict)]


def events(k: Kept) -> list[ExportedEvent]:
    return [{"id": e.id, "game": e.game, "daily": e.daily, "opens": wire.iso(e.opens),
             "closes": wire.iso(e.closes), "closed": _iso(e.closed),
             "entered": wire.iso(e.entered),
             "boards": [{"board": b.board, "actions": _actions(b.actions), "done": b.done,
                         "score": b.score, "finished": _iso(b.finished)} for b in e.boards]}
            for e in k.events]


def notices(k: Kept) -> list[ExportedNotice]:
    return [{"id": i, "kind": kind, "created": wire.iso(created), "seen": _iso(seen)}
            for i, kind, created, seen in k.notices]
