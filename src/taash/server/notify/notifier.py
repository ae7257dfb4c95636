"""Turn notifications: a webhook POST and an email through a configured SMTP server.

``TAASH_SMTP_URL`` is ``smtp://[user:password@]host[:port][?from=address]``; ``smtps://`` uses
TLS from the start and ``smtp+starttls://`` upgrades the connection.

A webhook is a request the server makes to an address a player chose, so unless the server
allows it (``--webhook-allow-private``) a webhook whose host is or resolves to a private,
loopback, link-local or otherwise non-public address is refused, when it is set and again
before each POST, which then goes to the very address that was checked.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import smtplib
import socket
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from email.message import EmailMessage
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


class WebhookRefused(ValueError):
    """A webhook URL this server will not call; the message says why."""


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def public_address(ip: IPAddress) -> bool:
    """Whether an address is globally reachable: not private, loopback, link-local,
    multicast, unspecified or reserved, nor an IPv6 form of such an IPv4 address.

    >>> [public_address(ipaddress.ip_address(a)) for a in ("93.184.215.14", "10.1.2.3",
    ...  "127.0.0.1", "169.254.169.254", "::1", "::ffff:192.168.0.1", "fe80::1", "0.0.0.0")]
    [True, False, False, False, False, False, False, False]
    """
    if isinstance(ip, ipaddress.IPv6Address):
        inner: list[ipaddress.IPv4Address] = []
        if ip.ipv4_mapped is not None:
            inner.append(ip.ipv4_mapped)
        if ip.sixtofour is not None:
            inner.append(ip.sixtofour)
        if ip.teredo is not None:
            inner.append(ip.teredo[1])
        if ip in NAT64:
            inner.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if any(not public_address(a) for a in inner):
            return False
    return bool(ip.is_global) and not ip.is_multicast


async def webhook_addresses(url: str, allow_private: bool = False) -> list[IPAddress]:
    """The addresses a webhook URL's host stands for (a literal address, or what its name
    resolves to); WebhookRefused if it does not resolve, or, unless ``allow_private``, if
    any of them is not public."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise WebhookRefused(f"webhook URL {url!r} has a bad port") from None
    addrs: list[IPAddress] = []
    try:
        addrs.append(ipaddress.ip_address(host))
    except ValueError:
        try:
            infos = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM), 10)
        except (OSError, UnicodeError, TimeoutError):
            raise WebhookRefused(f"webhook host {host!r} does not resolve") from None
        for info in infos:
            # an IPv6 scope ("fe80::1%eth0") is cut off: the address alone is judged
            a = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
            if a not in addrs:
                addrs.append(a)
    if not addrs:
        raise WebhookRefused(f"webhook host {host!r} does not resolve")
    if not allow_private:
        for a in addrs:
            if not public_address(a):
                what = "is" if str(a) == host else f"resolves to {a}, which is"
                raise WebhookRefused(
                    f"webhook host {host} {what} a private, loopback, link-local or reserved "
                    "address: this server only calls public addresses")
    return addrs


def pinned(url: str, ip: IPAddress) -> tuple[str, dict[str, str], dict[str, str]]:
    """The URL with its host replaced by the checked address, and the Host header and TLS
    server name that keep the request what it was: a name that resolves elsewhere by the
    time of the request (DNS rebinding) cannot send it to another address."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"[{ip}]" if ip.version == 6 else str(ip)
    if parts.port is not None:
        netloc += f":{parts.port}"
    target = parts._replace(netloc=netloc).geturl()
    hostport = parts.netloc.rsplit("@", 1)[-1]
    return target, {"Host": hostport}, {"sni_hostname": host}


def valid_email(addr: str) -> bool:
    return bool(EMAIL_RE.match(addr))


class Notifier:
    """Sends notices in the background; a failure is logged, never raised to a player."""

    def __init__(self, smtp_url: str | None, webhook_allow_private: bool = False) -> None:
        self.smtp = SmtpConfig.parse(smtp_url) if smtp_url else None
        self.allow_private = webhook_allow_private
        self.http = httpx.AsyncClient(timeout=5.0, follow_redirects=False)
        self._tasks: set[asyncio.Future[None]] = set()

    def send(self, webhook: str | None, email: str | None, payload: Mapping[str, object],
             subject: str, body: str) -> None:
        if webhook:
            self._spawn(self._webhook(webhook, payload))
        if email and self.smtp is not None:
            self._spawn(asyncio.to_thread(self._email, email, subject, body))

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _webhook(self, url: str, payload: Mapping[str, object]) -> None:
        target = url
        headers: dict[str, str] = {}
        extensions: dict[str, str] = {}
        if not self.allow_private:  # checked again: the URL may be old, its name moved
            try:
                addrs = await webhook_addresses(url)
            except WebhookRefused as e:
                log.warning("webhook not sent: %s", e)
                return
            target, headers, extensions = pinned(url, addrs[0])
        for attempt in range(3):
            try:
                r = await self.http.post(target, json=payload, headers=headers,
                                         extensions=extensions)
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
