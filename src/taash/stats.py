"""A player's stats per game, computed from records (RECORD.md's summaries), so that the server's
profile and ``taash stats RECORD...`` in a terminal give the same figures.

Each record is read from one seat's side: the team of that seat in the four-player games, the
seat itself in two-player Court Piece.  A record made by a server also says who sat where
(``"seats"``: per seat ``{"type": "human" | "bot", "level", "name", "player"}``); from it the
matches are split by opponent kind: ``"people"`` (every opponent a human), a bot level (every
opponent a bot of that level), ``"mixed"``, or ``"unknown"`` (a record without seats).

Figures, per game:

- ``matches``: finished matches ``played``, ``won``, ``lost``, ``drawn`` (Court Piece's
  ``{"deals": N}`` session may end level); a record that stops before the end counts its deals
  only.
- ``deals``: complete deals ``played`` and ``won`` (Court Piece: the deal's winning team;
  two-player: the deal's winner; Goat: the team with 61 or more points, so eggs are won by no
  one).
- ``coats_won`` / ``coats_suffered`` (Court Piece), ``courts_won`` / ``courts_suffered``
  (two-player), ``goats`` (matches in which this side was the goat), ``goats_given`` (the other
  side was) and ``eggs`` (60-60 deals) in Goat.
- ``defeat_taken`` / ``defeat_given`` (Goat): average defeat points per finished match.
- ``streak``: the current run of finished matches, positive for wins, negative for losses (a
  draw ends a run); ``best_streak`` and ``worst_streak`` (the longest runs of wins and of losses),
  in the order the records are given (oldest first).
- ``by_opponent``: per opponent kind, ``{"played", "won", "lost", "drawn"}`` of finished matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field

from taash.games import CourtPiece, CourtPiece2P, Goat, game_class
from taash.games.base import Json, RecordError, is_int
from taash.record import verify

GAME_FIGURES: dict[str, tuple[str, ...]] = {
    CourtPiece.game_id: ("coats_won", "coats_suffered"),
    CourtPiece2P.game_id: ("courts_won", "courts_suffered"),
    Goat.game_id: ("goats", "goats_given", "eggs", "defeat_taken", "defeat_given"),
}


@dataclass
class Tally:
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0

    def add(self, result: int) -> None:
        """``result``: 1 won, -1 lost, 0 drawn."""
        self.played += 1
        if result > 0:
            self.won += 1
        elif result < 0:
            self.lost += 1
        else:
            self.drawn += 1


@dataclass
class GameStats:
    """One game's figures for one player (the module's docstring says what each is)."""

    game: str
    matches: Tally = field(default_factory=Tally)
    deals_played: int = 0
    deals_won: int = 0
    coats_won: int = 0
    coats_suffered: int = 0
    courts_won: int = 0
    courts_suffered: int = 0
    goats: int = 0
    goats_given: int = 0
    eggs: int = 0
    defeat_taken_total: int = 0
    defeat_given_total: int = 0
    streak: int = 0
    best_streak: int = 0
    worst_streak: int = 0
    by_opponent: dict[str, Tally] = field(default_factory=dict)

    def as_json(self) -> dict[str, Json]:
        """The figures this game has, as plain data."""
        out: dict[str, Json] = {
            "game": self.game,
            "matches": asdict(self.matches),
            "deals": {"played": self.deals_played, "won": self.deals_won},
        }
        finished = self.matches.played
        for name in GAME_FIGURES[self.game]:
            if name == "defeat_taken":
                out[name] = round(self.defeat_taken_total / finished, 2) if finished else None
            elif name == "defeat_given":
                out[name] = round(self.defeat_given_total / finished, 2) if finished else None
            else:
                out[name] = getattr(self, name)
        out["streak"] = self.streak
        out["best_streak"] = self.best_streak
        out["worst_streak"] = self.worst_streak
        out["by_opponent"] = {k: asdict(v) for k, v in sorted(self.by_opponent.items())}
        return out

    def state(self) -> dict[str, Json]:
        """Every counter, to keep (``GameStats.of_state`` reads it back)."""
        return asdict(self)

    @classmethod
    def of_state(cls, state: Mapping[str, Json]) -> GameStats:
        d = dict(state)
        matches = d.pop("matches")
        by = d.pop("by_opponent")
        assert isinstance(matches, dict) and isinstance(by, dict)
        return cls(**d, matches=Tally(**matches),
                   by_opponent={k: Tally(**v) for k, v in by.items()})

    def _end_match(self, result: int, kind: str) -> None:
        self.matches.add(result)
        self.by_opponent.setdefault(kind, Tally()).add(result)
        if result == 0:
            self.streak = 0
        elif result > 0:
            self.streak = self.streak + 1 if self.streak > 0 else 1
        else:
            self.streak = self.streak - 1 if self.streak < 0 else -1
        self.best_streak = max(self.best_streak, self.streak)
        self.worst_streak = max(self.worst_streak, -self.streak)


def side_of(game: str, seat: int) -> int:
    """The side a seat plays for, as the game states its teams (a partnership in the
    four-player games, the seat itself where each plays alone).

    >>> side_of("court-piece", 2), side_of("goat", 3), side_of("court-piece-2p", 1)
    (0, 1, 1)
    """
    return next(i for i, team in enumerate(game_class(game).teams) if seat in team)


def opponent_kind(record: Mapping[str, Json], seat: int) -> str:
    """``"people"``, a bot level, ``"mixed"`` or ``"unknown"`` (see the module's docstring)."""
    seats = record.get("seats")
    game = str(record["game"])
    if not isinstance(seats, list):
        return "unknown"
    mine = side_of(game, seat)
    kinds: set[str] = set()
    for i, s in enumerate(seats):
        if side_of(game, i) == mine:
            continue
        if not isinstance(s, dict):
            return "unknown"
        kinds.add("people" if s.get("type") == "human" else f"bot:{s.get('level')}")
    if len(kinds) == 1:
        return kinds.pop()
    return "mixed" if kinds else "unknown"


def seat_of_player(record: Mapping[str, Json], who: str) -> int | None:
    """The seat whose ``seats`` entry names ``who`` (a player id, or else a seat's name)."""
    seats = record.get("seats")
    if not isinstance(seats, list):
        return None
    for key in ("player", "name"):
        for i, s in enumerate(seats):
            if isinstance(s, dict) and s.get(key) == who:
                return i
    return None


def match_result(game: str, match: Mapping[str, Json], side: int) -> int | None:
    """1 won, -1 lost, 0 drawn, None: not over."""
    if not match.get("over"):
        return None
    if "loser" in match:  # Goat: the goat's team loses
        return -1 if match["loser"] == side else 1
    winner = match["winner"]
    if winner == "draw" or winner is None:
        return 0
    return 1 if winner == side else -1


def add_record(stats: dict[str, GameStats], record: Mapping[str, Json], seat: int,
               summary: Mapping[str, Json] | None = None) -> None:
    """Count one record, read from ``seat``, into ``stats`` (keyed by game).  ``summary``: the
    record's summary if already known (else the record is verified here: RecordError,
    ReplayError)."""
    if summary is None:
        summary = verify(dict(record))
    game = str(summary["game"])
    if not is_int(seat) or not 0 <= seat < game_class(game).num_seats:
        raise RecordError(f"seat {seat} is not a seat of {game}")
    side = side_of(game, seat)
    st = stats.setdefault(game, GameStats(game))
    points_won = game_class(game).deal_unit == "points"  # Goat: card points, eggs, defeat
    deals = summary["deals"]
    assert isinstance(deals, list)
    for d in deals:
        assert isinstance(d, dict)
        if not d.get("complete"):
            continue
        st.deals_played += 1
        if points_won:
            points = d["points"]
            assert isinstance(points, list)
            if d["eggs"]:
                st.eggs += 1
            elif points[side] > points[1 - side]:
                st.deals_won += 1
            continue
        won = d["winner"] == side
        st.deals_won += won
        if d.get("coat"):  # Court Piece
            st.coats_won += won
            st.coats_suffered += not won
        elif d.get("court"):  # two-player Court Piece
            st.courts_won += won
            st.courts_suffered += not won
    match = summary["match"]
    assert isinstance(match, dict)
    result = match_result(game, match, side)
    if result is None:
        return
    if points_won:
        defeat = match["defeat"]
        assert isinstance(defeat, list)
        st.goats += result < 0
        st.goats_given += result > 0
        st.defeat_taken_total += int(defeat[side])
        st.defeat_given_total += int(defeat[1 - side])
    st._end_match(result, opponent_kind(record, seat))


def compute(entries: Iterable[tuple[Mapping[str, Json], int]]) -> dict[str, GameStats]:
    """Stats per game from ``(record, seat)`` pairs, oldest first."""
    stats: dict[str, GameStats] = {}
    for record, seat in entries:
        add_record(stats, record, seat)
    return stats
