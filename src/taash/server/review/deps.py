"""The analyses, as a route parameter (see taash.server.http.deps)."""

from __future__ import annotations

from typing import Annotated

from taash.server.http.deps import service
from taash.server.review.analyses import Analyses

AnalysesDep = Annotated[Analyses, service("analyses")]
