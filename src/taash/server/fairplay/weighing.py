"""Weighing what the detector found (docs/fairplay.md, "In the server"), a part of fair play's
service (``FairPlay`` inherits it): a player over their recent finished deals, and a
partnership (two players who sat as partners in Court Piece or Goat) over theirs, each since
its last decided case.  Flagged at ``fairplay_alpha`` with at least ``fairplay_min_deals``
deals, a case opens for the moderators (one open case a player, one a partnership, however
many instances weigh them at once: ``FairPlayStore.open``); an open case's evidence follows the
new deals.  Nobody is banned here: a case only asks a moderator to look."""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from collections.abc import Callable, Sequence

from taash.fairplay.detect import Opportunity, Reference, load_reference, verdict
from taash.fairplay.score import PARTNER_STAT
from taash.server.config import Settings
from taash.server.store.fairplay import FairPlayStore, ScanRow
from taash.server.store.fairplay_pairs import PairScanRow, pair_key
from taash.server.tables import wire

log = logging.getLogger("taash.server")

#: what a partnership's opportunities are, per the game's ``PARTNER_STAT``
STATISTICS = {"fit": "partner-fit", "open": "open-best, the two seats pooled"}


class Weighing:
    """Weighing players and partnerships, and opening their cases."""

    settings: Settings
    store: FairPlayStore
    clock: Callable[[], float]
    _weighing: asyncio.Lock
    _reference: Reference | None

    def reference(self) -> Reference:
        if self._reference is None:
            self._reference = load_reference()
        return self._reference

    async def weigh(self, player_id: str) -> str | None:
        """Weigh a player over their recent finished deals: open a case if they are flagged,
        or bring their open case's evidence up to date.  The case's id, if there is one."""
        async with self._weighing:
            if await self.store.banned([player_id]):
                return None  # decided already
            since = await self.store.last_decided(player_id)
            rows = await self.store.scans(player_id, since if since is not None else -math.inf,
                                          self.settings.fairplay_window_deals)
            return await self._judge(player_id, None, rows)

    async def weigh_pair(self, player_id: str, partner_id: str) -> str | None:
        """Weigh a partnership over its recent finished deals together (partner-fit; in Goat
        its two seats' open-best opportunities pooled), as ``weigh`` a player: the case's id,
        if there is one.  A partnership whose two players are banned already gets none."""
        a, b = pair_key(player_id, partner_id)
        async with self._weighing:
            if await self.store.banned([a, b]) == {a, b}:
                return None  # decided already
            since = await self.store.last_decided(a, b)
            rows = await self.store.pair_scans(a, b, since if since is not None else -math.inf,
                                               self.settings.fairplay_window_deals)
            return await self._judge(a, b, rows)

    async def _judge(self, player_id: str, partner_id: str | None,
                     rows: Sequence[ScanRow | PairScanRow]) -> str | None:
        picked: list[ScanRow | PairScanRow] = []
        deals = 0
        for r in rows:  # the newest first, up to the window
            if deals >= self.settings.fairplay_window_deals:
                break
            picked.append(r)
            deals += r.deals
        case_id = await (self.store.open_case(player_id) if partner_id is None
                         else self.store.open_case(player_id, partner_id))
        if deals < self.settings.fairplay_min_deals and case_id is None:
            return None
        ops = [Opportunity(r.table_id, d, step, 0, game, kind, hit)
               for r in picked for d, step, game, kind, hit in r.opportunities]
        judged = sum(r.judged for r in picked)
        ref, alpha = self.reference(), self.settings.fairplay_alpha
        if partner_id is None:
            v = verdict(player_id, (player_id,), judged, ops, ref, alpha)
        else:  # as taash.fairplay.score.verdicts weighs a partnership
            v = verdict(f"{player_id} & {partner_id}", (player_id, partner_id), judged,
                        [o for o in ops if PARTNER_STAT.get(o.game) == "open"], ref, alpha,
                        [o for o in ops if PARTNER_STAT.get(o.game, "fit") == "fit"])
        found = v.as_json()
        weighing = found.pop("deals")  # the deals that weigh most
        evidence: dict[str, object] = {
            **found, "weighing": weighing, "alpha": alpha,
            "deals": deals, "matches": len(picked),
            "min_deals": self.settings.fairplay_min_deals,
            "from": wire.iso(min(r.ended for r in picked)) if picked else None,
            "to": wire.iso(max(r.ended for r in picked)) if picked else None,
            "reference": dict(ref.meta)}
        evidence.pop("name", None)
        evidence.pop("seats", None)
        if partner_id is not None:
            evidence["players"] = [player_id, partner_id]
            evidence["statistic"] = sorted({STATISTICS[PARTNER_STAT.get(r.game, "fit")]
                                            for r in picked})
        now = self.clock()
        if case_id is not None:
            await self.store.refresh(case_id, now, v.p_value, deals, evidence)
            return case_id
        if not v.flagged:
            return None
        case_id = secrets.token_hex(8)
        opened = await self.store.open(case_id, player_id, now, v.p_value, deals, evidence,
                                       partner_id)
        if opened != case_id:  # another instance opened it a moment ago: brought up to date
            await self.store.refresh(opened, now, v.p_value, deals, evidence)
            return opened
        who = (f"player {player_id}" if partner_id is None
               else f"partnership {player_id} & {partner_id}")
        log.info("fair play: %s flagged for review (p = %.3g over %d deals): case %s", who,
                 v.p_value, deals, case_id)
        return case_id
