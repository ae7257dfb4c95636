"""Web Push turn notices: RFC 8030 delivery, RFC 8291 message encryption (aes128gcm), RFC 8292
VAPID, beside the webhook and the e-mail of ``notify``.

``pywebpush`` encrypts each message for its subscription and ``py_vapid`` signs the VAPID
token; the POST goes through the server's own ``httpx`` client, so it never blocks the event
loop and goes to the very address that was checked (like a webhook: a push endpoint is a URL a
browser chose, so it must be https to a public address, unless its origin is one the server
was told to allow, ``--push-allow-origins``).

The VAPID key pair is made at first start and kept in the database (every instance sharing it
signs with the same key), unless ``--vapid-private-key`` gives it.
"""

from __future__ import annotations

import asyncio
import base64
import email.utils
import functools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from taash.games import GAMES
from taash.server.config import ConfigError
from taash.server.errors import BadRequest
from taash.server.notify.notifier import WebhookRefused, pinned, webhook_addresses
from taash.server.notify.shapes import ChallengePush, PushShown, TurnPush
from taash.server.store.push import PushStore, PushSub
from taash.server.tables.presence import connected

if TYPE_CHECKING:
    from taash.server.config import Settings
    from taash.server.store.db import Store
    from taash.server.tables.room import Room

log = logging.getLogger("taash.server")

TTL_S = 24 * 3600  # a turn notice older than a day says nothing new: the reminder will
TRIES = 4
MAX_WAIT_S = 300.0  # a Retry-After longer than this is not waited for
LANGUAGES = ("en", "hi", "ur", "ru")

@functools.cache
def page_words(lang: str) -> dict[str, str]:
    """The page's words in a language (``web/i18n/LANG.json``, installed with the package):
    a notice names a game as the page does, from one list of words."""
    try:
        path = resources.files("taash") / "web" / "i18n" / f"{lang}.json"
        words = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # a server installed without its page: the core's names
        return {}
    return {k: v for k, v in words.items() if isinstance(v, str)}


def game_words(lang: str, game: str) -> str:
    """A game's name in a notice: the language's words, else the core's English name."""
    known = page_words(lang).get(f"game_{game}") if lang in LANGUAGES else None
    if known:
        return known
    cls = GAMES.get(game)
    return cls.name if cls is not None else game


# (title, body) of "your_turn" and "reminder", in each language
TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {"your_turn": ("Your turn: {game}", "{who} at table {table}: the others are "
                         "waiting for you."),
           "reminder": ("Still your turn: {game}", "Table {table} is waiting for {who}.")},
    "hi": {"your_turn": ("आपकी बारी: {game}", "मेज़ {table} पर {who}: बाकी आपका इंतज़ार कर रहे हैं।"),
           "reminder": ("अब भी आपकी बारी: {game}", "मेज़ {table} {who} का इंतज़ार कर रही है।")},
    "ur": {"your_turn": ("آپ کی باری: {game}",
                         "میز {table} پر {who}: باقی آپ کا انتظار کر رہے ہیں\u06d4"),
           "reminder": ("اب بھی آپ کی باری: {game}",
                        "میز {table} {who} کا انتظار کر رہی ہے\u06d4")},
    "ru": {"your_turn": ("Ваш ход: {game}", "{who}, стол {table}: вас ждут."),
           "reminder": ("Всё ещё ваш ход: {game}", "Стол {table} ждёт: {who}.")},
}
# (title, body) of a challenge from a friend, in each language
CHALLENGE_TEXTS: dict[str, tuple[str, str]] = {
    "en": ("{who} challenges you to {game}", "{how}: accept or decline on your home page."),
    "hi": ("{who} ने आपको {game} की चुनौती दी है",
           "{how}: अपने होम पेज पर स्वीकार या मना करें।"),
    "ur": ("{who} نے آپ کو {game} کا چیلنج دیا ہے",
           "{how}: اپنے ہوم پیج پر قبول یا انکار کریں\u06d4"),
    "ru": ("{who} вызывает вас: {game}", "{how}: примите или отклоните вызов на главной."),
}
HOW = {"en": ("Live", "Play anytime"), "hi": ("लाइव", "कभी भी खेलें"),
       "ur": ("لائیو", "کبھی بھی کھیلیں"), "ru": ("Вживую", "В любое время")}  # noqa: RUF001
SEAT_WORD = {"en": "Seat {n}", "hi": "सीट {n}", "ur": "سیٹ {n}", "ru": "Место {n}"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_private_key() -> str:
    """A new VAPID private key: the raw P-256 scalar, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key_of(private: str) -> str:
    """The public key of a raw private key, as the page's ``applicationServerKey`` wants it:
    the uncompressed point, base64url."""
    pub = Vapid02.from_raw(private.encode()).public_key
    return b64url(pub.public_bytes(serialization.Encoding.X962,
                                   serialization.PublicFormat.UncompressedPoint))


def quiet_now(sub: PushSub, now: float) -> bool:
    """Whether ``now`` falls in the subscription's quiet hours (local minutes of the day,
    from ``quiet_from`` up to ``quiet_to``; across midnight when ``from`` > ``to``).

    >>> s = PushSub("i", "p:x", "e", "k", "a", None, None, "x", "en", False, 22 * 60, 7 * 60,
    ...             330, 0.0)
    >>> [quiet_now(s, t) for t in (17 * 3600, 10 * 3600, 23 * 3600)]  # UTC 17:00 = 22:30 IST
    [True, False, True]
    """
    if sub.quiet_from is None or sub.quiet_to is None or sub.quiet_from == sub.quiet_to:
        return False
    local = (int(now // 60) + sub.tz_offset) % 1440
    if sub.quiet_from < sub.quiet_to:
        return sub.quiet_from <= local < sub.quiet_to
    return local >= sub.quiet_from or local < sub.quiet_to


def retry_after(value: str | None, now: float) -> float | None:
    """Seconds a Retry-After header asks to wait (delta-seconds or an HTTP date).

    >>> retry_after("3", 0.0), retry_after("Thu, 01 Jan 1970 00:00:10 GMT", 4.0)
    (3.0, 6.0)
    """
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def turn_payload(sub: PushSub, table_id: str, game: str, seat: int, name: str | None,
                 version: int, kind: str) -> TurnPush:
    """What a push says: small (a push message holds about 4 kB), in the subscription's
    language; the service worker shows ``title`` and ``body`` and opens ``url``."""
    lang = sub.language if sub.language in LANGUAGES else "en"
    what: Literal["your_turn", "reminder"] = "reminder" if kind == "reminded" else "your_turn"
    title, body = TEXTS[lang][what]
    game_name = game_words(lang, game)
    who = name or SEAT_WORD[lang].format(n=seat + 1)
    return {"type": what, "table": table_id, "game": game, "seat": seat, "turn": seat,
            "name": name, "version": version, "lang": lang,
            "title": title.format(game=game_name),
            "body": body.format(who=who, table=table_id, game=game_name),
            "url": f"/t/{table_id}?seat={seat}", "tag": f"taash-{table_id}",
            "icon": "/assets/icon.svg"}


def challenge_payload(sub: PushSub, challenge_id: str, who: str, game: str,
                      live: bool) -> ChallengePush:
    """A challenge from a friend, in the subscription's language; a tap opens the home page,
    where the challenge is accepted or declined."""
    lang = sub.language if sub.language in LANGUAGES else "en"
    title, body = CHALLENGE_TEXTS[lang]
    game_name = game_words(lang, game)
    return {"type": "challenge", "challenge": challenge_id, "from": who, "game": game,
            "live": live, "lang": lang, "title": title.format(who=who, game=game_name),
            "body": body.format(how=HOW[lang][0 if live else 1]), "url": "/",
            "tag": f"taash-challenge-{challenge_id}", "icon": "/assets/icon.svg"}


def shown(sub: PushSub) -> PushShown:
    """A subscription as the API shows it: no keys, of the endpoint only its origin."""
    return {"id": sub.id, "table": sub.table_id, "seat": sub.seat, "language": sub.language,
            "off": sub.off, "quiet_from": sub.quiet_from, "quiet_to": sub.quiet_to,
            "tz_offset": sub.tz_offset, "created": sub.created,
            "service": Pusher.origin_of(sub.endpoint)}


class Pusher:
    """The server's VAPID key and the sending of push messages, in the background: a
    failure is logged, never raised to a player."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = PushStore(store)
        self.allowed = {o.strip().rstrip("/").lower()
                        for o in settings.push_allow_origins.split(",") if o.strip()}
        self.private_key = ""
        self.public_key = ""
        self.vapid: Vapid02 | None = None
        self.http = httpx.AsyncClient(timeout=10.0, follow_redirects=False)
        self._tasks: set[asyncio.Future[None]] = set()
        pub = settings.public_url or ""
        self.subject = settings.vapid_subject or (
            pub if pub.startswith("https://") else "mailto:taash@localhost")

    async def start(self) -> None:
        given = self.settings.vapid_private_key
        key = given or await self.store.vapid_key(new_private_key(), time.time())
        try:
            if len(b64url_decode(key)) != 32:
                raise ValueError(key)
            self.public_key = public_key_of(key)
        except Exception:
            raise ConfigError("--vapid-private-key: not a raw P-256 private key in base64url "
                              "(32 bytes)") from None
        self.private_key = key
        self.vapid = Vapid02.from_raw(key.encode())
        self.vapid.conf = {"no-strict": True}  # the subject is ours: an https origin or mailto

    # -- endpoints -------------------------------------------------------------------------
    @staticmethod
    def origin_of(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc.rsplit('@', 1)[-1]}".lower()

    def origin(self, url: str) -> str:
        return self.origin_of(url)

    async def check_endpoint(self, url: str) -> None:
        """BadRequest unless a push may go to ``url``: https to public addresses, or an
        allowed origin."""
        parts = urlsplit(url)
        if len(url) > 2000 or not parts.hostname or parts.scheme not in ("http", "https"):
            raise BadRequest("subscription.endpoint must be an https:// URL")
        if self.origin(url) in self.allowed:
            return
        if parts.scheme != "https":
            raise BadRequest("subscription.endpoint must be an https:// URL")
        try:
            await webhook_addresses(url)
        except WebhookRefused as e:
            raise BadRequest("push endpoint refused: " + str(e).replace("webhook ", "")) from None

    async def listed(self, player_id: str) -> list[PushShown]:
        """The player's subscriptions (theirs and their seats'), as the API shows them."""
        return [shown(s) for s in await self.store.of_player(player_id)]

    # -- sending ---------------------------------------------------------------------------
    def turn(self, room: Room, seat: int, version: int, kind: str) -> None:
        """Tell the seat by push that it is its turn (``kind`` "notified" or "reminded")."""
        self._spawn(self._turn(room, seat, version, kind))

    async def _turn(self, room: Room, seat: int, version: int, kind: str) -> None:
        try:
            subs = await self.store.targets(room.id, seat)
        except Exception:
            log.exception("push targets for table %s", room.id)
            return
        if not subs or connected(room, seat):
            return
        now = time.time()
        name = room.seat_row(seat).name
        for sub in subs:
            if quiet_now(sub, now):
                continue
            payload = turn_payload(sub, room.id, room.meta.game, seat, name, version, kind)
            self._spawn(self.deliver(sub, payload, "normal" if kind == "notified" else "low",
                                     f"t{room.id}"))

    def challenge(self, player_id: str, challenge_id: str, who: str, game: str,
                  live: bool) -> None:
        """Tell a player by push (their subscriptions for every table) of a friend's
        challenge."""
        self._spawn(self._challenge(player_id, challenge_id, who, game, live))

    async def _challenge(self, player_id: str, challenge_id: str, who: str, game: str,
                         live: bool) -> None:
        try:
            subs = await self.store.player_targets(player_id)
        except Exception:
            log.exception("push targets for player %s", player_id)
            return
        now = time.time()
        for sub in subs:
            if not quiet_now(sub, now):
                self._spawn(self.deliver(sub, challenge_payload(sub, challenge_id, who, game,
                                                                live),
                                         "normal", f"c{challenge_id[:30]}"))

    def spawn(self, coro: Awaitable[None]) -> None:
        """Run a sending in the background (what the other notices, ``event_notice``'s, use)."""
        self._spawn(coro)

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _encrypt(self, sub: PushSub, data: bytes) -> bytes:
        # imported at the first push, not at start: pywebpush brings aiohttp and more (about a
        # third of a second of every server start, for a feature many sites never use)
        from pywebpush import WebPusher

        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        body: bytes = WebPusher(info).encode(data, "aes128gcm")["body"]
        return body

    async def deliver(self, sub: PushSub, payload: Mapping[str, object], urgency: str,
                      topic: str) -> None:
        """POST one encrypted message; a subscription gone (404, 410) is removed; 429 and
        5xx are tried again after Retry-After (else 1, 2, 4 s)."""
        assert self.vapid is not None
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        try:  # ECDH and AES are quick, but off the loop all the same
            body = await asyncio.to_thread(self._encrypt, sub, data)
        except Exception as e:
            log.warning("push %s: cannot encrypt: %s", sub.id, e)
            return
        target = sub.endpoint
        headers: dict[str, str] = {}
        extensions: dict[str, str] = {}
        if self.origin(sub.endpoint) not in self.allowed:
            try:  # checked again: the endpoint's name may point elsewhere by now
                addrs = await webhook_addresses(sub.endpoint)
            except WebhookRefused as e:
                log.warning("push not sent: %s", e)
                return
            target, headers, extensions = pinned(sub.endpoint, addrs[0])
        claims: dict[str, str | int] = {"aud": self.origin(sub.endpoint),
                                        "exp": int(time.time()) + 12 * 3600,
                                        "sub": self.subject}
        headers.update(self.vapid.sign(claims))
        headers.update({"TTL": str(TTL_S), "Urgency": urgency, "Topic": topic,
                        "Content-Encoding": "aes128gcm",
                        "Content-Type": "application/octet-stream"})
        for attempt in range(TRIES):
            wait = float(2 ** attempt)
            try:
                r = await self.http.post(target, content=body, headers=headers,
                                         extensions=extensions)
                if r.status_code < 300:
                    return
                if r.status_code in (404, 410):
                    log.info("push %s: the push service says it is gone; removed", sub.id)
                    await self.store.remove(sub.id)
                    return
                if r.status_code != 429 and r.status_code < 500:
                    log.warning("push %s: refused with %s: %s", sub.id, r.status_code,
                                r.text[:200])
                    return
                asked = retry_after(r.headers.get("retry-after"), time.time())
                if asked is not None:
                    if asked > MAX_WAIT_S:
                        log.warning("push %s: asked to wait %.0f s; not sent", sub.id, asked)
                        return
                    wait = asked
                log.info("push %s: %s, again in %.1f s", sub.id, r.status_code, wait)
            except httpx.HTTPError as e:
                log.info("push %s: %s", sub.id, e)
            if attempt + 1 < TRIES:
                await asyncio.sleep(wait)
        log.warning("push %s: gave up", sub.id)

    async def close(self) -> None:
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        for task in list(self._tasks):
            task.cancel()
        await self.http.aclose()

    @staticmethod
    def new_id() -> str:
        return secrets.token_urlsafe(12)
