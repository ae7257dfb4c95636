"""Telling the entrants of a duplicate event that it has closed, and their place in it, by Web
Push (issue 45, docs/events.md): to each of their subscriptions for every table (``POST
/api/me/push``) that is on, outside its quiet hours, in its language.  The events service says
who placed where (``Services.events_closed``); this module only words and sends it."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from taash.server.notify.push import LANGUAGES, Pusher, game_words, quiet_now
from taash.server.notify.shapes import EventPush
from taash.server.store.push import PushSub

log = logging.getLogger("taash.server")

# (title, body with a place, body without) of an event's close, in each language
EVENT_TEXTS: dict[str, tuple[str, str, str]] = {
    "en": ("{game} duplicate: the results", "You placed {rank} of {field} ({percent}%). "
           "Your deals can be checked now.", "The event has closed: see the standings."),
    "hi": ("{game} डुप्लिकेट: नतीजे", "{field} में आपका स्थान {rank} ({percent}%)। "
           "अब आप अपनी बाज़ियाँ जाँच सकते हैं।", "इवेंट बंद हो गया: तालिका देखें।"),
    "ur": ("{game} ڈپلیکیٹ: نتائج", "{field} میں آپ کا نمبر {rank} ({percent}%)\u06d4 "
           "اب آپ اپنی بازیاں جانچ سکتے ہیں\u06d4",
           "ایونٹ بند ہو گیا: نتائج کی فہرست دیکھیں\u06d4"),
    "ru": ("{game}, дубликат: итоги", "Ваше место: {rank} из {field} ({percent}%). "
           "Теперь раздачи можно проверить.", "Турнир закрыт: посмотрите таблицу."),
}


@dataclass(frozen=True)
class EventPlace:
    """An entrant's place in an event that has closed (``rank`` None: no board finished),
    among ``field`` entrants who finished a board."""

    player: str
    event: str
    game: str
    rank: int | None
    field: int
    percent: float | None


def event_payload(sub: PushSub, p: EventPlace) -> EventPush:
    """What the push says, in the subscription's language; a tap opens the event's page
    (the standings, and checking the deals).

    >>> s = PushSub("i", "p:x", "e", "k", "a", None, None, "x", "en", False, None, None, 0, 0.0)
    >>> event_payload(s, EventPlace("x", "ev1", "g", 3, 14, 56.3))["body"]
    'You placed 3 of 14 (56.3%). Your deals can be checked now.'
    """
    lang = sub.language if sub.language in LANGUAGES else "en"
    title, placed, closed = EVENT_TEXTS[lang]
    body = (placed.format(rank=p.rank, field=p.field, percent=p.percent) if p.rank is not None
            else closed)
    return {"type": "event_closed", "event": p.event, "game": p.game, "rank": p.rank,
            "field": p.field, "percent": p.percent, "lang": lang,
            "title": title.format(game=game_words(lang, p.game)), "body": body,
            "url": f"/assets/events.html#{p.event}", "tag": f"taash-event-{p.event}",
            "icon": "/assets/icon.svg"}


def events_closed(pusher: Pusher, places: Sequence[EventPlace]) -> None:
    """Tell these entrants, in the background: the subscriptions of the whole field are asked
    at once (``PushStore.players_targets``), not one query per entrant."""
    if places:
        pusher.spawn(_tell(pusher, places))


async def _tell(pusher: Pusher, places: Sequence[EventPlace]) -> None:
    by_player = {p.player: p for p in places}
    try:
        subs = await pusher.store.players_targets(list(by_player))
    except Exception:
        log.exception("push targets of %d entrants", len(by_player))
        return
    now = time.time()
    for sub in subs:
        p = by_player.get(sub.scope.removeprefix("p:"))
        if p is not None and not quiet_now(sub, now):
            pusher.spawn(pusher.deliver(sub, event_payload(sub, p), "low", f"e{p.event[:30]}"))
