"""Withdrawn seat tokens, across instances: the instance that withdraws a token in the store
tells the others on the bus and waits (a few seconds at most) until each has confirmed that its
rooms dropped it, so the token is refused everywhere once the withdrawal is answered."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taash.server.tables.bus import Bus, Heard
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")

WITHDRAW_WAIT_S = 5.0  # how long a withdrawal waits for the other instances to confirm it


class Withdrawals:
    def __init__(self, bus: Bus, instance: str, rooms: Mapping[str, Room]) -> None:
        self.bus, self.instance, self.rooms = bus, instance, rooms
        # withdrawals this instance published: nonce -> (confirmed by these instances, woken)
        self.pending: dict[str, tuple[set[str], asyncio.Event]] = {}

    async def withdraw(self, table_id: str, hashes: list[str]) -> None:
        """Seat tokens (their hashes) just withdrawn in the store: every instance forgets
        them before this returns.  Each confirms on the bus once its rooms have dropped them;
        this waits for as many confirmations as the bus counted listeners (up to
        ``WITHDRAW_WAIT_S``; one that never answers is logged)."""
        if not self.bus.shared or not hashes:
            return
        nonce = secrets.token_hex(8)
        confirmed: set[str] = set()
        woken = asyncio.Event()
        self.pending[nonce] = (confirmed, woken)
        try:
            heard = await self.bus.publish_counted(
                {"k": "withdrawn", "t": table_id, "h": list(hashes), "n": nonce,
                 "i": self.instance})
            others = heard - (1 if self.bus.live else 0)
            deadline = time.monotonic() + WITHDRAW_WAIT_S
            while len(confirmed) < others:
                left = deadline - time.monotonic()
                if left <= 0:
                    log.warning("table %s: %d of %d instances confirmed a withdrawn token",
                                table_id, len(confirmed), others)
                    return
                woken.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), left)
        finally:
            del self.pending[nonce]

    async def on_withdrawn(self, msg: Heard) -> None:
        """Another instance withdrew tokens: forget them here, and confirm."""
        sender = msg.get("i")
        if sender == self.instance:
            return
        hashes = msg.get("h")
        room = self.rooms.get(str(msg.get("t")))
        if room is not None and isinstance(hashes, list):
            room.forget_tokens({str(h) for h in hashes})
        nonce = msg.get("n")
        if isinstance(nonce, str) and isinstance(sender, str):  # else no one waits for it
            await self.bus.publish({"k": "withdrawn_ok", "n": nonce, "to": sender,
                                    "i": self.instance})

    def on_confirmed(self, msg: Heard) -> None:
        """An instance confirmed one of this instance's withdrawals."""
        if msg.get("to") == self.instance:
            waiting = self.pending.get(str(msg.get("n")))
            if waiting is not None:
                waiting[0].add(str(msg.get("i")))
                waiting[1].set()
