"""A deadline for a request's line and headers, which uvicorn does not have (its keep-alive
timeout covers only the quiet time between two requests and restarts at every byte): a client
that connects and says nothing, or sends half a header, or one byte at a time, is closed once
``header_timeout`` seconds pass without a whole request head.  The body has its own deadline,
in the app's guard (408).

Two variants of one rule: on uvicorn's httptools protocol (llhttp, in C: the server's choice,
since it costs a fraction of h11's CPU per request, bench/RESULTS.md 2026-12-04) and on its
h11 protocol (pure Python, where httptools is not installed)."""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_HEAD = 16 * 1024  # bytes of a request's line and headers; a longer head is refused

_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; "
              b"charset=utf-8\r\ncontent-length: 29\r\nconnection: close\r\n\r\n"
              b"the request's head is too big")


class _HeadTimer(asyncio.Protocol):
    """The deadline's timer, shared by both protocols (a mixin before uvicorn's protocol):
    armed from the connection and whenever a head is awaited again, and on expiry the
    connection is closed if ``_waiting_for_head()`` still says so."""

    header_timeout = 0.0
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    _head_timer: asyncio.TimerHandle | None = None

    def _waiting_for_head(self) -> bool:
        raise NotImplementedError

    def _arm(self) -> None:
        self._disarm()
        if self.header_timeout > 0:
            self._head_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def deadline_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """The fastest HTTP protocol installed, with the deadline and the bound on a head."""
    try:
        return httptools_deadline_protocol(header_timeout)
    except ImportError:
        return h11_deadline_protocol(header_timeout)


def httptools_deadline_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with a deadline on each request head (from the connection,
    and again from the end of each answer) and a bound of ``MAX_HEAD`` bytes on it.  ImportError
    where httptools is not installed."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class DeadlineProtocol(_HeadTimer, HttpToolsProtocol):
        _open_heads = 0  # heads received whose answers are not complete (pipelining)
        _head_bytes = 0  # bytes received towards the next head
        # a request's body is still coming: its bytes are not the next head's, even where the
        # request was answered before its body was read (a 413 from its Content-Length)
        _in_body = False

        def _waiting_for_head(self) -> bool:
            return self._open_heads == 0

        def _arm(self) -> None:
            super()._arm()
            self._head_bytes = 0

        def _counting_head(self) -> bool:
            return self._open_heads == 0 and not self._in_body

        _parsed_head = 0  # bytes of the head being parsed: its line's target and headers
        _refused = False  # a head over the bound was answered 431: nothing more is read

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            counting = self._counting_head()
            super().data_received(data)
            if counting and self._counting_head() and not self.transport.is_closing():
                self._head_bytes += len(data)  # a head still incomplete (or dribbling in)
                if self._head_bytes > MAX_HEAD:
                    self._refuse()

        def _refuse(self) -> None:
            self._refused = True
            self._disarm()
            self.transport.write(_TOO_LARGE)
            self.transport.close()

        # A whole head can come in one read, parsed at once: the bound is also counted as
        # the parser reads its parts, and a head over it is never served.
        def on_message_begin(self) -> None:
            self._parsed_head = 0
            super().on_message_begin()

        def on_url(self, url: bytes) -> None:
            self._parsed_head += len(url)
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._parsed_head += len(name) + len(value) + 4  # ": " and the line's end
            super().on_header(name, value)

        def on_headers_complete(self) -> None:
            if self._refused:  # a request sent after the refused one, in the same read
                return
            if self._parsed_head > MAX_HEAD:
                self._refuse()
                return
            self._open_heads += 1  # a head came (or an upgrade): no deadline while it is served
            self._in_body = True
            self._disarm()
            super().on_headers_complete()

        def on_body(self, body: bytes) -> None:
            if not self._refused:
                super().on_body(body)

        def on_message_complete(self) -> None:
            if self._refused:
                return
            self._in_body = False  # the next head starts here (counted from the answer's end)
            super().on_message_complete()

        def on_response_complete(self) -> None:
            self._open_heads = max(0, self._open_heads - 1)
            super().on_response_complete()
            if self._open_heads == 0 and not self.transport.is_closing():
                self._arm()

    DeadlineProtocol.header_timeout = header_timeout
    return DeadlineProtocol


def h11_deadline_protocol(header_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a deadline on each request head: from the connection, and
    again from the end of each answer (the next request on a kept-alive connection)."""

    class DeadlineProtocol(_HeadTimer, H11Protocol):
        def _waiting_for_head(self) -> bool:
            # still no whole request head (h11 waits for one while the client is IDLE)
            return self.conn.their_state is h11.IDLE

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # a head came (or an upgrade): no limit
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

    DeadlineProtocol.header_timeout = header_timeout
    return DeadlineProtocol
