"""What the notify domain sends that is its own: the pushes (the service worker reads them)
and a push subscription as the API shows it."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict


class TurnPush(TypedDict):
    """A push that it is a seat's turn (what the service worker reads)."""

    type: Literal["your_turn", "reminder"]
    table: str
    game: str
    seat: int
    turn: int
    name: str | None
    version: int
    lang: str
    title: str
    body: str
    url: str
    tag: str
    icon: str


# A push of a friend's challenge ("from" is a Python keyword: the functional form)
ChallengePush = TypedDict("ChallengePush", {
    "type": Literal["challenge"], "challenge": str, "from": str, "game": str, "live": bool,
    "lang": str, "title": str, "body": str, "url": str, "tag": str, "icon": str})


class EventPush(TypedDict):
    """A push that a duplicate event the player entered has closed: their place in it
    (``rank`` None if they finished no board) among ``field`` entrants who finished one."""

    type: Literal["event_closed"]
    event: str
    game: str
    rank: int | None
    field: int
    percent: float | None
    lang: str
    title: str
    body: str
    url: str
    tag: str
    icon: str


class FairPlayPush(TypedDict):
    """A push that a moderator decided about the player (``kind``: warned, banned from rated
    play, or their ban lifted): what it means and whom to write to, nothing of the evidence."""

    type: Literal["fairplay"]
    kind: str
    lang: str
    title: str
    body: str
    url: str
    tag: str
    icon: str


class PushShown(TypedDict):
    """A subscription as the API shows it: no keys, of the endpoint only its origin."""

    id: str
    table: str | None
    seat: int | None
    language: str
    off: bool
    quiet_from: int | None
    quiet_to: int | None
    tz_offset: int
    created: float
    service: str
