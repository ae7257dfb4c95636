"""A software passkey authenticator for the API tests: what a phone's authenticator answers to
``navigator.credentials.create`` and ``.get`` (WebAuthn level 2: "none" attestation, an ES256
key, the user present and verified), as the JSON a page posts (binary fields in base64url).

The browser tests use Chromium's own virtual authenticator instead; this one lets a test bend
one thing at a time (the origin, the challenge, the signature) and see the server refuse it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "===")


@dataclass
class Credential:
    credential_id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0


@dataclass
class Authenticator:
    """Keeps its credentials (resident keys), as a platform authenticator does."""

    origin: str
    credentials: list[Credential] = field(default_factory=list)

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """Answer registration ``options`` (the server's JSON) with a new credential."""
        rp_id = options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        nums = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: nums.x.to_bytes(32, "big"),
                            -3: nums.y.to_bytes(32, "big")})
        cred = Credential(os.urandom(32), key, rp_id, unb64(options["user"]["id"]))
        self.credentials.append(cred)
        auth_data = (hashlib.sha256(rp_id.encode()).digest() + bytes([UP | UV | AT])
                     + struct.pack(">I", 0) + bytes(16)
                     + struct.pack(">H", len(cred.credential_id)) + cred.credential_id + cose)
        client = self.client_data("webauthn.create", options["challenge"], origin)
        att = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(cred.credential_id), "rawId": b64(cred.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64(client), "attestationObject": b64(att),
                             "transports": ["internal"]}}

    def get(self, options: dict[str, Any], origin: str | None = None,
            cred: Credential | None = None) -> dict[str, Any]:
        """Answer sign-in ``options`` with a credential of the RP (the first, unless given)."""
        if cred is None:
            cred = next(c for c in self.credentials if c.rp_id == options["rpId"])
        cred.sign_count += 1
        auth_data = (hashlib.sha256(cred.rp_id.encode()).digest() + bytes([UP | UV])
                     + struct.pack(">I", cred.sign_count))
        client = self.client_data("webauthn.get", options["challenge"], origin)
        signature = cred.key.sign(auth_data + hashlib.sha256(client).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        return {"id": b64(cred.credential_id), "rawId": b64(cred.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64(client), "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": b64(cred.user_handle)}}

    def client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge,
                           "origin": origin or self.origin, "crossOrigin": False}).encode()
