"""Telling a player of a fair-play decision about them by Web Push (issue 48, docs/fairplay.md):
a warning, a ban from rated play, or a ban lifted, to each of their subscriptions for every table
(``POST /api/me/push``) that is on and outside its quiet hours, in its language.  The words are
the page's own (``web/i18n``: the notice on the home page says the same), whom to write to the
server's ``fairplay_contact``.  Fair play says whom to tell and of what (``Services`` hands
``fairplay_told`` to it); nothing of the evidence, the note or the moderator is in it."""

from __future__ import annotations

import logging
import time

from taash.server.notify.push import LANGUAGES, Pusher, page_words, quiet_now
from taash.server.notify.shapes import FairPlayPush
from taash.server.store.push import PushSub

log = logging.getLogger("taash.server")

KINDS = ("warned", "banned", "lifted")
# the words when the page's are not installed (a server without its page): English
FALLBACK = {
    "fairplay_notice_title": "A fair-play decision about your account",
    "fairplay_notice_warned": "A moderator has warned you: play only with what your own seat "
                              "can see.",
    "fairplay_notice_banned": "A moderator has banned you from rated play. You can still play "
                              "unrated: at a table for pass and play, and offline.",
    "fairplay_notice_lifted": "A moderator has lifted your ban from rated play.",
    "fairplay_notice_contact": "To ask about it, write to: {contact}",
    "fairplay_notice_contact_host": "To ask about it, write to the people who run this server.",
}


def _words(lang: str, key: str) -> str:
    return page_words(lang).get(key) or page_words("en").get(key) or FALLBACK[key]


def fairplay_payload(sub: PushSub, kind: str, contact: str | None) -> FairPlayPush:
    """What the push says, in the subscription's language; a tap opens the home page, where
    the same notice waits to be read.

    >>> s = PushSub("i", "p:x", "e", "k", "a", None, None, "x", "en", False, None, None, 0, 0.0)
    >>> p = fairplay_payload(s, "banned", "fair@example.org")
    >>> p["title"], p["body"].endswith("To ask about it, write to: fair@example.org")
    ('A fair-play decision about your account', True)
    """
    lang = sub.language if sub.language in LANGUAGES else "en"
    ask = (_words(lang, "fairplay_notice_contact").format(contact=contact) if contact
           else _words(lang, "fairplay_notice_contact_host"))
    return {"type": "fairplay", "kind": kind, "lang": lang,
            "title": _words(lang, "fairplay_notice_title"),
            "body": f"{_words(lang, f'fairplay_notice_{kind}')} {ask}",
            "url": "/", "tag": "taash-fairplay", "icon": "/assets/icon.svg"}


def fairplay_told(pusher: Pusher, player_id: str, kind: str) -> None:
    """Push a decision (``warned``, ``banned``, ``lifted``) to the player, in the background."""
    if kind in KINDS:
        pusher.spawn(_tell(pusher, player_id, kind))


async def _tell(pusher: Pusher, player_id: str, kind: str) -> None:
    try:
        subs = await pusher.store.player_targets(player_id)
    except Exception:
        log.exception("push targets of player %s", player_id)
        return
    now = time.time()
    for sub in subs:
        if not quiet_now(sub, now):
            pusher.spawn(pusher.deliver(sub, fairplay_payload(
                sub, kind, pusher.settings.fairplay_contact), "normal", f"fairplay-{kind}"))
