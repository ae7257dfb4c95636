"""Outages a test can cause without touching the services other tests share: a private
``redis-server`` on a loopback port of its own (killed and started again on the same port), and
a loopback TCP proxy in front of PostgreSQL that the test cuts (every connection through it
closed, new ones refused) and restores."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import TypeVar

from tests.server.helpers import free_port
from tests.waiting import wait_until

REDIS_SERVER = "/usr/bin/redis-server"
T = TypeVar("T")


class PrivateRedis:
    """A ``redis-server`` of this test's own (no persistence), on 127.0.0.1."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir), "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        proc = self.proc

        def answers() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    return s.recv(16).startswith(b"+PONG")
            except OSError:
                return False

        wait_until(answers, timeout=20, every=0.05, what="the private redis-server")

    def kill(self) -> None:
        """SIGKILL: gone at once, and what it held with it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


class CutProxy:
    """A TCP proxy on 127.0.0.1 (its own thread and event loop) in front of ``target``:
    ``cut()`` closes every connection through it and refuses new ones (accepted, then closed
    at once: the port stays this proxy's) until ``restore()``; ``freeze()`` keeps every
    connection open but passes nothing on, either way, and new ones wait (a server that
    stopped answering: its host gone, the network between cut) until ``restore()``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 5432) -> None:
        self.target = (host, port)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="cut-proxy",
                                       daemon=True)
        self.down = False
        self.frozen = False
        self.links: set[asyncio.StreamWriter] = set()
        self.refused = 0  # connections refused while cut
        self.server: asyncio.Server | None = None
        self.port = 0

    def start(self) -> CutProxy:
        self.thread.start()
        self.server = self._call(asyncio.start_server(self._client, "127.0.0.1", 0))
        self.port = int(self.server.sockets[0].getsockname()[1])
        return self

    def _call(self, coro: Coroutine[object, object, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def url(self, pg_url: str) -> str:
        """``pg_url`` (a database at the target) reached through this proxy."""
        host = f"{self.target[0]}:{self.target[1]}"
        assert host in pg_url, pg_url
        return pg_url.replace(host, f"127.0.0.1:{self.port}")

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            self.refused += 1
            writer.transport.abort()
            return
        while self.frozen:
            await asyncio.sleep(0.05)
        try:
            up_r, up_w = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.links |= {writer, up_w}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    if self.frozen:  # held, as a network that lost its way holds it...
                        while self.frozen:
                            await asyncio.sleep(0.05)
                        if src.at_eof():  # ...but its sender gave up and closed meanwhile:
                            break         # never delivered (TCP would reset the connection)
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.IncompleteReadError):
                pass
            finally:
                dst.transport.abort()

        try:
            await asyncio.gather(pipe(reader, up_w), pipe(up_r, writer))
        finally:
            self.links -= {writer, up_w}

    async def _cut(self) -> None:
        self.down = True
        for w in list(self.links):
            w.transport.abort()

    async def _restore(self) -> None:
        self.down = self.frozen = False

    async def _freeze(self) -> None:
        self.frozen = True

    def freeze(self) -> None:
        self._call(self._freeze())

    def cut(self) -> None:
        self._call(self._cut())

    def restore(self) -> None:
        self._call(self._restore())

    async def _close(self) -> None:
        await self._cut()
        if self.server is not None:
            self.server.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._call(self._close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
