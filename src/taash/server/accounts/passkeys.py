"""Passkeys (WebAuthn, through py_webauthn): a player (a guest too) adds one, and signs in with
it later on any device where it is available, without typing a name (a discoverable
credential: the authenticator keeps the account; resident key required, user verification
preferred).

The relying party is the server's public URL (``taash serve --public-url``): its host is the
RP id and its origin the only origin accepted.  A challenge is handed out by the server, kept
(as its sha256) with what it is for and for whom, and works once for ``CHALLENGE_S`` seconds on
whichever instance checks it; the challenge is found again from the client data the
authenticator signed.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from taash.server.accounts.players import PasskeyMethod, Who, clean_name
from taash.server.errors import BadRequest, NotFound, PasskeyRefused
from taash.server.store.players import PasskeyRow
from taash.server.tables.wire import iso

if TYPE_CHECKING:
    from taash.server.store.db import Store

CHALLENGE_S = 300.0  # a challenge works for five minutes
MAX_PASSKEYS = 20  # a player's passkeys at most


def relying_party(public_url: str) -> tuple[str, str]:
    """The RP id (the host) and the origin of the server's public URL.

    >>> relying_party("http://127.0.0.1:8000/"), relying_party("https://Taash.Example")
    (('127.0.0.1', 'http://127.0.0.1:8000'), ('taash.example', 'https://taash.example'))
    """
    parts = urlsplit(public_url)
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or not host:
        raise BadRequest(f"passkeys need the server's public URL (--public-url), not "
                         f"{public_url!r}")
    return host, f"{parts.scheme}://{parts.netloc.lower()}"


def _challenge_of(client_data_b64: object) -> bytes:
    """The challenge the authenticator signed, from the credential's client data."""
    if not isinstance(client_data_b64, str) or len(client_data_b64) > 8000:
        raise PasskeyRefused("the passkey answer has no client data")
    try:
        return parse_client_data_json(base64url_to_bytes(client_data_b64)).challenge
    except (WebAuthnException, ValueError) as e:
        raise PasskeyRefused(f"the passkey answer's client data is not readable: {e}") from None


def _response_of(credential: object) -> dict[str, object]:
    response = credential.get("response") if isinstance(credential, dict) else None
    if not isinstance(response, dict):
        raise PasskeyRefused("credential must be the object navigator.credentials gave, "
                             "its binary fields in base64url")
    return response


class Passkeys:
    """Adding, listing and removing passkeys, and signing in with one."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def _challenge(self, purpose: str, player_id: str | None, challenge: bytes) -> None:
        now = time.time()
        await self.store.add_challenge(hashlib.sha256(challenge).hexdigest(), purpose,
                                           player_id, now, now + CHALLENGE_S)

    async def _take(self, purpose: str, challenge: bytes) -> str | None:
        found = await self.store.take_challenge(hashlib.sha256(challenge).hexdigest(),
                                                    purpose, time.time())
        if found is None:
            raise PasskeyRefused("that passkey request is used or expired (it works once, "
                                 f"for {int(CHALLENGE_S // 60)} minutes): try again")
        return found[0]

    async def register_options(self, who: Who, public_url: str) -> dict[str, object]:
        """The options for ``navigator.credentials.create`` (its ``publicKey``)."""
        rp_id, _ = relying_party(public_url)
        mine = await self.store.passkeys_of(who.player.id)
        if len(mine) >= MAX_PASSKEYS:
            raise BadRequest(f"a player keeps at most {MAX_PASSKEYS} passkeys: remove one "
                             "first")
        opts = generate_registration_options(
            rp_id=rp_id, rp_name="taash", user_id=who.player.id.encode(),
            user_name=who.player.name, user_display_name=who.player.name,
            timeout=int(CHALLENGE_S * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(
                id=base64url_to_bytes(k.credential_id)) for k in mine])
        await self._challenge("register", who.player.id, opts.challenge)
        out: dict[str, object] = json.loads(options_to_json(opts))  # WebAuthn's JSON
        return out

    async def register(self, who: Who, credential: object, name: object | None,
                       public_url: str) -> PasskeyMethod:
        """Check the authenticator's answer to the options and keep the passkey."""
        rp_id, origin = relying_party(public_url)
        response = _response_of(credential)
        challenge = _challenge_of(response.get("clientDataJSON"))
        owner = await self._take("register", challenge)
        if owner != who.player.id:
            raise PasskeyRefused("that passkey request was made for another player")
        try:
            parsed = parse_registration_credential_json(credential)  # type: ignore[arg-type]
            v = verify_registration_response(credential=parsed, expected_challenge=challenge,
                                             expected_rp_id=rp_id, expected_origin=origin)
        except (WebAuthnException, ValueError, KeyError, TypeError) as e:
            raise PasskeyRefused(f"the passkey could not be checked: {e}") from None
        transports = parsed.response.transports or []
        label = clean_name(name) if name else "Passkey"
        now = time.time()
        k = PasskeyRow(bytes_to_base64url(v.credential_id), who.player.id,
                       bytes_to_base64url(v.credential_public_key), v.sign_count,
                       " ".join(t.value if isinstance(t, AuthenticatorTransport) else str(t)
                                for t in transports)[:200] or None,
                       label, now, None)
        if not await self.store.add_passkey(k):
            raise PasskeyRefused("that passkey is already added (to this or another player)")
        return {"type": "passkey", "id": k.credential_id, "name": k.name,
                "created": iso(k.created), "last_used": None}

    async def remove(self, who: Who, credential_id: str) -> None:
        if not await self.store.remove_passkey(who.player.id, credential_id[:1400]):
            raise NotFound("no such passkey of yours")

    async def sign_in_options(self, public_url: str) -> dict[str, object]:
        """The options for ``navigator.credentials.get``: any passkey of this site (the
        authenticator offers those it keeps; no name is asked)."""
        rp_id, _ = relying_party(public_url)
        opts = generate_authentication_options(
            rp_id=rp_id, timeout=int(CHALLENGE_S * 1000),
            user_verification=UserVerificationRequirement.PREFERRED)
        await self._challenge("sign_in", None, opts.challenge)
        out: dict[str, object] = json.loads(options_to_json(opts))  # WebAuthn's JSON
        return out

    async def check_sign_in(self, credential: object, public_url: str) -> str:
        """The player whose passkey signed the challenge (PasskeyRefused otherwise)."""
        rp_id, origin = relying_party(public_url)
        response = _response_of(credential)
        challenge = _challenge_of(response.get("clientDataJSON"))
        await self._take("sign_in", challenge)
        try:
            parsed = parse_authentication_credential_json(credential)  # type: ignore[arg-type]
        except (WebAuthnException, ValueError, KeyError, TypeError) as e:
            raise PasskeyRefused(f"the passkey answer is not readable: {e}") from None
        k = await self.store.passkey(bytes_to_base64url(parsed.raw_id))
        if k is None:
            raise PasskeyRefused("this passkey is not known here (it may have been removed): "
                                 "sign in another way, or add it again")
        handle = parsed.response.user_handle
        if handle is not None and handle != k.player_id.encode():
            raise PasskeyRefused("this passkey belongs to another account")
        try:
            v = verify_authentication_response(
                credential=parsed, expected_challenge=challenge, expected_rp_id=rp_id,
                expected_origin=origin, credential_public_key=base64url_to_bytes(k.public_key),
                credential_current_sign_count=k.sign_count)
        except (WebAuthnException, ValueError, KeyError, TypeError) as e:
            raise PasskeyRefused(f"the passkey could not be checked: {e}") from None
        await self.store.passkey_used(k.credential_id, v.new_sign_count, time.time())
        return k.player_id
