"""Quick chat at the table: a seat sends a phrase (by its id: the page says it in the reader's
language) or an emoji from a fixed set, or, where the table's creator allowed it
(``chat_text``), a line of free text; every live connection to the table (seats and
spectators, here and on the other instances) gets it as ``{"type": "chat", "seat", "phrase"
| "emoji" | "text", "at"}``.  Nothing is stored: chat is for the players at the table now.

Each seat may send a few messages, then one every few seconds (``RATE``, ``BURST``), apart
from its requests' own limit; a player who would rather not read another is muted on their
page (the server sends to everyone).

At a rated table (``watch.rated``) the chat is quick phrases and emoji only while its match
is played (issue 48: a line of text could tell a partner a hand): free text, where allowed,
comes back once the match is over, and before anyone moves while it waits for its invited
friends.  Spectators do not chat to a table: only a seat does."""

from __future__ import annotations

import time
import unicodedata
from typing import Literal, NotRequired

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from taash.server.errors import BadRequest, Forbidden, RateLimited
from taash.server.http.deps import SettingsDep
from taash.server.http.guard import TokenBuckets
from taash.server.tables import watch, wire
from taash.server.tables.access import seat_of
from taash.server.tables.deps import BusDep, RoomsDep

# the phrases, by id (web/i18n: chat_<id>), and the emoji, in the order the page shows them
PHRASES = ("hello", "good_luck", "well_played", "nice", "thanks", "oops", "sorry",
           "think", "hurry", "again", "gg", "bye")
EMOJI = ("👍", "👏", "😀", "😂", "😮", "🤔", "😢", "😡", "🎉", "🙏", "❤️", "🐐")
MAX_TEXT = 80  # characters of free text
RATE = 0.5  # messages a second per seat, after a burst of
BURST = 4.0
# the direction controls (U+202A-U+202E, U+2066-U+2069): a line cannot turn others' round
DIRECTION = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


class ChatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    phrase: str | None = Field(None, max_length=40, examples=["well_played"],
                               description="one of the phrase ids (GET /api/chat)")
    emoji: str | None = Field(None, max_length=16, examples=["👍"],
                              description="one of the emoji (GET /api/chat)")
    text: str | None = Field(None, max_length=1000,
                             description=f"free text, 1 to {MAX_TEXT} characters, where the "
                                         "table allows it (chat_text)")


class Said(TypedDict):
    """What a chat message says: exactly one of these."""

    phrase: NotRequired[str]
    emoji: NotRequired[str]
    text: NotRequired[str]


class ChatLive(Said):
    """The live ``chat`` message every connection to the table gets."""

    type: Literal["chat"]
    seat: int
    at: str


class ChatSet(TypedDict):
    phrases: list[str]
    emoji: list[str]
    max_text: int


class ChatSent(TypedDict):
    id: str
    seat: int
    sent: ChatLive


def clean_text(raw: str) -> str:
    """Free text as a chat line takes it: trimmed, 1 to MAX_TEXT characters, no control or
    direction characters (BadRequest saying which rule)."""
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise BadRequest("chat text is empty")
    if len(text) > MAX_TEXT:
        raise BadRequest(f"chat text is at most {MAX_TEXT} characters, not {len(text)}")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise BadRequest("chat text holds no control characters (such as a line break)")
    if any(c in DIRECTION for c in text):
        raise BadRequest("chat text holds no direction control characters")
    return text


def message_of(body: ChatBody, allow_text: bool, in_play: bool = False) -> Said:
    """What a chat request says: exactly one of a known phrase, a known emoji, or free text
    where the table allows it (``in_play``: not while a rated table's match is played)."""
    given = [k for k in ("phrase", "emoji", "text") if getattr(body, k) is not None]
    if len(given) != 1:
        raise BadRequest("a chat message is one of phrase, emoji or text")
    if body.phrase is not None:
        if body.phrase not in PHRASES:
            raise BadRequest(f"unknown phrase {body.phrase[:40]!r}: one of {', '.join(PHRASES)}")
        return {"phrase": body.phrase}
    if body.emoji is not None:
        if body.emoji not in EMOJI:
            raise BadRequest("unknown emoji: one of " + " ".join(EMOJI))
        return {"emoji": body.emoji}
    assert body.text is not None
    if not allow_text:
        raise Forbidden("this table's chat takes phrases and emoji only: its creator did "
                        "not allow free text")
    if in_play:
        raise Forbidden("a rated table's chat takes quick phrases and emoji only while its "
                        "match is played: free text comes back when it is over")
    return {"text": clean_text(body.text)}


# GET /api/chat (the phrases and emoji) and POST /api/tables/{id}/chat.
router = APIRouter()


def chat_buckets() -> TokenBuckets:
    """Each seat's chat allowance, one per app (``app.state.chat_buckets``): always on (also
    with --rate-limit 0, which is for the API's requests), as chat is noise to the others at
    the table however a server is run."""
    return TokenBuckets(RATE, BURST)

@router.get("/api/chat", tags=["seats"])
async def chat_set() -> ChatSet:
    """The quick chat's phrase ids and emoji, and the most characters of free text."""
    return {"phrases": list(PHRASES), "emoji": list(EMOJI), "max_text": MAX_TEXT}

@router.post("/api/tables/{table_id}/chat", tags=["seats"])
async def chat(bus: BusDep, rooms: RoomsDep, settings: SettingsDep, request: Request, table_id: str,
               body: ChatBody, token: str | None = None, seat: int | None = None
) -> ChatSent:
    """Say a phrase, an emoji or (where the table allows it) a line of text to the table:
    every live connection to it gets a ``chat`` message."""
    room, s = await seat_of(request, settings, table_id, token, seat)
    m = room.meta
    said = message_of(body, m.chat_text,
                      watch.rated(m) and not room.state.is_over() and not m.waiting_for())
    if not request.app.state.chat_buckets.allow(f"{room.id}:{s}"):
        raise RateLimited("too many chat messages from this seat: wait a few seconds",
                          retry_after=1 / RATE)
    msg: ChatLive = {"type": "chat", "seat": s, **said,
                     "at": wire.iso(time.time(), "milliseconds")}
    text = wire.dumps(msg)
    room.tell_all(text)
    if bus.shared:
        await bus.publish({"k": "chat", "t": room.id, "i": rooms.instance, "m": text})
    return {"id": room.id, "seat": s, "sent": msg}
