"""Server settings: command-line flags override ``TAASH_*`` environment variables, which override
the defaults.  Everything has a default, so ``taash serve`` runs with no configuration."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # SQLAlchemy loads only when a server starts, not for every `taash` command
    from sqlalchemy.engine import URL

    from taash.games.base import Json


class ConfigError(ValueError):
    """A setting that cannot be used (a bad database URL, a bad number)."""


def default_db_url() -> str:
    """A SQLite file in the user's data directory (created if needed)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("taash", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'taash.db'}"


def normalize_db_url(text: str) -> URL:
    """The async SQLAlchemy URL of a database: ``sqlite:///file`` and ``postgresql://…`` are
    given their async drivers; anything else is a ConfigError with one clear line."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

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


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {raw!r}") from None


def _env_bool(name: str, default: bool = False) -> bool:
    raw = (os.environ.get(name) or "").strip().lower()
    if raw == "":
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be 1 or 0 (true or false), not {raw!r}")


def _ice(text: str | None) -> list[dict[str, Json]]:
    if not text or not text.strip():
        return []
    from taash.server.voice import parse_ice_servers

    return parse_ice_servers(text)


@dataclass
class Settings:
    """What one server process needs to know."""

    db_url: str = ""
    redis_url: str | None = None
    smtp_url: str | None = None
    public_url: str | None = None
    #: a human seat waiting longer than this (seconds) for its turn is reminded once per turn
    remind_after_s: float = 24 * 3600.0
    #: how often the sweeper looks for reminders, stalled bots and expired turn timers
    sweep_s: float = 30.0
    #: keep-alive line on streams and sockets at least this often
    ping_s: float = 10.0
    #: requests per second per client (a token, else an address); 0 turns the limit off
    rate_limit: float = 20.0
    rate_burst: float = 60.0
    max_body: int = 64 * 1024
    #: default bot delay for live tables, in milliseconds
    bot_delay_ms: int = 700
    #: a human seat's turn timer runs out: this level of bot plays that move
    timer_bot_level: str = "easy"
    #: let webhooks call private, loopback and link-local addresses (a trusted network only)
    webhook_allow_private: bool = False
    #: proxies whose X-Forwarded-For/-Proto headers are believed (comma-separated addresses or
    #: networks, "*" for any); the client address and https come from them (Caddy on loopback)
    forwarded_allow_ips: str = "127.0.0.1"
    #: turns GET /metrics on, for requests with ``Authorization: Bearer`` this token
    metrics_token: str | None = None
    #: voice: RTCIceServer objects handed to the page (--ice-servers); none: same network only
    ice_servers: list[dict[str, Json]] = field(default_factory=list)
    #: coturn's static-auth-secret: TURN servers get time-limited credentials made with it
    turn_secret: str | None = None
    turn_ttl_s: float = 6 * 3600.0
    extra: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            db_url=os.environ.get("TAASH_DATABASE_URL", ""),
            redis_url=os.environ.get("TAASH_REDIS_URL") or None,
            smtp_url=os.environ.get("TAASH_SMTP_URL") or None,
            public_url=os.environ.get("TAASH_PUBLIC_URL") or None,
            remind_after_s=_env_float("TAASH_REMIND_AFTER", 24 * 3600.0),
            sweep_s=_env_float("TAASH_SWEEP_INTERVAL", 30.0),
            ping_s=_env_float("TAASH_PING_INTERVAL", 10.0),
            rate_limit=_env_float("TAASH_RATE_LIMIT", 20.0),
            bot_delay_ms=int(_env_float("TAASH_BOT_DELAY_MS", 700)),
            webhook_allow_private=_env_bool("TAASH_WEBHOOK_ALLOW_PRIVATE"),
            forwarded_allow_ips=os.environ.get("TAASH_FORWARDED_ALLOW_IPS", "127.0.0.1"),
            metrics_token=os.environ.get("TAASH_METRICS_TOKEN") or None,
            ice_servers=_ice(os.environ.get("TAASH_ICE_SERVERS")),
            turn_secret=os.environ.get("TAASH_TURN_SECRET") or None,
            turn_ttl_s=_env_float("TAASH_TURN_TTL", 6 * 3600.0),
        )

    def check_forwarded(self) -> None:
        """The trusted proxies must be addresses or networks (ConfigError otherwise)."""
        import ipaddress

        for part in self.forwarded_allow_ips.split(","):
            part = part.strip()
            if part in ("", "*") or part.startswith("unix:"):
                continue
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise ConfigError(f"--forwarded-allow-ips: {part!r} is not an address or a "
                                  "network (e.g. 127.0.0.1,10.0.0.0/8)") from None

    def check_public_url(self) -> None:
        """The public URL must be http(s)://host[:port] with no path (ConfigError otherwise)."""
        from urllib.parse import urlsplit

        if not self.public_url:
            return
        u = urlsplit(self.public_url)
        if u.scheme not in ("http", "https") or not u.hostname or u.path not in ("", "/") \
                or u.query or u.fragment:
            raise ConfigError(f"--public-url {self.public_url!r}: give the origin players "
                              "reach, like https://cards.example.org")

    def resolved_db_url(self) -> URL:
        return normalize_db_url(self.db_url or default_db_url())

    def bus_channel(self) -> str:
        """Instances sharing a database share a channel; others never mix."""
        url = self.resolved_db_url().render_as_string(hide_password=True)
        return "taash:events:" + hashlib.sha1(url.encode()).hexdigest()[:12]
