"""The sign-in routes of docs/API.md: passkeys (``/api/me/passkeys``,
``/api/sign-in/passkey``), e-mail (``/api/me/email``, ``/api/email/confirm``,
``/api/sign-in/email``) and the guest-merge answer (``/api/me/merge``).

A sign-in request must come from this site's pages (the Origin check), with or without a
session cookie: another site cannot sign a browser in to an account of its choosing.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from taash.games.base import Json
from taash.server.accounts.me import check_origin, set_cookie, signed_in, who_of
from taash.server.accounts.players import Who
from taash.server.config import Settings
from taash.server.tables.hub import Hub


class CredentialBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any] = Field(
        ..., description="what navigator.credentials gave (PublicKeyCredential.toJSON()), "
        "its binary fields in base64url")
    name: str | None = Field(None, max_length=200, description="a name for a new passkey",
                             examples=["Phone"])


class AddressBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str = Field(..., max_length=300, examples=["ayesha@example.com"])


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(..., max_length=200, description="the secret after the link's #")


class MergeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    merge: bool = Field(..., description="true: bring the guest's tables into the account")


def _hub(request: Request) -> Hub:
    h: Hub = request.app.state.hub
    return h


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def add_sign_in_routes(app: FastAPI, settings: Settings) -> None:
    def public(request: Request) -> str:
        return settings.public_url or str(request.base_url)

    async def sign_in_as(request: Request, response: Response, who: Who | None,
                         player_id: str) -> dict[str, Json]:
        out, secret = await _hub(request).sign_in.become(
            who, player_id, request.headers.get("user-agent"))
        set_cookie(response, request, settings, secret)
        response.headers["Cache-Control"] = "no-store"
        return out

    async def signing_in(request: Request) -> Who | None:
        check_origin(request, settings)
        return await who_of(request)

    # -- passkeys ------------------------------------------------------------------------------
    @app.get("/api/me/passkeys", tags=["sign-in"])
    async def my_passkeys(request: Request) -> list[dict[str, Json]]:
        """The player's passkeys: id, name, when added and last used."""
        who = await signed_in(request, settings)
        methods = await _hub(request).sign_in.methods(who.player)
        return [m for m in methods if m["type"] == "passkey"]

    @app.post("/api/me/passkeys/options", tags=["sign-in"])
    async def passkey_create_options(request: Request) -> dict[str, Json]:
        """Options for ``navigator.credentials.create`` (the ``publicKey`` member, binary
        fields in base64url): a passkey for this player (a guest too), kept by the
        authenticator (resident key), its challenge good once for five minutes."""
        who = await signed_in(request, settings)
        hub = _hub(request)
        hub.sign_in.challenges.check(_address(request), "passkey requests from this address")
        return await hub.passkeys.register_options(who, public(request))

    @app.post("/api/me/passkeys", tags=["sign-in"], status_code=201)
    async def add_passkey(request: Request, body: CredentialBody) -> dict[str, Json]:
        """Keep the passkey ``navigator.credentials.create`` made from the options."""
        who = await signed_in(request, settings)
        return await _hub(request).passkeys.register(who, body.credential, body.name,
                                                     public(request))

    @app.delete("/api/me/passkeys/{credential_id}", tags=["sign-in"])
    async def remove_passkey(request: Request, credential_id: str) -> dict[str, Json]:
        """Remove one of the player's passkeys: it signs nobody in from now on."""
        who = await signed_in(request, settings)
        await _hub(request).passkeys.remove(who, credential_id)
        return {"id": credential_id, "removed": True}

    @app.post("/api/sign-in/passkey/options", tags=["sign-in"])
    async def passkey_get_options(request: Request) -> dict[str, Json]:
        """Options for ``navigator.credentials.get``: any passkey of this site (no name is
        typed: the authenticator offers the accounts it keeps)."""
        await signing_in(request)
        hub = _hub(request)
        hub.sign_in.challenges.check(_address(request), "passkey requests from this address")
        return await hub.passkeys.sign_in_options(public(request))

    @app.post("/api/sign-in/passkey", tags=["sign-in"])
    async def passkey_sign_in(request: Request, response: Response,
                              body: CredentialBody) -> dict[str, Json]:
        """Sign this browser in with a passkey's answer: a new session (cookie) of its
        player, the old one ended; ``guest_tables``: the tables the browser's guest has, to
        ask about (``POST /api/me/merge``)."""
        who = await signing_in(request)
        hub = _hub(request)
        hub.sign_in.passkey_tries.check(_address(request),
                                        "sign-in attempts from this address")
        player_id = await hub.passkeys.check_sign_in(body.credential, public(request))
        return await sign_in_as(request, response, who, player_id)

    # -- e-mail --------------------------------------------------------------------------------
    @app.post("/api/me/email", tags=["sign-in"], status_code=202)
    async def add_email(request: Request, body: AddressBody) -> dict[str, Json]:
        """Send a confirmation link (15 minutes, once) to an address; opened, the address
        signs this player in later.  ``no_email`` (400) when the server sends no e-mail."""
        who = await signed_in(request, settings)
        hub = _hub(request)
        hub.sign_in.email_requests.check(_address(request), "e-mails asked for from this "
                                         "address")
        hub.sign_in.mails_to.check(body.address.strip().lower(), "e-mails to that address")
        return await hub.email.add(who, body.address, public(request))

    @app.delete("/api/me/email", tags=["sign-in"])
    async def remove_email(request: Request) -> dict[str, Json]:
        """Remove the player's address: it signs nobody in from now on."""
        who = await signed_in(request, settings)
        await _hub(request).email.remove(who)
        return {"removed": True}

    @app.post("/api/email/confirm", tags=["sign-in"])
    async def confirm_email(request: Request, body: TokenBody) -> dict[str, Json]:
        """Open a confirmation link (``/email/confirm#TOKEN``): the address is its
        player's."""
        check_origin(request, settings)
        hub = _hub(request)
        hub.sign_in.email_opens.check(_address(request), "links opened from this address")
        return await hub.email.confirm(body.token)

    @app.post("/api/sign-in/email", tags=["sign-in"], status_code=202)
    async def email_sign_in(request: Request, body: AddressBody) -> dict[str, Json]:
        """Send a one-time sign-in link (15 minutes) to the address if it is an account's;
        the answer never says whether it is."""
        await signing_in(request)
        hub = _hub(request)
        hub.sign_in.email_requests.check(_address(request), "e-mails asked for from this "
                                         "address")
        hub.sign_in.mails_to.check(body.address.strip().lower(), "e-mails to that address")
        return await hub.email.request(body.address, public(request))

    @app.post("/api/sign-in/email/link", tags=["sign-in"])
    async def email_link_sign_in(request: Request, response: Response,
                                 body: TokenBody) -> dict[str, Json]:
        """Sign this browser in with a sign-in link's secret (``/email/sign-in#TOKEN``), as
        ``POST /api/sign-in/passkey`` does."""
        who = await signing_in(request)
        hub = _hub(request)
        hub.sign_in.email_opens.check(_address(request), "links opened from this address")
        player_id = await hub.email.open(body.token)
        return await sign_in_as(request, response, who, player_id)

    # -- the guest's tables --------------------------------------------------------------------
    @app.post("/api/me/merge", tags=["sign-in"])
    async def merge_guest(request: Request, body: MergeBody) -> dict[str, Json]:
        """Answer "Bring these tables into your account?" after a sign-in: ``merge`` true
        moves the browser's guest's seats to the account (a table where the account sits
        too stays the guest's, listed in ``refused``); false leaves them."""
        who = await signed_in(request, settings)
        return await _hub(request).sign_in.merge(who, body.merge)
