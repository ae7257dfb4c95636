"""Seat tokens: a new one, its hash (what the store keeps) and the token derived from another
(a rematch seat's, which only the holder of the first can compute)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def derived_token(token: str, salt: str) -> str:
    """A token only the holder of ``token`` can compute (a rematch seat's token)."""
    mac = hmac.new(token.encode(), salt.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:32]
