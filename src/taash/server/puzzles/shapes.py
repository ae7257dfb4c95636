"""What the puzzles API answers, typed (docs/API.md, "Puzzles")."""

from __future__ import annotations

from typing_extensions import TypedDict


class RatingJson(TypedDict):
    """A Glicko-2 rating: ``rating`` (1500 new), ``rd`` its deviation (350 new), ``volatility``
    (0.06 new)."""

    rating: float
    rd: float
    volatility: float


class Shown(TypedDict):
    """A puzzle's position as the player to move is shown it: their view as at a table
    (``view``, the core's, with ``legal_actions``) and, since a puzzle is made with every hand
    open, each seat's hand now (``hands``, by seat).  Never the solution."""

    id: str
    game: str
    options: dict[str, object]
    seat: int  # the seat to move: the player's
    open_hands: bool  # always true: every hand is shown
    view: dict[str, object]
    hands: list[list[str]]
    url: str


class Tried(TypedDict):
    """The player's first attempt at this puzzle."""

    solved: bool
    at: str


class PuzzleJson(Shown):
    """A puzzle to solve: its position, its rating now, whether the player has tried it, and
    whether an attempt now would move the player's rating (``rated``: signed in, first try)."""

    rating: RatingJson
    attempted: Tried | None
    rated: bool


class DailyJson(PuzzleJson):
    date: str  # YYYY-MM-DD (UTC)


class Continuation(TypedDict):
    seat: int
    action: str


class Moved(TypedDict):
    """A rating before and after an attempt (the Glicko scale's number)."""

    before: float
    after: float


class StreakJson(TypedDict):
    """A streak: puzzles of rising difficulty until the first miss.  ``run``: solved in a row
    so far; ``best``: the player's best of the game; ``over``: missed (then ``puzzle`` is
    None), else ``puzzle`` is the next to solve."""

    game: str
    run: int
    best: int
    over: bool
    puzzle: PuzzleJson | None


class AttemptJson(TypedDict):
    """An attempt's answer: right or wrong, and now the solution (every card of its one best
    group), the best line after it, what each move keeps (``value``: its unit, the best result,
    the obvious move's) and the themes.  ``counted``: the player's first attempt at it (a
    puzzle counts once); ``player`` and ``puzzle``: the ratings moved by it (None: not rated,
    or not the first attempt)."""

    id: str
    game: str
    action: str
    solved: bool
    counted: bool
    rated: bool
    solution: list[str]
    continuation: list[Continuation]
    value: dict[str, object]
    themes: list[str]
    player: Moved | None
    puzzle: Moved | None
    streak: StreakJson | None


class HistoryLine(TypedDict):
    id: str
    game: str
    solved: bool
    at: str
    rated: bool
    rating_before: float | None
    rating_after: float | None
    url: str


class GameRating(TypedDict):
    """A player's puzzles of one game: their rating (None: never rated, a guest's), tries,
    solved, best streak."""

    game: str
    rating: RatingJson | None
    attempts: int
    solved: int
    best_streak: int


class PlayerPuzzles(TypedDict):
    """A player's puzzles: each game's rating and counts, and the latest attempts."""

    player: str
    games: list[GameRating]
    recent: list[HistoryLine]

