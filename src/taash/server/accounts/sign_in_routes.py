"""The sign-in routes of docs/API.md: passkeys (``/api/me/passkeys``,
``/api/sign-in/passkey``), e-mail (``/api/me/email``, ``/api/email/confirm``,
``/api/sign-in/email``) and the guest-merge answer (``/api/me/merge``).

A sign-in request must come from this site's pages (the Origin check), with or without a
session cookie: another site cannot sign a browser in to an account of its choosing.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from taash.server.accounts.deps import EmailDep, PasskeysDep, SignInDep
from taash.server.accounts.email_sign_in import EmailConfirmed, EmailSent, SignInSent
from taash.server.accounts.me import check_origin, set_cookie, signed_in, who_of
from taash.server.accounts.players import PasskeyMethod, Who
from taash.server.accounts.sign_in import Merged, SignedIn, SignIn
from taash.server.config import Settings
from taash.server.http.deps import SettingsDep


class CredentialBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    credential: dict[str, object] = Field(
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


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


class PasskeyRemoved(TypedDict):
    id: str
    removed: bool


class EmailRemoved(TypedDict):
    removed: bool


router = APIRouter()


def public(settings: Settings, request: Request) -> str:
    return settings.public_url or str(request.base_url)

async def sign_in_as(settings: Settings, request: Request, response: Response, who: Who | None,
                     player_id: str) -> SignedIn:
    sign_in: SignIn = request.app.state.sign_in
    out, secret = await sign_in.become(
        who, player_id, request.headers.get("user-agent"))
    set_cookie(response, request, settings, secret)
    response.headers["Cache-Control"] = "no-store"
    return out

async def signing_in(settings: Settings, request: Request) -> Who | None:
    check_origin(request, settings)
    return await who_of(request)

# -- passkeys ------------------------------------------------------------------------------
@router.get("/api/me/passkeys", tags=["sign-in"])
async def my_passkeys(sign_in: SignInDep, settings: SettingsDep, request: Request
) -> list[PasskeyMethod]:
    """The player's passkeys: id, name, when added and last used."""
    who = await signed_in(request, settings)
    methods = await sign_in.methods(who.player)
    return [m for m in methods if m["type"] == "passkey"]

@router.post("/api/me/passkeys/options", tags=["sign-in"])
async def passkey_create_options(passkeys: PasskeysDep, sign_in: SignInDep, settings: SettingsDep,
                                 request: Request) -> dict[str, object]:
    """Options for ``navigator.credentials.create`` (the ``publicKey`` member, binary
    fields in base64url): a passkey for this player (a guest too), kept by the
    authenticator (resident key), its challenge good once for five minutes."""
    who = await signed_in(request, settings)
    sign_in.challenges.check(_address(request), "passkey requests from this address")
    return await passkeys.register_options(who, public(settings, request))

@router.post("/api/me/passkeys", tags=["sign-in"], status_code=201)
async def add_passkey(passkeys: PasskeysDep, settings: SettingsDep, request: Request,
                      body: CredentialBody) -> PasskeyMethod:
    """Keep the passkey ``navigator.credentials.create`` made from the options."""
    who = await signed_in(request, settings)
    return await passkeys.register(who, body.credential, body.name,
                                                 public(settings, request))

@router.delete("/api/me/passkeys/{credential_id}", tags=["sign-in"])
async def remove_passkey(passkeys: PasskeysDep, settings: SettingsDep, request: Request,
                         credential_id: str) -> PasskeyRemoved:
    """Remove one of the player's passkeys: it signs nobody in from now on."""
    who = await signed_in(request, settings)
    await passkeys.remove(who, credential_id)
    return {"id": credential_id, "removed": True}

@router.post("/api/sign-in/passkey/options", tags=["sign-in"])
async def passkey_get_options(settings: SettingsDep, passkeys: PasskeysDep, sign_in: SignInDep,
                              request: Request) -> dict[str, object]:
    """Options for ``navigator.credentials.get``: any passkey of this site (no name is
    typed: the authenticator offers the accounts it keeps)."""
    await signing_in(settings, request)
    sign_in.challenges.check(_address(request), "passkey requests from this address")
    return await passkeys.sign_in_options(public(settings, request))

@router.post("/api/sign-in/passkey", tags=["sign-in"])
async def passkey_sign_in(settings: SettingsDep, passkeys: PasskeysDep, sign_in: SignInDep,
                          request: Request, response: Response, body: CredentialBody
) -> SignedIn:
    """Sign this browser in with a passkey's answer: a new session (cookie) of its
    player, the old one ended; ``guest_tables``: the tables the browser's guest has, to
    ask about (``POST /api/me/merge``)."""
    who = await signing_in(settings, request)
    sign_in.passkey_tries.check(_address(request),
                                    "sign-in attempts from this address")
    player_id = await passkeys.check_sign_in(body.credential, public(settings, request))
    return await sign_in_as(settings, request, response, who, player_id)

# -- e-mail --------------------------------------------------------------------------------
@router.post("/api/me/email", tags=["sign-in"], status_code=202)
async def add_email(email: EmailDep, sign_in: SignInDep, settings: SettingsDep, request: Request,
                    body: AddressBody) -> EmailSent:
    """Send a confirmation link (15 minutes, once) to an address; opened, the address
    signs this player in later.  ``no_email`` (400) when the server sends no e-mail."""
    who = await signed_in(request, settings)
    sign_in.email_requests.check(_address(request), "e-mails asked for from this "
                                     "address")
    sign_in.mails_to.check(body.address.strip().lower(), "e-mails to that address")
    return await email.add(who, body.address, public(settings, request))

@router.delete("/api/me/email", tags=["sign-in"])
async def remove_email(email: EmailDep, settings: SettingsDep, request: Request) -> EmailRemoved:
    """Remove the player's address: it signs nobody in from now on."""
    who = await signed_in(request, settings)
    await email.remove(who)
    return {"removed": True}

@router.post("/api/email/confirm", tags=["sign-in"])
async def confirm_email(email: EmailDep, sign_in: SignInDep, settings: SettingsDep,
                        request: Request, body: TokenBody) -> EmailConfirmed:
    """Open a confirmation link (``/email/confirm#TOKEN``): the address is its
    player's."""
    check_origin(request, settings)
    sign_in.email_opens.check(_address(request), "links opened from this address")
    return await email.confirm(body.token)

@router.post("/api/sign-in/email", tags=["sign-in"], status_code=202)
async def email_sign_in(settings: SettingsDep, email: EmailDep, sign_in: SignInDep,
                        request: Request, body: AddressBody) -> SignInSent:
    """Send a one-time sign-in link (15 minutes) to the address if it is an account's;
    the answer never says whether it is."""
    await signing_in(settings, request)
    sign_in.email_requests.check(_address(request), "e-mails asked for from this "
                                     "address")
    sign_in.mails_to.check(body.address.strip().lower(), "e-mails to that address")
    return await email.request(body.address, public(settings, request))

@router.post("/api/sign-in/email/link", tags=["sign-in"])
async def email_link_sign_in(settings: SettingsDep, email: EmailDep, sign_in: SignInDep,
                             request: Request, response: Response, body: TokenBody
) -> SignedIn:
    """Sign this browser in with a sign-in link's secret (``/email/sign-in#TOKEN``), as
    ``POST /api/sign-in/passkey`` does."""
    who = await signing_in(settings, request)
    sign_in.email_opens.check(_address(request), "links opened from this address")
    player_id = await email.open(body.token)
    return await sign_in_as(settings, request, response, who, player_id)

# -- the guest's tables --------------------------------------------------------------------
@router.post("/api/me/merge", tags=["sign-in"])
async def merge_guest(sign_in: SignInDep, settings: SettingsDep, request: Request, body: MergeBody
) -> Merged:
    """Answer "Bring these tables into your account?" after a sign-in: ``merge`` true
    moves the browser's guest's seats to the account (a table where the account sits
    too stays the guest's, listed in ``refused``); false leaves them."""
    who = await signed_in(request, settings)
    return await sign_in.merge(who, body.merge)
