"""The clubs domain's service, as a route parameter (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.clubs.play import ClubPlay
from taash.server.clubs.service import Clubs
from taash.server.http.deps import service

ClubsDep = Annotated[Clubs, service("clubs")]
ClubPlayDep = Annotated[ClubPlay, service("club_play")]
