"""E-mail: a player adds an address, confirmed by a one-time link sent to it, and later signs in
by a one-time link sent there.

Links are random (32 bytes), kept only as their sha256, work once and for ``LINK_S`` seconds;
a new link of one kind for an address ends the earlier ones.  The link's secret travels in the
address's fragment (``/email/sign-in#...``), which the browser never sends to a server, so no
log or Referer holds it; the page posts it.  Asking for a sign-in link answers the same whether
or not the address has an account.  The mails are in the player's language, in the words of
the page's strings (``web/i18n``).  Without an SMTP server (``--smtp``) there is no e-mail, and
every e-mail request says so.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from typing_extensions import TypedDict

from taash.server.accounts.players import LANGUAGES, Who, secret_hash
from taash.server.errors import BadRequest, Conflict, NoEmail
from taash.server.notify.notifier import valid_email

if TYPE_CHECKING:
    from taash.server.notify.notifier import Notifier
    from taash.server.store.db import Store

log = logging.getLogger("taash.server")

LINK_S = 900.0  # a link works for fifteen minutes
SENT = "if that address has an account, a sign-in link is on its way to it"
NO_SMTP = ("this server sends no e-mail: it has no SMTP server configured (taash serve "
           "--smtp smtp://HOST:PORT?from=ADDRESS); sign in with a passkey or a device code")
REFUSED = "that link is used, replaced or expired (links work once, for 15 minutes): ask again"
MAIL_KEYS = ("mail_confirm_subject", "mail_confirm_body", "mail_sign_in_subject",
             "mail_sign_in_body")


@cache
def mail_strings(language: str) -> dict[str, str]:
    """The mails' words in a language of the page (English for any missing)."""
    def load(code: str) -> dict[str, str]:
        path = resources.files("taash") / "web" / "i18n" / f"{code}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: str(data[k]) for k in MAIL_KEYS if k in data}

    return {**load("en"), **(load(language) if language in LANGUAGES else {})}


def clean_address(raw: object) -> str:
    if not isinstance(raw, str):
        raise BadRequest("address must be text")
    address = raw.strip().lower()
    if len(address) > 254 or not valid_email(address):
        raise BadRequest(f"{raw.strip()[:60]!r} is not an e-mail address")
    return address


class EmailSent(TypedDict):
    """A confirmation link sent to ``address``, good for ``expires_in`` seconds."""

    address: str
    sent: bool
    expires_in: int


class EmailConfirmed(TypedDict):
    address: str
    confirmed: bool


class SignInSent(TypedDict):
    """The same answer whether or not the address is an account's (``sent``: SENT)."""

    sent: str
    expires_in: int


class EmailSignIn:
    """Addresses and their one-time links."""

    def __init__(self, store: Store, notifier: Notifier,
                 spawn: Callable[[Awaitable[None]], None]) -> None:
        self.store, self.notifier, self.spawn = store, notifier, spawn

    def _need_smtp(self) -> None:
        if self.notifier.smtp is None:
            raise NoEmail(NO_SMTP)

    def _send(self, address: str, language: str, kind: str, url: str, name: str) -> None:
        words = mail_strings(language)
        subject = words.get(f"mail_{kind}_subject", "taash")
        body = words.get(f"mail_{kind}_body", "{url}").replace("{url}", url).replace(
            "{name}", name).replace("{minutes}", str(int(LINK_S // 60)))
        self.notifier.send(None, address, {}, subject, body)

    async def _link(self, purpose: str, address: str, player_id: str) -> str:
        secret = secrets.token_urlsafe(32)
        now = time.time()
        await self.store.add_email_link(secret_hash(secret), purpose, address, player_id,
                                            now, now + LINK_S)
        return secret

    async def add(self, who: Who, raw: object, base: str) -> EmailSent:
        """Send a confirmation link to the address; it is the player's once opened."""
        self._need_smtp()
        address = clean_address(raw)
        secret = await self._link("confirm", address, who.player.id)
        self._send(address, who.player.language, "confirm",
                   f"{base.rstrip('/')}/email/confirm#{secret}", who.player.name)
        return {"address": address, "sent": True, "expires_in": int(LINK_S)}

    async def confirm(self, token: object) -> EmailConfirmed:
        """Open a confirmation link: the address becomes its player's."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise BadRequest(REFUSED)
        found = await self.store.spend_email_link(secret_hash(token), "confirm",
                                                      time.time())
        if found is None or found[1] is None:
            raise BadRequest(REFUSED)
        address, player_id = found[0], found[1]
        if not await self.store.set_email(player_id, address):
            raise Conflict("that address is another account's now: sign in with it instead")
        return {"address": address, "confirmed": True}

    async def remove(self, who: Who) -> None:
        await self.store.set_email(who.player.id, None)

    async def request(self, raw: object, base: str) -> SignInSent:
        """Send a sign-in link if the address is an account's; the answer is the same
        either way."""
        self._need_smtp()
        address = clean_address(raw)
        owner = await self.store.email_owner(address)
        if owner is not None:  # after the answer: its time says nothing either
            self.spawn(self._sign_in_mail(address, owner, base))
        return {"sent": SENT, "expires_in": int(LINK_S)}

    async def _sign_in_mail(self, address: str, owner: str, base: str) -> None:
        try:
            secret = await self._link("sign_in", address, owner)
            found = await self.store.player(owner)
        except Exception as e:  # the player was told nothing either way: a log line only
            log.warning("sign-in link for an address not made: %r", e)
            return
        language, name = (found.language, found.name) if found else ("en", "")
        self._send(address, language, "sign_in", f"{base.rstrip('/')}/email/sign-in#{secret}",
                   name)

    async def open(self, token: object) -> str:
        """Spend a sign-in link: the player it signs in as (BadRequest, one message for
        every wrong, used or expired link)."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise BadRequest(REFUSED)
        found = await self.store.spend_email_link(secret_hash(token), "sign_in",
                                                      time.time())
        if found is None or found[1] is None:
            raise BadRequest(REFUSED)
        address, player_id = found[0], found[1]
        if await self.store.email_owner(address) != player_id:  # the address moved on
            raise BadRequest(REFUSED)
        return player_id
