"""The values settings are parsed into that need more than a type: the database's URL (its
async driver, a file that can exist) and the ICE servers' JSON; and ConfigError, the one-line
refusal of any setting (``taash.server.config`` re-exports them: their users import them from
there)."""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError


class ConfigError(ValueError):
    """A setting that cannot be used (a bad database URL, a bad number)."""


def default_db_url() -> str:
    """A SQLite file in the user's data directory (created if needed)."""
    folder = Path(platformdirs.user_data_dir("taash", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'taash.db'}"


def normalize_db_url(text: str) -> URL:
    """The async SQLAlchemy URL of a database: ``sqlite:///file`` and ``postgresql://…`` are
    given their async drivers; anything else is a ConfigError with one clear line."""
    try:
        url = make_url(text.strip())
    except ArgumentError:
        raise ConfigError(f"bad database URL {text!r}: use sqlite+aiosqlite:///FILE or "
                          "postgresql+asyncpg://USER@HOST/DB") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        url = url.set(drivername="sqlite+aiosqlite")
        if not url.database or url.database == ":memory:":
            raise ConfigError("the SQLite database must be a file: sqlite+aiosqlite:///FILE")
        parent = Path(url.database).expanduser().resolve().parent
        if not parent.is_dir():
            raise ConfigError(f"bad database URL: folder {parent} does not exist")
    elif backend in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+asyncpg")
        if not url.database:
            raise ConfigError("the PostgreSQL URL must name a database: "
                              "postgresql+asyncpg://USER@HOST/DB")
    else:
        raise ConfigError(f"unsupported database {backend!r}: use SQLite or PostgreSQL")
    return url


def parse_ice_servers(text: str | None) -> list[dict[str, object]]:
    """``--ice-servers`` (``TAASH_ICE_SERVERS``): a JSON list of RTCIceServer objects (``urls``:
    a stun:/turn:/turns: URL or a list of them; ``username`` and ``credential`` optional)."""
    if not text or not text.strip():
        return []
    try:
        raw = json.loads(text)
    except ValueError:
        raise ConfigError("not JSON; give a list like "
                          '[{"urls": "stun:stun.example.org:3478"}]') from None
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        raise ConfigError("give a JSON list of {\"urls\": ...} objects")
    out: list[dict[str, object]] = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict) or set(s) - {"urls", "username", "credential"}:
            raise ConfigError(f"server {i} is an object with urls, and "
                              "optionally username and credential")
        urls = s.get("urls")
        listed = [urls] if isinstance(urls, str) else urls
        if not isinstance(listed, list) or not listed or not all(
                isinstance(u, str) and u.split(":", 1)[0] in ("stun", "stuns", "turn", "turns")
                for u in listed):
            raise ConfigError(f"server {i}: urls are stun:, turn: or turns: "
                              "URLs")
        for k in ("username", "credential"):
            if k in s and not isinstance(s[k], str):
                raise ConfigError(f"server {i}: {k} is text")
        out.append({"urls": list(listed), **{k: s[k] for k in ("username", "credential")
                                              if k in s}})
    return out
