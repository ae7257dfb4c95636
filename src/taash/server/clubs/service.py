"""Clubs: making one, its members and their roles, invitations (by link or by name), joining,
leaving, removing, handing over and closing; the club's page and leaderboard; the tables and
events made for it (docs/clubs.md).

Who may see a club: anyone if it is public; its members, the players invited to it by name
and whoever holds its link if it is private.  To everyone else a private club does not exist
(404, as for an id no club has).  A closed club is gone for those who were not its members; to
its members it answers its page, marked closed, and refuses every change (409).

Roles: the owner (one; the club's maker until they hand it over) and admins invite, renew the
link, remove members (an admin only plain members), make tables and events; the owner alone
names admins, hands over and closes.  Every member may make a club table and sit at one.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Sequence

from taash.games import GAMES
from taash.ratings import Rating
from taash.server.clubs.shapes import (
    ClubPage,
    ClubsList,
    ClubSummary,
    InviteResult,
    Leaderboard,
    MemberJson,
    MyClubs,
)
from taash.server.errors import BadRequest, Conflict, Forbidden, NotFound
from taash.server.events.service import Events
from taash.server.social.seasons import rating_json
from taash.server.store.clubs import ClubRow, ClubStore
from taash.server.store.db import PlayerRow, Store
from taash.server.tables import wire

ROLES = ("owner", "admin", "member")
NAME_MAX = 64
LIST_LIMIT = 50
TABLES_SHOWN = 20
EVENTS_SHOWN = 10


def _token() -> str:
    return secrets.token_urlsafe(18)


def summary(c: ClubRow, members: int, role: str | None) -> ClubSummary:
    return {"id": c.id, "name": c.name, "public": c.public, "members": members, "role": role,
            "url": f"/club/{c.id}"}


class Clubs:
    """Clubs and their members; the club tables and events are ``taash.server.clubs.play``'s."""

    def __init__(self, store: Store, events: Events) -> None:
        self.store = ClubStore(store)
        self.events = events

    # -- who may see and do what ------------------------------------------------------------
    async def visible(self, club_id: str, player_id: str | None,
                      token: str | None = None) -> tuple[ClubRow, str | None]:
        """The club and the player's role in it, if they may see it: NotFound otherwise,
        alike for a private club and for none."""
        c = await self.store.get(club_id) if 0 < len(club_id) <= 24 else None
        role = await self.store.role(club_id, player_id) if c and player_id else None
        if c is None or (c.closed is not None and role is None):
            raise NotFound(f"no club {club_id!r}")
        if role is None and not c.public and not (
                token and hmac.compare_digest(token.encode(), c.invite.encode())) and not (
                player_id and await self.store.invited(c.id, player_id)):
            raise NotFound(f"no club {club_id!r}")
        return c, role

    async def member(self, club_id: str, player_id: str, *roles: str) -> tuple[ClubRow, str]:
        """The open club and the player's role, which must be one of ``roles`` (any, if none
        given): Forbidden for a member without it or a visitor of a club they can see."""
        c, role = await self.visible(club_id, player_id)
        if role is None:
            raise Forbidden("only the club's members can do this: join it first")
        if c.closed is not None:
            raise Conflict("this club is closed")
        if roles and role not in roles:
            raise Forbidden(f"only the club's {' or '.join(r + 's' for r in roles)} can do "
                            "this")
        return c, role

    # -- the club ---------------------------------------------------------------------------
    async def create(self, me: PlayerRow, name: object, public: bool) -> ClubPage:
        text = name.strip() if isinstance(name, str) else ""
        if not text or len(text) > NAME_MAX or not text.isprintable():
            raise BadRequest(f"name: 1 to {NAME_MAX} printable characters")
        c = ClubRow(secrets.token_hex(6), text, public, _token(), me.id, time.time(), None)
        while not await self.store.create(c):  # an id drawn twice: draw again
            c.id = secrets.token_hex(6)
        return await self.page(c.id, me.id)

    async def page(self, club_id: str, player_id: str | None,
                   token: str | None = None) -> ClubPage:
        c, role = await self.visible(club_id, player_id, token)
        members = await self.store.members(c.id)
        rated: dict[str, dict[str, Rating]] = {}
        for pid, game, mu, sigma, _ in await self.store.ratings(c.id):
            rated.setdefault(pid, {})[game] = Rating(mu, sigma)
        tables = await self.store.tables(c.id, TABLES_SHOWN)
        events = [await self.events.describe(e, player_id)
                  for e in await self.store.events(c.id, EVENTS_SHOWN)]
        page: ClubPage = {
            "id": c.id, "name": c.name, "public": c.public, "created": wire.iso(c.created),
            "closed": wire.iso(c.closed) if c.closed is not None else None, "role": role,
            "invited": role is None and player_id is not None
            and await self.store.invited(c.id, player_id),
            "members": [self._member(m.player_id, m.name, m.role, m.joined,
                                     rated.get(m.player_id, {})) for m in members],
            "tables": [{"id": t.id, "game": t.game, "live": t.live, "over": t.over,
                        "created": wire.iso(t.created), "free_seats": t.free,
                        "seats": [{"seat": s, "name": n, "player": p} for s, n, p in t.seated],
                        "results": t.results, "url": f"/t/{t.id}"} for t in tables],
            "events": events}
        if role in ("owner", "admin") and c.closed is None:
            page["invite"] = {"token": c.invite, "url": f"/club/{c.id}?invite={c.invite}"}
        return page

    @staticmethod
    def _member(pid: str, name: str, role: str, joined: float,
                rated: dict[str, Rating]) -> MemberJson:
        return {"player": pid, "name": name, "role": role, "joined": wire.iso(joined),
                "ratings": {g: rating_json(r) for g, r in sorted(rated.items())}}

    async def listing(self, query: str, player_id: str | None) -> ClubsList:
        """Public clubs, by a piece of their name."""
        mine = dict((c.id, r) for c, r in await self.store.of_player(player_id)) \
            if player_id else {}
        return {"clubs": [summary(c, n, mine.get(c.id))
                          for c, n in await self.store.public(query.strip(), LIST_LIMIT)]}

    async def mine(self, me: PlayerRow) -> MyClubs:
        clubs = await self.store.of_player(me.id)
        invited = await self.store.invited_to(me.id)
        n = await self.store.counts([c.id for c, _ in clubs] + [c.id for c in invited])
        return {"clubs": [summary(c, n.get(c.id, 0), r) for c, r in clubs],
                "invited": [summary(c, n.get(c.id, 0), None) for c in invited]}

    async def leaderboard(self, club_id: str, player_id: str | None, game: str) -> Leaderboard:
        c, _ = await self.visible(club_id, player_id)
        if game not in GAMES:
            raise BadRequest(f"unknown game {game!r} (games: {', '.join(GAMES)})")
        names = {m.player_id: m.name for m in await self.store.members(c.id)}
        rows = [(pid, Rating(mu, sigma), n) for pid, g, mu, sigma, n
                in await self.store.ratings(c.id) if g == game]
        return {"club": c.id, "game": game,
                "players": [{"rank": i + 1, "player": pid, "name": names.get(pid, ""),
                             **rating_json(r, n)} for i, (pid, r, n) in enumerate(rows)]}

    # -- members ----------------------------------------------------------------------------
    async def join(self, club_id: str, me: PlayerRow, token: str | None) -> ClubPage:
        """Join by the link's token, an invitation by name, or freely a public club; once
        a member, joining again changes nothing."""
        c, role = await self.visible(club_id, me.id, token)
        if c.closed is not None:
            raise Conflict("this club is closed")
        if role is None:
            await self.store.add_member(c.id, me.id, time.time())
        return await self.page(c.id, me.id)

    async def invite(self, club_id: str, me: PlayerRow, name: object) -> InviteResult:
        c, _ = await self.member(club_id, me.id, "owner", "admin")
        text = name.strip() if isinstance(name, str) else ""
        if not text:
            raise BadRequest("name: the player's name")
        found = await self.store.players_named(text)
        if not found:
            raise NotFound(f"no player is named {text!r}")
        if len(found) > 1:
            raise Conflict(f"several players are named {text!r}: send them the club's link")
        if await self.store.role(c.id, found[0]) is not None:
            return {"player": found[0], "state": "member"}
        await self.store.invite(c.id, found[0], me.id, time.time())
        return {"player": found[0], "state": "invited"}

    async def new_link(self, club_id: str, me: PlayerRow) -> ClubPage:
        """A new invite link: the old one stops working."""
        c, _ = await self.member(club_id, me.id, "owner", "admin")
        await self.store.set_invite(c.id, _token())
        return await self.page(c.id, me.id)

    async def leave(self, club_id: str, me: PlayerRow) -> None:
        c, role = await self.member(club_id, me.id)
        if role == "owner":
            raise Conflict("the owner cannot leave: hand the club over to a member first, "
                           "or close it")
        await self.store.remove_member(c.id, me.id)

    async def remove(self, club_id: str, me: PlayerRow, player_id: str) -> None:
        c, role = await self.member(club_id, me.id, "owner", "admin")
        theirs = await self.store.role(c.id, player_id)
        if theirs is None:
            raise NotFound("no such member of this club")
        if player_id == me.id:
            raise BadRequest("to leave the club, leave it")
        if theirs == "owner" or (theirs == "admin" and role != "owner"):
            raise Forbidden(f"an {role} cannot remove the club's {theirs}")
        await self.store.remove_member(c.id, player_id)

    async def set_role(self, club_id: str, me: PlayerRow, player_id: str,
                       role: object) -> ClubPage:
        """The owner names an admin, makes an admin a member again, or hands the club over
        (``owner``: they become an admin)."""
        c, _ = await self.member(club_id, me.id, "owner")
        if role not in ROLES:
            raise BadRequest(f"role: one of {', '.join(ROLES)}")
        if player_id == me.id:
            raise BadRequest("you are the owner: hand the club over to change your role")
        if await self.store.role(c.id, player_id) is None:
            raise NotFound("no such member of this club")
        if role == "owner":
            if not await self.store.hand_over(c.id, me.id, player_id):
                raise Conflict("the club changed meanwhile: look again")
        else:
            await self.store.set_role(c.id, player_id, str(role))
        return await self.page(c.id, me.id)

    async def close(self, club_id: str, me: PlayerRow) -> ClubPage:
        c, _ = await self.member(club_id, me.id, "owner")
        await self.store.close(c.id, time.time())
        return await self.page(c.id, me.id)

    # -- the events' gate (taash.server.events.service.Gate) -------------------------------
    async def may_enter(self, event_id: str, player_id: str) -> None:
        club = (await self.store.club_of_events([event_id])).get(event_id)
        if club is None:
            return
        c = await self.store.get(club)
        if c is None or await self.store.role(club, player_id) is None:
            raise Forbidden("this event is for the members of its club")
        if c.closed is not None:
            raise Conflict("this event's club is closed")

    async def unlisted(self, event_ids: Sequence[str]) -> set[str]:
        return set(await self.store.club_of_events(event_ids))
