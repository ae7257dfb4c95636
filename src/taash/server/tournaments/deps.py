"""The tournaments domain's service, as a route parameter (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.http.deps import service
from taash.server.tournaments.play import Running
from taash.server.tournaments.service import Tournaments

TournamentsDep = Annotated[Tournaments, service("tournaments")]
RunningDep = Annotated[Running, service("tournament_play")]
