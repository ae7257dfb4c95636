"""What a room's parts read of every room (``tables.room.Room`` is one), as ``Protocol``s
they extend with their own needs: a part imports these, never the room, so the room and its
parts import no circle (tests/test_imports.py)."""

from __future__ import annotations

from typing import Protocol

from taash.games.base import MatchState
from taash.server.store.db import TableRow


class Tabled(Protocol):
    """A room's table: its id and its row (seats, options, who moves, the wait)."""

    @property
    def id(self) -> str: ...

    @property
    def meta(self) -> TableRow: ...


class Played(Tabled, Protocol):
    """A room's table with its match and the version the match is at."""

    @property
    def state(self) -> MatchState: ...

    @property
    def version(self) -> int: ...
