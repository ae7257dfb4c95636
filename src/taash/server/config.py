"""Server settings: command-line flags override ``TAASH_*`` environment variables, which override
the defaults.  Everything has a default, so ``taash serve`` runs with no configuration."""

from __future__ import annotations

import hashlib
import json
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


def parse_ice_servers(text: str | None) -> list[dict[str, Json]]:
    """``--ice-servers``: a JSON list of RTCIceServer objects (``urls``: a stun:/turn:/turns:
    URL or a list of them; ``username`` and ``credential`` optional)."""
    if not text or not text.strip():
        return []
    try:
        raw = json.loads(text)
    except ValueError:
        raise ConfigError("--ice-servers: not JSON; give a list like "
                          '[{"urls": "stun:stun.example.org:3478"}]') from None
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        raise ConfigError("--ice-servers: give a JSON list of {\"urls\": ...} objects")
    out: list[dict[str, Json]] = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict) or set(s) - {"urls", "username", "credential"}:
            raise ConfigError(f"--ice-servers: server {i} is an object with urls, and "
                              "optionally username and credential")
        urls = s.get("urls")
        listed = [urls] if isinstance(urls, str) else urls
        if not isinstance(listed, list) or not listed or not all(
                isinstance(u, str) and u.split(":", 1)[0] in ("stun", "stuns", "turn", "turns")
                for u in listed):
            raise ConfigError(f"--ice-servers: server {i}: urls are stun:, turn: or turns: "
                              "URLs")
        for k in ("username", "credential"):
            if k in s and not isinstance(s[k], str):
                raise ConfigError(f"--ice-servers: server {i}: {k} is text")
        out.append({"urls": list(listed), **{k: s[k] for k in ("username", "credential")
                                              if k in s}})
    return out


def _ice(text: str | None) -> list[dict[str, Json]]:
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
    #: requests per second per seat (its token or its player's session, once checked); a client
    #: address may send ``address_rate_factor`` times as many; 0 turns off every per-client
    #: limit (requests and live connections)
    rate_limit: float = 20.0
    rate_burst: float = 60.0
    #: a client address may send this many times a seat's rate (several players share one)
    address_rate_factor: float = 4.0
    #: live connections (streams and sockets) open at once from one address; 0: no limit
    live_per_client: int = 64
    max_body: int = 64 * 1024
    #: a request body must arrive within this many seconds (408 after)
    body_timeout_s: float = 10.0
    #: the request line and headers must arrive within this many seconds of the connection
    #: (or of the last answer on it): a slow or half-sent request is closed after
    header_timeout_s: float = 10.0
    #: an idle keep-alive connection is closed after this many seconds
    keep_alive_s: float = 5.0
    #: connections and requests at once (503 past them); 0: no limit
    max_connections: int = 4096
    #: a client further behind than this many versions, or whose missed events would be more
    #: than ``catchup_max_bytes``, gets the current full view instead
    catchup_max_versions: int = 200
    catchup_max_bytes: int = 256 * 1024
    #: SQLite: the write-ahead log is truncated once it is over this many bytes
    wal_limit: int = 16 * 1024 * 1024
    #: default bot delay for live tables, in milliseconds
    bot_delay_ms: int = 700
    #: bot worker processes (0: one per core, less one)
    bot_workers: int = 0
    #: a hard bot's move not ready this many seconds after it is asked for: the easy bot's
    bot_deadline_s: float = 3.0
    #: a table with no one connected and no human move for this long (seconds) stops its
    #: bots until a human comes back; 0: never
    idle_after_s: float = 600.0
    #: live tables of bots only one address may make without a session (and one player with)
    bot_tables_per_address: int = 2
    bot_tables_per_player: int = 8
    #: a human seat's turn timer runs out: this level of bot plays that move
    timer_bot_level: str = "easy"
    #: let webhooks call private, loopback and link-local addresses (a trusted network only)
    webhook_allow_private: bool = False
    #: proxies whose X-Forwarded-For/-Proto headers are believed (comma-separated addresses or
    #: networks, "*" for any); the client address and https come from them (Caddy on loopback)
    #: the proxies whose X-Forwarded-For and -Proto are believed: none unless named (a proxy
    #: on this machine too: otherwise its clients would share, or forge, their addresses)
    forwarded_allow_ips: str = ""
    #: "text" or "json" (one object a line, a line per request: taash.server.http.logs)
    log_format: str = "text"
    #: turns GET /metrics on, for requests with ``Authorization: Bearer`` this token
    metrics_token: str | None = None
    #: seconds the exact solver may spend on each position of a deal's analysis
    analysis_solver_time: float = 2.0
    #: Web Push: the VAPID private key (raw, base64url; default: made at first start and kept
    #: in the database), the contact the push services are given, and origins a push
    #: endpoint may have besides public https ones (a loopback test service)
    vapid_private_key: str | None = None
    vapid_subject: str | None = None
    push_allow_origins: str = ""
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
            rate_burst=_env_float("TAASH_RATE_BURST", 60.0),
            live_per_client=int(_env_float("TAASH_LIVE_PER_CLIENT", 64)),
            body_timeout_s=_env_float("TAASH_BODY_TIMEOUT", 10.0),
            header_timeout_s=_env_float("TAASH_HEADER_TIMEOUT", 10.0),
            keep_alive_s=_env_float("TAASH_KEEP_ALIVE", 5.0),
            max_connections=int(_env_float("TAASH_MAX_CONNECTIONS", 4096)),
            wal_limit=int(_env_float("TAASH_WAL_LIMIT", 16 * 1024 * 1024)),
            bot_delay_ms=int(_env_float("TAASH_BOT_DELAY_MS", 700)),
            idle_after_s=_env_float("TAASH_IDLE_AFTER", 600.0),
            bot_workers=int(_env_float("TAASH_BOT_WORKERS", 0)),
            bot_deadline_s=_env_float("TAASH_BOT_DEADLINE", 3.0),
            webhook_allow_private=_env_bool("TAASH_WEBHOOK_ALLOW_PRIVATE"),
            forwarded_allow_ips=os.environ.get("TAASH_FORWARDED_ALLOW_IPS", ""),
            metrics_token=os.environ.get("TAASH_METRICS_TOKEN") or None,
            analysis_solver_time=_env_float("TAASH_ANALYSIS_SOLVER_TIME", 2.0),
            vapid_private_key=os.environ.get("TAASH_VAPID_PRIVATE_KEY") or None,
            vapid_subject=os.environ.get("TAASH_VAPID_SUBJECT") or None,
            push_allow_origins=os.environ.get("TAASH_PUSH_ALLOW_ORIGINS", ""),
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
