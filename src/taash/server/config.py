"""Server settings, each written once in ``Settings``: its default, its bounds, its ``TAASH_*``
environment variable, its ``taash serve`` flag (where it has one) and its help.  A flag overrides
the environment, which overrides the default; everything has a default, so ``taash serve`` runs
with no configuration.  A value that cannot be used is a ConfigError of one line naming the flag
or the variable it came from.

pydantic-settings reads the environment; only the variables named here are read (a setting
without one is set by code and tests, never by a stray variable).  ``taash serve``'s flags are
made from the fields (``taash.server.cli``), so a flag and its variable cannot disagree."""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Mapping
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator
from pydantic.config import JsonDict
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from sqlalchemy.engine import URL

from taash.server.config_values import ConfigError as ConfigError  # their home: imported
from taash.server.config_values import default_db_url as default_db_url  # from here by
from taash.server.config_values import normalize_db_url as normalize_db_url  # the server
from taash.server.config_values import parse_ice_servers as parse_ice_servers  # and tests


# Any as pydantic's Field has it: bounds go to Field's typed keywords, the result to any field
def setting(default: object = None, help: str = "", *, env: str | None = None,
            flag: str | None = None, secret: bool = False, **bounds: Any) -> Any:
    """A setting's one declaration: its default, its help, its ``TAASH_*`` variable (none: set
    by code only), its ``taash serve`` flag (none: the variable only), whether its value is
    kept out of error messages, and its bounds (pydantic's ``ge``, ``min_length`` ...)."""
    extra: JsonDict = {"flag": flag, "secret": secret}
    if isinstance(default, list | dict):
        return Field(default_factory=type(default), description=help, validation_alias=env,
                     json_schema_extra=extra, **bounds)
    return Field(default, description=help, validation_alias=env, json_schema_extra=extra,
                 **bounds)


class _NamedEnv(EnvSettingsSource):
    """The environment, read for the settings that name a variable and for no other."""

    # Any: pydantic-settings' own signature of this method (the value as the source has it)
    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        if not isinstance(field.validation_alias, str):
            return None, field_name, False
        return super().get_field_value(field, field_name)


class Settings(BaseSettings):
    """What one server process needs to know.  ``Settings()`` reads the ``TAASH_*`` environment;
    keyword arguments (by field name) override it.  ``Settings.load`` does the same and turns a
    bad value into one ConfigError line."""

    model_config = SettingsConfigDict(validate_by_name=True, validate_by_alias=True,
                                      env_ignore_empty=True, extra="forbid")

    db_url: str = setting(
        "", "database URL (default: a SQLite file in your data folder), e.g. "
        "postgresql+asyncpg://user@host/taash", env="TAASH_DATABASE_URL", flag="--db")
    redis_url: str | None = setting(
        None, "Redis URL: share live events between several servers", env="TAASH_REDIS_URL",
        flag="--redis")
    smtp_url: str | None = setting(
        None, "SMTP server for turn emails: smtp://host:port?from=address", env="TAASH_SMTP_URL",
        flag="--smtp")
    public_url: str | None = setting(
        None, "the address players reach, for links in notices", env="TAASH_PUBLIC_URL",
        flag="--public-url")
    remind_after_s: float = setting(
        24 * 3600.0, "remind a player waited for this many seconds (once per turn)",
        env="TAASH_REMIND_AFTER", flag="--remind-after", ge=0)
    lease_s: float = setting(
        5.0, "with several instances (Redis): a table's owner holds it for this many seconds "
        "unless it renews (a killed owner's tables move on after at most this); 0: no owners",
        env="TAASH_LEASE", flag="--lease", ge=0)
    lease_renew_s: float = setting(
        1.5, "an owner renews its tables' leases this often (seconds), well within --lease",
        env="TAASH_LEASE_RENEW", ge=0.05)
    proxy_routes_tables: bool = setting(
        False, "with several instances behind a proxy that sends all of a table's requests to "
        "one instance (deploy/Caddyfile.cluster): a table made here is left for that instance "
        "to take at its first request, instead of owned here and its requests passed on",
        env="TAASH_PROXY_ROUTES_TABLES", flag="--proxy-routes-tables")
    instance_url: str | None = setting(
        None, "with several instances: the address the others reach this one at, to forward "
        "the requests of the tables it owns (default: http://HOST:PORT it listens on, this "
        "machine's name for 0.0.0.0 or ::)", env="TAASH_INSTANCE_URL", flag="--instance-url")
    sweep_s: float = setting(
        30.0, "seconds between looks for reminders, stalled bots and turn timers",
        env="TAASH_SWEEP_INTERVAL", flag="--sweep", ge=0.05)
    ping_s: float = setting(
        10.0, "a keep-alive line on streams and sockets at least this often (seconds)",
        env="TAASH_PING_INTERVAL")
    rate_limit: float = setting(
        20.0, "requests per second per seat (its token or its player's session; "
        "several times as many per client address), 0 for no per-client limits (requests and "
        "live connections)", env="TAASH_RATE_LIMIT", flag="--rate-limit", ge=0)
    rate_burst: float = setting(60.0, "the burst of requests a seat may send at once",
                                env="TAASH_RATE_BURST")
    address_rate_factor: float = setting(
        4.0, "a client address may send this many times a seat's rate (several players share "
        "one)")
    live_per_client: int = setting(
        64, "live connections (streams and sockets) open at once from one address; 0: no limit",
        env="TAASH_LIVE_PER_CLIENT")
    max_body: int = setting(64 * 1024, "bytes of a request body or a WebSocket message")
    max_record_body: int = setting(
        1024 * 1024, "bytes of an offline match's record brought home (POST /api/me/records): "
        "a Court Piece match to two coats runs to hundreds of deals, 2 KB each", ge=1)
    body_timeout_s: float = setting(
        10.0, "a request body must arrive within this many seconds (408 after)",
        env="TAASH_BODY_TIMEOUT")
    header_timeout_s: float = setting(
        10.0, "the request line and headers must arrive within this many seconds of the "
        "connection (or of the first byte of the next request on it): a slow or half-sent "
        "request head is closed", env="TAASH_HEADER_TIMEOUT")
    keep_alive_s: float = setting(
        5.0, "an idle keep-alive connection is closed after this many seconds",
        env="TAASH_KEEP_ALIVE")
    max_connections: int = setting(
        4096, "connections and requests at once (503 past them); 0: no limit",
        env="TAASH_MAX_CONNECTIONS")
    catchup_max_versions: int = setting(
        200, "a client further behind than this many versions gets the current full view")
    catchup_max_bytes: int = setting(
        256 * 1024, "a client whose missed events are more bytes than this gets the current "
        "full view")
    wal_limit: int = setting(
        16 * 1024 * 1024, "SQLite: the write-ahead log is truncated once it is over this many "
        "bytes", env="TAASH_WAL_LIMIT")
    commit_wait_ms: float = setting(
        3.0, "under load, the group commit waits up to this many milliseconds for more actions "
        "to write together (less CPU per action, that much more latency); 0: never",
        env="TAASH_COMMIT_WAIT_MS", flag="--commit-wait", ge=0, le=100)
    bot_delay_ms: int = setting(
        700, "default bot delay at live tables, ms", env="TAASH_BOT_DELAY_MS", flag="--bot-delay",
        ge=0)
    bot_workers: int = setting(0, "bot worker processes (0: one per core, less one)",
                               env="TAASH_BOT_WORKERS")
    bot_deadline_s: float = setting(
        3.0, "a hard bot's move not ready this many seconds after it is asked for: the easy "
        "bot's", env="TAASH_BOT_DEADLINE")
    idle_after_s: float = setting(
        600.0, "a table with no one connected and no human move for this many seconds stops "
        "its bots until someone comes back; 0: never", env="TAASH_IDLE_AFTER",
        flag="--idle-after", ge=0)
    bot_tables_per_address: int = setting(
        2, "live tables of bots only that one address may make without a session")
    bot_tables_per_player: int = setting(
        8, "live tables of bots only that one signed-in player may make")
    timer_bot_level: str = setting(
        "easy", "a human seat's turn timer runs out: this level of bot plays that move")
    webhook_allow_private: bool = setting(
        False, "let turn webhooks call private, loopback and link-local addresses; for a "
        "trusted network only", env="TAASH_WEBHOOK_ALLOW_PRIVATE", flag="--webhook-allow-private")
    forwarded_allow_ips: str = setting(
        "", "proxies whose X-Forwarded-For/-Proto are believed, comma-separated addresses or "
        "networks, * for any (default: none, not even one on this machine, whose clients would "
        "otherwise share or forge their addresses; 127.0.0.1 for Caddy on this machine)",
        env="TAASH_FORWARDED_ALLOW_IPS", flag="--forwarded-allow-ips")
    log_format: Literal["text", "json"] = setting(
        "text", "text, or json: one object a line, a line per request with its id",
        env="TAASH_LOG_FORMAT", flag="--log-format")
    metrics_token: str | None = setting(
        None, "turn GET /metrics (Prometheus) on for requests bearing this token",
        env="TAASH_METRICS_TOKEN", flag="--metrics-token", secret=True, min_length=16)
    analysis_solver_time: float = setting(
        2.0, "seconds the exact solver may spend on each position of a deal's analysis",
        env="TAASH_ANALYSIS_SOLVER_TIME")
    event_best_time: float = setting(
        60.0, "events: seconds a worker process may search for a board's best result from "
        "its first card (kept once per board and trump call)", env="TAASH_EVENT_BEST_TIME", gt=0)
    fairplay_workers: int = setting(
        1, "fair play: worker processes that run the detector over finished matches (0: the "
        "detector does not run)", env="TAASH_FAIRPLAY_WORKERS", ge=0)
    fairplay_alpha: float = setting(
        0.001, "fair play: a player's p-value at or below which their case goes to the "
        "moderators (the detector's default: under 1 % of honest 40-deal samples flagged)",
        env="TAASH_FAIRPLAY_ALPHA", gt=0, lt=1)
    fairplay_min_deals: int = setting(
        16, "fair play: finished deals a player needs before they can be flagged",
        env="TAASH_FAIRPLAY_MIN_DEALS", ge=1)
    fairplay_window_deals: int = setting(
        200, "fair play: a player's most recent finished deals the detector weighs",
        env="TAASH_FAIRPLAY_WINDOW_DEALS", ge=1)
    fairplay_solver_ms: float = setting(
        500.0, "fair play: the exact solver's budget for each position, in milliseconds of a "
        "reference core counted in positions searched (the same scan on any machine)",
        env="TAASH_FAIRPLAY_SOLVER_MS", gt=0, le=600_000)
    no_mining: bool = setting(False, "puzzles: do not mine finished matches for new puzzles",
                              env="TAASH_NO_MINING", flag="--no-mining")
    mining_workers: int = setting(1, "puzzles: worker processes that mine finished matches "
                                  "(0: none)", env="TAASH_MINING_WORKERS", ge=0)
    fairplay_contact: str | None = setting(
        None, "fair play: whom a warned or banned player may write to, an address or a line "
        "(default: the page says the server's host)", env="TAASH_FAIRPLAY_CONTACT",
        max_length=200)
    vapid_private_key: str | None = setting(
        None, "Web Push VAPID private key, raw P-256 in base64url (default: made at first start "
        "and kept in the database)", env="TAASH_VAPID_PRIVATE_KEY", flag="--vapid-private-key",
        secret=True)
    vapid_subject: str | None = setting(
        None, "Web Push: the contact the push services are given", env="TAASH_VAPID_SUBJECT")
    push_allow_origins: str = setting(
        "", "origins a push endpoint may have besides public https ones, comma-separated (a "
        "test push service: http://127.0.0.1:PORT)", env="TAASH_PUSH_ALLOW_ORIGINS",
        flag="--push-allow-origins")
    ice_servers: Annotated[list[dict[str, object]], NoDecode] = setting(
        [], "voice: STUN/TURN servers for the page, a JSON list of RTCIceServer objects, e.g. "
        "'[{\"urls\": \"turn:turn.example.org:3478\"}]' (default none: voice between players "
        "on the same network only)", env="TAASH_ICE_SERVERS", flag="--ice-servers")
    turn_secret: str | None = setting(
        None, "voice: the TURN server's static-auth-secret (coturn use-auth-secret); each seat "
        "gets a time-limited credential", env="TAASH_TURN_SECRET", flag="--turn-secret",
        secret=True)
    turn_ttl_s: float = setting(6 * 3600.0, "seconds a TURN credential is valid",
                                env="TAASH_TURN_TTL", flag="--turn-ttl", ge=60)
    extra: dict[str, str] = setting({}, "settings of an embedding program (not read by taash)")

    @classmethod
    def settings_customise_sources(
            cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # keyword arguments (flags) over the environment; no .env file, no secrets folder
        return init_settings, _NamedEnv(settings_cls, env_ignore_empty=True)

    @field_validator("redis_url", "smtp_url", "public_url", "instance_url", "metrics_token",
                     "vapid_private_key", "vapid_subject", "turn_secret", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("public_url")
    @classmethod
    def _no_trailing_slash(cls, value: str | None) -> str | None:
        return value.rstrip("/") or None if value else value

    @field_validator("forwarded_allow_ips", mode="before")
    @classmethod
    def _stripped(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value

    @field_validator("ice_servers", mode="before")
    @classmethod
    def _ice(cls, value: object) -> object:
        return parse_ice_servers(value) if isinstance(value, str) or value is None else value

    @classmethod
    def load(cls, flags: Mapping[str, object] | None = None) -> Settings:
        """The settings from the environment and ``flags`` (values by field name, as the
        flags gave them: text), or a ConfigError of one line naming the flag or variable."""
        # Any: pydantic's mypy plugin types Settings(**kw) per field; pydantic checks the text
        given: dict[str, Any] = dict(flags or {})
        try:
            return cls(**given)
        except ValidationError as e:
            raise ConfigError(describe(e, given)) from None

    @classmethod
    def from_env(cls) -> Settings:
        """The settings from the environment alone (ConfigError for a bad value)."""
        return cls.load()

    def check_forwarded(self) -> None:
        """The trusted proxies must be addresses or networks (ConfigError otherwise)."""
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


def flag_of(field: FieldInfo) -> str | None:
    """The ``taash serve`` flag of a setting, if it has one."""
    extra = field.json_schema_extra
    flag = extra.get("flag") if isinstance(extra, dict) else None
    return flag if isinstance(flag, str) else None


def env_of(field: FieldInfo) -> str | None:
    """The ``TAASH_*`` variable of a setting, if it has one."""
    return field.validation_alias if isinstance(field.validation_alias, str) else None


def describe(error: ValidationError, flags: Mapping[str, object]) -> str:
    """A validation error as one line: the flag or variable, what is wrong, and the value
    given (unless the setting is a secret)."""
    first = error.errors()[0]
    key = str(first["loc"][0]) if first["loc"] else ""
    fields = Settings.model_fields
    name = next((n for n, f in fields.items() if n == key or env_of(f) == key), key)
    field = fields.get(name)
    if field is None:
        where = key
    elif name in flags:
        where = flag_of(field) or name
    else:
        where = env_of(field) or name
    message = first["msg"].removeprefix("Value error, ")
    message = message[:1].lower() + message[1:]
    extra = field.json_schema_extra if field is not None else None
    secret = isinstance(extra, dict) and extra.get("secret")
    shown = "" if secret or first["type"] == "value_error" else f", not {first['input']!r}"
    return f"{where}: {message}{shown}"
