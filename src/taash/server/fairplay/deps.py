"""The fair-play domain's service, as a route parameter (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.fairplay.service import FairPlay
from taash.server.http.deps import service

FairPlayDep = Annotated[FairPlay, service("fairplay")]
