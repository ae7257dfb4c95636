"""The taash game server: tables, seats, bots, the live channel and play-anytime notices.

``taash serve`` runs it (see ``taash.server.cli``); ``create_app`` builds the ASGI app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer


def register(app: typer.Typer) -> None:
    """Add ``taash serve`` to the command line."""
    from taash.server.cli import register as _register

    _register(app)


__all__ = ["register"]
