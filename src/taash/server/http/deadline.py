"""A deadline and a bound on a request's line and headers (its head), which uvicorn does not
have: its keep-alive timeout covers only the quiet time between an answer and the next byte, and
is cancelled by any byte.  A client that connects and says nothing, sends half a head, or one
byte at a time, is closed once ``header_timeout`` seconds pass from the connection, or from the
first byte of a later request on it, without a whole head; a head over ``MAX_HEAD`` bytes is
answered 431 and closed.  The body has its own deadline, in the app's guard (408).

How, with public interfaces only: uvicorn takes the HTTP protocol as a class
(``uvicorn.Config(http=...)``) and has no setting for a head's time (``timeout_keep_alive``,
``limit_concurrency``, ``h11_max_incomplete_event_size`` and ``timeout_graceful_shutdown`` are
about other things), and an ASGI middleware sees a request only once its head is whole.  So the
class given is ``HeadGuard``: an ``asyncio.Protocol`` that sits between the connection and
uvicorn's own protocol, which it builds with uvicorn's arguments and drives only through the
asyncio protocol methods.  The guard reads a copy of the bytes with httptools' parser (the C
parser uvicorn[standard] brings) to know where each head starts and ends; it never reads or
overrides uvicorn's internals.  What it cannot see is when an answer ends, so the deadline of a
later request runs from that request's first byte (the quiet time before it is uvicorn's
keep-alive timeout), not from the end of the answer before.

uvicorn's protocol inside is its httptools one (llhttp, in C: the server's choice, since it
costs a fraction of h11's CPU per request, bench/RESULTS.md 2026-12-04), or its h11 one where
httptools is not installed."""

from __future__ import annotations

import asyncio
from typing import cast

import httptools
from uvicorn.protocols.http.h11_impl import H11Protocol

#: uvicorn's protocol behind the guard: its httptools one (httptools comes with
#: uvicorn[standard]; the guard reads with it too), else its h11 one
FASTEST: type[asyncio.Protocol]
try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as FASTEST
except ImportError:  # pragma: no cover
    FASTEST = H11Protocol

MAX_HEAD = 16 * 1024  # bytes of a request's line and headers; a longer head is refused

_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; "
              b"charset=utf-8\r\ncontent-length: 29\r\nconnection: close\r\n\r\n"
              b"the request's head is too big")


class HeadGuard(asyncio.Protocol):
    """The deadline and the bound on each request head, in front of ``inner`` (uvicorn's HTTP
    protocol class), which gets the connection and every byte the guard lets through."""

    inner: type[asyncio.Protocol]
    header_timeout = 0.0

    def __init__(self, *args: object, **kwargs: object) -> None:
        self.protocol = self.inner(*args, **kwargs)  # as uvicorn would have built it
        self.parser: httptools.HttpRequestParser | None = httptools.HttpRequestParser(self)
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.waiting = True  # for a head: none has come since the last request ended
        self.heads = 0  # heads come so far
        self.head_bytes = 0  # bytes read towards the awaited head
        self.parsed_head = 0  # bytes of the head being parsed: its target and headers
        self.refused = False  # a head over the bound was answered 431: nothing more is read

    # -- the deadline ---------------------------------------------------------------------------
    def _arm(self) -> None:
        if self.timer is None and self.header_timeout > 0:
            loop = asyncio.get_running_loop()
            self.timer = loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _too_slow(self) -> None:
        self.timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _refuse(self) -> None:
        self.refused = True
        self._disarm()
        if self.transport is not None:
            self.transport.write(_TOO_LARGE)
            self.transport.close()

    # -- the copy's parser (httptools calls these) ----------------------------------------------
    def on_message_begin(self) -> None:
        self.parsed_head = 0
        self._arm()  # a later request's first byte (the first request's runs from the connection)

    def on_url(self, url: bytes) -> None:
        self.parsed_head += len(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.parsed_head += len(name) + len(value) + 4  # ": " and the line's end

    def on_headers_complete(self) -> None:
        self.heads += 1
        self.waiting = False
        self._disarm()
        if self.parsed_head > MAX_HEAD:  # a whole head can come in one read
            self.refused = True

    def on_message_complete(self) -> None:
        self.waiting = True  # the next head's deadline starts at its first byte
        self.head_bytes = 0

    # -- the connection -------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast("asyncio.Transport", transport)  # uvloop's is not a subclass
        self.protocol.connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.parser is not None:
            waiting, heads = self.waiting, self.heads
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserUpgrade:
                self._upgrading()
            except httptools.HttpParserError:
                self.parser = None  # uvicorn's parser answers it (400) and closes
            if self.refused:
                self._refuse()
                return
            if waiting and self.waiting and heads == self.heads:
                self.head_bytes += len(data)  # a head still incomplete (or dribbling in)
                if self.head_bytes > MAX_HEAD:
                    self._refuse()
                    return
        self.protocol.data_received(data)
        if self.parser is None and self.transport is not None \
                and self.transport.get_protocol() is self and not self.transport.is_closing():
            self._arm()  # an upgrade that uvicorn did not take: no more heads are read on it

    def _upgrading(self) -> None:
        # a WebSocket (or another upgrade): uvicorn's protocol hands the connection to its
        # WebSocket protocol, and the guard steps aside
        self.parser = None
        self._disarm()

    def eof_received(self) -> bool | None:
        return self.protocol.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.parser = None
        self.protocol.connection_lost(exc)

    def pause_writing(self) -> None:
        self.protocol.pause_writing()

    def resume_writing(self) -> None:
        self.protocol.resume_writing()


def head_guard(inner: type[asyncio.Protocol], header_timeout: float) -> type[HeadGuard]:
    """``inner`` (one of uvicorn's HTTP protocol classes) behind the head's deadline and bound:
    the class to give ``uvicorn.Config(http=...)``."""
    return type(f"HeadGuard_{inner.__name__}", (HeadGuard,),
                {"inner": inner, "header_timeout": header_timeout})


def deadline_protocol(header_timeout: float) -> type[HeadGuard]:
    """The fastest HTTP protocol installed, behind the deadline and the bound on a head."""
    return head_guard(FASTEST, header_timeout)
