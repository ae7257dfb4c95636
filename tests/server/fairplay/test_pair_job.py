"""The fair-play job over four-player matches (docs/fairplay.md, "Partnerships in the
server"): the arena's colluding partnership (two seats that see each other's hands) at tables
with an honest partnership of hard bots, every seat a player's, each record queued as the
server queues a finished match, scanned by the job's worker and weighed per player and per
partnership.  The colluders get exactly one case, for the two of them; the honest partnership
none; a side with a bot, or one player at both seats of a side, is never scored."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from taash.fairplay.cheats import Seat, play_records
from taash.server.store.fairplay import FairPlayStore
from taash.server.store.fairplay_pairs import pair_key
from taash.server.store.fairplay_schema import fairplay_cases, fairplay_pair_scans
from tests.server.events.helpers import site
from tests.server.fairplay.helpers import as_table, moderator

pytestmark = pytest.mark.slow  # the arena plays four-player deals, then the detector scans

GAME = "court-piece"
DEALS = 8  # flagged at these few deals only because the window's minimum is set to them
BUDGET_MS = 50.0  # the reference's bots think this long (counted in work: the same anywhere)


@pytest.mark.timeout(900)
async def test_a_colluding_partnership_gets_one_case_and_honest_partners_none(
        tmp_path: Path) -> None:
    async with site(tmp_path, fairplay_min_deals=DEALS) as s:
        cora, hana, cyrus, hugo = [await s.player() for _ in range(4)]
        seats = [Seat("colluder", "Cora"), Seat("hard", "Hana"), Seat("colluder", "Cyrus"),
                 Seat("hard~0.1", "Hugo")]
        recs = play_records(GAME, None, seats, DEALS, 5, budget_ms=BUDGET_MS)
        assert sum(len(r["deals"]) for r in recs) == DEALS
        players = {0: cora.id, 1: hana.id, 2: cyrus.id, 3: hugo.id}
        fp = s.services.fairplay
        store = FairPlayStore(s.services.store)
        for i, rec in enumerate(recs):
            await fp.queue(f"cl{i}", GAME, 1000.0 + i, as_table(rec, f"cl{i}", players))
            await fp.drain()
        assert await store.queued(10) == []
        cheats, honest = pair_key(cora.id, cyrus.id), pair_key(hana.id, hugo.id)
        for pair in (cheats, honest):  # both partnerships scanned over every deal
            rows = await store.pair_scans(*pair, 0.0, 100)
            assert sum(r.deals for r in rows) == DEALS
        case = await store.open_case(*cheats)
        assert case is not None, [r.opportunities for r in
                                  await store.pair_scans(*cheats, 0.0, 100)]
        assert await store.open_case(*honest) is None
        async with s.services.store.engine.connect() as conn:
            cases = [(r.player_id, r.partner_id) for r in await conn.execute(
                select(fairplay_cases))]
        assert cases.count(cheats) == 1 and honest not in cases
        assert await fp.weigh_pair(cyrus.id, cora.id) == case  # again: the same case
        mod = await moderator(s)
        got = await mod.ok("GET", f"/api/fairplay/cases/{case}")
        ev = got["evidence"]
        assert (got["player"], got["partner"]) == cheats and got["status"] == "open"
        assert ev["players"] == list(cheats) and ev["statistic"] == ["partner-fit"]
        assert ev["p_value"] <= s.services.settings.fairplay_alpha
        assert all(k.startswith("partner:") for k in ev["kinds"])
        assert ev["hits"] > 2 * ev["expected"] and ev["deals"] == DEALS
        assert got["replay"] and {d["table"] for d in got["replay"]} <= {
            f"cl{i}" for i in range(len(recs))}
        # nobody is banned by a flag
        assert await fp.banned(list(players.values())) == set()


async def test_a_side_with_a_bot_or_one_player_at_both_seats_is_not_scored(
        tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        a, b, c = await s.player(), await s.player(), await s.player()
        rec = play_records(GAME, None, [Seat("random", "A"), Seat("random", "B"),
                                        Seat("random", "C"), Seat("random", "D")], 1, 5)[0]
        fp = s.services.fairplay
        # a and c partners; b's partner a bot
        await fp.queue("mixed", GAME, 1.0, as_table(rec, "mixed", {0: a.id, 1: b.id, 2: c.id}))
        # b at both seats of a side: b is not judged there, nor is a side of b's
        await fp.queue("twice", GAME, 2.0, as_table(rec, "twice", {0: b.id, 2: b.id,
                                                                    1: a.id, 3: c.id}))
        await fp.drain()
        store = FairPlayStore(s.services.store)
        assert await store.queued(10) == []
        async with s.services.store.engine.connect() as conn:
            rows = [(r.table_id, r.player_id, r.partner_id) for r in await conn.execute(
                select(fairplay_pair_scans))]
        assert rows == [("mixed", *pair_key(a.id, c.id)), ("twice", *pair_key(a.id, c.id))]
        assert [r.table_id for r in await store.scans(b.id, 0.0, 10)] == ["mixed"]
