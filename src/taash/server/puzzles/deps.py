"""The puzzles domain's service, as a route parameter (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.http.deps import service
from taash.server.puzzles.service import Puzzles

PuzzlesDep = Annotated[Puzzles, service("puzzles")]
