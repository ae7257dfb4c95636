"""Turn notifications: a webhook POST and an email through a configured SMTP server.

``TAASH_SMTP_URL`` is ``smtp://[user:password@]host[:port][?from=address]``; ``smtps://`` uses
TLS from the start and ``smtp+starttls://`` upgrades the connection.
"""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
import socket
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import httpx

log = logging.getLogger("taash.server")

EMAIL_RE = re.compile(r"^[^@\s<>,;]{1,64}@[^@\s<>,;]{1,255}$")


class NotifyConfigError(ValueError):
    """A bad SMTP URL."""


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    mode: str  # plain, tls, starttls
    user: str | None
    password: str | None
    sender: str

    @classmethod
    def parse(cls, url: str) -> SmtpConfig:
        parts = urlsplit(url)
        modes = {"smtp": "plain", "smtps": "tls", "smtp+starttls": "starttls"}
        if parts.scheme not in modes or not parts.hostname:
            raise NotifyConfigError(f"bad SMTP URL {url!r}: use smtp://HOST:PORT?from=ADDRESS")
        mode = modes[parts.scheme]
        try:
            port = parts.port or (465 if mode == "tls" else 25)
        except ValueError:
            raise NotifyConfigError(f"bad SMTP URL {url!r}: bad port") from None
        sender = parse_qs(parts.query).get("from", [f"taash@{socket.gethostname()}"])[0]
        return cls(parts.hostname, port, mode,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, sender)


def valid_webhook(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.hostname) and len(url) <= 2000


def valid_email(addr: str) -> bool:
    return bool(EMAIL_RE.match(addr))


class Notifier:
    """Sends notices in the background; a failure is logged, never raised to a player."""

    def __init__(self, smtp_url: str | None) -> None:
        self.smtp = SmtpConfig.parse(smtp_url) if smtp_url else None
        self.http = httpx.AsyncClient(timeout=5.0, follow_redirects=False)
        self._tasks: set[asyncio.Task[None]] = set()

    def send(self, webhook: str | None, email: str | None, payload: dict[str, Any],
             subject: str, body: str) -> None:
        if webhook:
            self._spawn(self._webhook(webhook, payload))
        if email and self.smtp is not None:
            self._spawn(asyncio.to_thread(self._email, email, subject, body))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _webhook(self, url: str, payload: dict[str, Any]) -> None:
        for attempt in range(3):
            try:
                r = await self.http.post(url, json=payload)
                if r.status_code < 500:
                    return
            except httpx.HTTPError as e:
                log.info("webhook %s: %s", url, e)
            await asyncio.sleep(0.5 * (attempt + 1))
        log.warning("webhook %s: gave up", url)

    def _email(self, to: str, subject: str, body: str) -> None:
        cfg = self.smtp
        assert cfg is not None
        msg = EmailMessage()
        msg["From"] = cfg.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg.set_content(body)
        try:
            smtp: smtplib.SMTP
            if cfg.mode == "tls":
                smtp = smtplib.SMTP_SSL(cfg.host, cfg.port, timeout=10)
            else:
                smtp = smtplib.SMTP(cfg.host, cfg.port, timeout=10)
            with smtp:
                if cfg.mode == "starttls":
                    smtp.starttls()
                if cfg.user:
                    smtp.login(cfg.user, cfg.password or "")
                smtp.send_message(msg)
        except (OSError, smtplib.SMTPException) as e:
            log.warning("email to %s: %s", to, e)

    async def close(self) -> None:
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        await self.http.aclose()
