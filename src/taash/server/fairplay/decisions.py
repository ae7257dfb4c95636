"""The moderators' side of fair play (docs/fairplay.md, "In the server"), a part of its service
(``FairPlay`` inherits it): the review queue, a case, a decision (cleared, warned, banned from
rated play), lifting a ban, and what a decided player is told.

A partnership's case (two players) is decided once for the partnership; a warning or a ban
applies to both its players, or to the one the moderator names (``players``), each warned or
banned as a player's case would (their notice, their rated results out of the ratings), the
decision recording whom it applied to.  Lifting its ban lifts it for each player it banned.

A player who is warned, banned or whose ban is lifted gets a **notice**, written with the
decision (so of several instances one writes it) and shown to them until they have read it
(told once): the kind of decision and when, and whom to write to (``fairplay_contact``),
never the evidence, the moderator's note or who decided.  It is also pushed to their
subscriptions for every table, once, by the instance that decided (``tell``)."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable

from taash.server.config import Settings
from taash.server.errors import BadRequest, Conflict, Forbidden, NotFound
from taash.server.fairplay.shapes import (
    CaseJson,
    CaseSummary,
    DealToReplay,
    Notice,
    Notices,
    Queue,
)
from taash.server.store.fairplay import CaseRow, FairPlayStore
from taash.server.store.fairplay_lift import LiftRow
from taash.server.tables import wire

log = logging.getLogger("taash.server")

MODERATOR = "moderator"
DECISIONS = ("cleared", "warned", "banned")
NOTE_MAX = 2000
SHOWN = 50  # cases a queue lists

# told the player and the kind of notice (warned, banned, lifted): the push (Services)
Tell = Callable[[str, str], None]


def _iso(t: float) -> str:
    return wire.iso(t)


def _whom(c: CaseRow, players: object) -> list[str]:
    """Whom a decision on the case applies to: its player; on a partnership's case its two
    players, or those of them ``players`` names."""
    if players is None:
        return c.players
    if (c.partner_id is None or not isinstance(players, list) or not players
            or any(p not in c.players for p in players)):
        raise BadRequest("players: only on a partnership's case, one or both of its players"
                         + ("" if c.partner_id is None else f" ({', '.join(c.players)})"))
    return [p for p in c.players if p in players]


def _note(note: object) -> str:
    text = note.strip() if isinstance(note, str) else ""
    if not text or len(text) > NOTE_MAX:
        raise BadRequest(f"note: why, in 1 to {NOTE_MAX} characters")
    return text


class Decisions:
    """The queue, the cases, the decisions and the lifts (moderators only), and the notices
    (the player decided about only)."""

    settings: Settings
    store: FairPlayStore
    unrate: Callable[[str], Awaitable[int]]
    tell: Tell | None
    clock: Callable[[], float]

    async def is_moderator(self, player_id: str) -> bool:
        return await self.store.has_role(player_id, MODERATOR)

    async def _moderator(self, player_id: str) -> None:
        if not await self.is_moderator(player_id):
            raise Forbidden("only moderators can see the fair-play queue and decide its cases")

    async def _found(self, case_id: str) -> CaseRow:
        c = await self.store.case(case_id) if 0 < len(case_id) <= 24 else None
        if c is None:
            raise NotFound(f"no case {case_id!r}")
        return c

    async def queue_page(self, player_id: str) -> Queue:
        await self._moderator(player_id)
        opened = await self.store.cases("open", SHOWN)
        decided = [c for c in await self.store.cases(None, SHOWN) if c.status != "open"]
        lifts = await self.store.lifts([c.id for c in decided if c.status == "banned"])
        return {"open": [self._summary(c, None) for c in opened],
                "decided": [self._summary(c, lifts.get(c.id)) for c in decided]}

    async def case(self, player_id: str, case_id: str) -> CaseJson:
        await self._moderator(player_id)
        c = await self._found(case_id)
        return self._case(c, (await self.store.lifts([c.id])).get(c.id))

    async def decide(self, player_id: str, case_id: str, decision: object,
                     note: object, players: object = None) -> CaseJson:
        """A moderator's decision on an open case; ``banned`` also takes the player's rated
        results out of the ratings.  A warned or banned player is told (a notice, a push).
        On a partnership's case the warning or ban applies to ``players`` (of its two; None:
        both)."""
        await self._moderator(player_id)
        if decision not in DECISIONS:
            raise BadRequest(f"decision: one of {', '.join(DECISIONS)}")
        text = _note(note)
        c = await self._found(case_id)
        whom = _whom(c, players)
        decided, told = await self.store.decide(
            case_id, str(decision), player_id, text, self.clock(),
            None if c.partner_id is None else (whom if decision != "cleared" else []))
        if not decided:
            raise Conflict("this case has been decided already")
        if decision == "banned":
            for p in whom:
                n = await self.unrate(p)
                log.info("fair play: player %s banned from rated play by %s (case %s): %d "
                         "rated matches taken out of the ratings", p, player_id, case_id, n)
        for p in told:
            if self.tell is not None:
                self.tell(p, str(decision))
        return await self.case(player_id, case_id)

    async def lift(self, player_id: str, case_id: str, note: object) -> CaseJson:
        """Lift the ban of a case's player (moderators): recorded with who, when and why; the
        player may sit at rated tables again and is told.  Their results taken out of the
        ratings at the ban stay out (docs/fairplay.md): their ratings go on from where the
        replay without them left them."""
        await self._moderator(player_id)
        text = _note(note)
        c = await self._found(case_id)
        if c.status != "banned":
            raise Conflict("this case did not ban its player: there is no ban to lift")
        lifted: list[str] = []
        if c.partner_id is None:
            if await self.store.lift(c.player_id, player_id, text, self.clock()) is not None:
                lifted.append(c.player_id)
        else:  # each player this partnership's case banned, if that ban is still in force
            for p in c.decided_for or c.players:
                if await self.store.ban_case(p) == case_id and await self.store.lift(
                        p, player_id, text, self.clock()) is not None:
                    lifted.append(p)
        if not lifted:
            raise Conflict("this player is not banned now (their ban was lifted already)")
        for p in lifted:
            log.info("fair play: player %s's ban from rated play (case %s) lifted by %s", p,
                     case_id, player_id)
            if self.tell is not None:
                self.tell(p, "lifted")
        return await self.case(player_id, case_id)

    # -- the player decided about -----------------------------------------------------------
    async def notices(self, player_id: str) -> Notices:
        """The player's notices not read yet, and whether they are banned now."""
        listed: list[Notice] = [{"id": n.id, "kind": n.kind, "at": _iso(n.created)}
                                for n in await self.store.notices(player_id)]
        return {"notices": listed, "contact": self.settings.fairplay_contact,
                "banned": await self.store.ban_case(player_id) is not None}

    async def seen(self, player_id: str, notice_id: str) -> Notices:
        """The player has read a notice of theirs: it is not shown again."""
        if not 0 < len(notice_id) <= 24 or not await self.store.seen(player_id, notice_id,
                                                                     self.clock()):
            raise NotFound(f"no notice {notice_id!r} of yours")
        return await self.notices(player_id)

    # -- shapes -----------------------------------------------------------------------------
    @staticmethod
    def _summary(c: CaseRow, lift: LiftRow | None) -> CaseSummary:
        return {"id": c.id, "player": c.player_id, "name": c.name,
                "profile": f"/p/{c.player_id}", "partner": c.partner_id,
                "partner_name": c.partner_name,
                "partner_profile": None if c.partner_id is None else f"/p/{c.partner_id}",
                "status": c.status, "opened": _iso(c.opened),
                "updated": _iso(c.updated), "p_value": c.p_value,
                "score": round(-math.log10(max(c.p_value, 1e-300)), 3), "deals": c.deals,
                "url": f"/moderate?case={c.id}",
                "lifted": _iso(lift.lifted) if lift is not None else None}

    def _case(self, c: CaseRow, lift: LiftRow | None) -> CaseJson:
        replay: list[DealToReplay] = []
        listed = c.evidence.get("weighing")
        for d in listed if isinstance(listed, list) else []:
            if not isinstance(d, dict):
                continue
            table, deal = str(d.get("record", "")), int(d.get("deal", 0))
            replay.append({"table": table, "deal": deal, "weight": float(d.get("weight", 0)),
                           "opportunities": int(d.get("opportunities", 0)),
                           "hits": int(d.get("hits", 0)),
                           "replay": f"/review?table={table}&deal={deal}"})
        out: CaseJson = {**self._summary(c, lift), "evidence": c.evidence, "replay": replay,
                         "decision": None, "lift": None}
        if c.decided is not None:
            out["decision"] = {"decision": c.status, "by": c.decided_by,
                               "by_name": c.decided_by_name, "at": _iso(c.decided),
                               "note": c.note or "",
                               "players": ([c.player_id] if c.status != "cleared" else [])
                               if c.decided_for is None else c.decided_for}
        if lift is not None:
            out["lift"] = {"player": lift.player_id, "by": lift.lifted_by,
                           "by_name": lift.lifted_by_name, "at": _iso(lift.lifted),
                           "note": lift.note}
        return out
