"""A deadline for a request's line and headers, which uvicorn does not have (its keep-alive
timeout covers only the quiet time between two requests and restarts at every byte): a client
that connects and says nothing, or sends half a header, or one byte at a time, is closed once
``header_timeout`` seconds pass without a whole request head.  The body has its own deadline,
in the app's guard (408)."""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


def deadline_protocol(header_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a deadline on each request head: from the connection, and
    again from the end of each answer (the next request on a kept-alive connection)."""

    class DeadlineProtocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            if header_timeout > 0:
                self._head_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _too_slow(self) -> None:
            self._head_timer = None
            # still no whole request head (h11 waits for one while the client is IDLE)
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # a head came (or an upgrade): no limit
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return DeadlineProtocol
