"""Link another device: a signed-in player asks for a short one-time code (and its QR image);
typed (or scanned) on another device, it signs that device in as the player.

The code is 8 characters from an alphabet with no look-alikes (no I, L, O, 0 or 1), shown as
``XXXX-XXXX``; it works once, for ``CODE_S`` seconds, and the store keeps only its sha256.  The
new device's session is replaced by a new one (a new cookie: the id is rotated at sign-in).
The guest that device played as keeps their seats unless the request asks to merge them.
"""

from __future__ import annotations

import io
import secrets
import time
from typing import TYPE_CHECKING

import segno
from typing_extensions import TypedDict

from taash.server.accounts.players import SESSION_S, MeJson, Who, me, secret_hash
from taash.server.accounts.sign_in import Attempts
from taash.server.errors import BadRequest
from taash.server.store.db import SessionRow
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.server.accounts.players import Players
    from taash.server.config import Settings
    from taash.server.store.db import Store

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LEN = 8
CODE_S = 600.0  # a code works for ten minutes
REFUSED = "that code is wrong, used or expired: make a new one on your signed-in device"


def new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))
    return f"{raw[:4]}-{raw[4:]}"


def normal(code: object) -> str | None:
    """The code as stored (upper case, no dash or spaces); None if it cannot be one.

    >>> normal(" abcd-efgh "), normal("ABCDEFG"), normal(7)
    ('ABCDEFGH', None, None)
    """
    if not isinstance(code, str):
        return None
    raw = "".join(code.split()).replace("-", "").upper()
    if len(raw) != CODE_LEN or any(c not in ALPHABET for c in raw):
        return None
    return raw


def qr_svg(url: str) -> str:
    """An SVG document of ``url``'s QR image, dark on light (an ``<img>`` can show it)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False,
                                    scale=4, dark="#111", light="#fff")
    return out.getvalue().decode()


class LinkCode(TypedDict):
    """A one-time code that signs another device in, its sign-in URL and QR image."""

    code: str
    expires: str
    expires_in: int
    url: str
    qr_svg: str


class Linked(TypedDict):
    """A device signed in by a code: the player, the new session's id, the device's guest
    tables, whether they were merged, and those that stayed the guest's (``refused``)."""

    player: MeJson
    session: str
    guest_tables: int
    merged: bool
    refused: list[str]


class Linker:
    """Link codes, as the HTTP layer reaches them."""

    def __init__(self, settings: Settings, store: Store, players: Players) -> None:
        self.store, self.players = store, players
        # tries per address at a code: one every 12 s, a burst of 5; off with the rate limit
        self.tries = Attempts(5, 0.0 if settings.rate_limit <= 0 else 12.0)

    async def make(self, who: Who, base: str) -> LinkCode:
        code = new_code()
        now = time.time()
        await self.store.create_link_code(secret_hash(normal(code) or ""), who.player.id,
                                              now, now + CODE_S)
        url = f"{base.rstrip('/')}/link?code={code}"
        return {"code": code, "expires": iso(now + CODE_S), "expires_in": int(CODE_S),
                "url": url, "qr_svg": qr_svg(url)}

    async def link(self, who: Who, code: object, merge: bool, user_agent: str | None,
                   address: str) -> tuple[Linked, str, str]:
        """Sign this device (its session ``who``) in as the code's player: the answer, the
        new session's secret and the old session's id.  BadRequest (one message for every
        wrong, used or expired code); RateLimited past the tries allowed per address."""
        self.tries.check(address, "tries at a link code from this address")
        raw = normal(code)
        store = self.store
        now = time.time()
        player_id = None if raw is None else await store.link_code_player(secret_hash(raw), now)
        if raw is None or player_id is None:
            raise BadRequest(REFUSED)
        if player_id == who.player.id:
            raise BadRequest("this device is already signed in as that player")
        guest_tables = len({r["id"] for r in await store.player_tables(who.player.id)})
        secret = secrets.token_urlsafe(32)
        s = SessionRow(secrets.token_urlsafe(12), player_id, now, now, now + SESSION_S,
                       (user_agent or "")[:300] or None)
        merging = merge and guest_tables > 0
        refused = await store.link_device(secret_hash(raw), player_id, now, who.session.id, s,
                                          secret_hash(secret),
                                          who.player.id if merging else None)
        if refused is None:
            raise BadRequest(REFUSED)
        found = await store.session_of(secret_hash(secret), now)
        assert found is not None
        if merging:
            await self.players.rename_seats(player_id, found[1].name)
        # a table where the player sits too stays the guest's (a player holds one seat there)
        return ({"player": me(found[1]), "session": s.id, "guest_tables": guest_tables,
                 "merged": merging, "refused": refused}, secret, who.session.id)
