"""The fair-play job over finished matches (docs/fairplay.md, "In the server"): records of the
arena's players, each table's record as the server queues it when a match ends (every human seat
with its player's id), scanned by the job's worker process and weighed per player.  A peeker who
always plays the open best card is flagged within 20 deals; honest hard bots, over several
seeds, are not; bots and a player at two seats are never judged."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from taash.fairplay.cheats import Seat, play_records
from taash.server.fairplay.service import Moderators
from taash.server.store.fairplay import FairPlayStore
from tests.server.events.helpers import Player, Site, site
from tests.server.fairplay.helpers import as_table

pytestmark = pytest.mark.slow  # the arena plays, then the detector scans (tens of seconds)

GAME = "court-piece-2p"
DEALS = 20
BUDGET_MS = 50.0  # the reference's bots think this long (counted in work: the same anywhere)


async def feed(s: Site, recs: list[dict[str, Any]], prefix: str,
               players: dict[int, str]) -> list[tuple[int, str | None]]:
    """Queue each record as a finished match and let the job scan it; after each, the deals
    fed so far and the case open for the first player, if any."""
    fp = s.services.fairplay
    store = FairPlayStore(s.services.store)
    out: list[tuple[int, str | None]] = []
    deals = 0
    for i, rec in enumerate(recs):
        await fp.queue(f"{prefix}{i}", GAME, 1000.0 + i, as_table(rec, f"{prefix}{i}", players))
        await fp.drain()  # after the job's own pass, if it took this one first
        assert await store.queued(10) == []
        deals += len(rec["deals"])
        out.append((deals, await store.open_case(players[min(players)])))
    return out


async def test_a_peeker_is_flagged_within_20_deals(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        peeker = await s.player()
        recs = play_records(GAME, {}, [Seat("peeker:1", "P"), Seat("hard", "H")], DEALS, 1,
                            BUDGET_MS)
        assert sum(len(r["deals"]) for r in recs) == DEALS
        seen = await feed(s, recs, "pk", {0: peeker.id})
        scans = await FairPlayStore(s.services.store).scans(peeker.id, 0.0, 100)
        assert seen[-1][1] is not None, (seen, [(r.judged, r.opportunities) for r in scans])
        flagged_at = next(deals for deals, case in seen if case is not None)
        assert flagged_at <= DEALS
        case = seen[-1][1]
        assert case is not None
        mod = await s.player()
        assert await Moderators(s.services.store).grant(mod.id)
        got = await mod.ok("GET", f"/api/fairplay/cases/{case}")
        ev = got["evidence"]
        assert got["player"] == peeker.id and got["status"] == "open"
        assert ev["p_value"] <= s.services.settings.fairplay_alpha
        # p = 1: every opportunity a hit (the peeker's solver and the detector's count
        # positions searched, not seconds, so a loaded machine changes nothing)
        assert ev["opportunities"] > 0 and ev["hits"] == ev["opportunities"]
        assert ev["hits"] > 2 * ev["expected"]
        assert ev["deals"] == DEALS
        assert got["replay"] and {d["table"] for d in got["replay"]} <= {
            f"pk{i}" for i in range(len(recs))}
        # nobody is banned by a flag
        assert await s.services.fairplay.banned([peeker.id]) == set()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_honest_hard_bots_are_not_flagged(tmp_path: Path, seed: int) -> None:
    async with site(tmp_path) as s:
        honest = await s.player()
        recs = play_records(GAME, {}, [Seat("hard", "A"), Seat("hard", "B")], DEALS,
                            100 + seed, BUDGET_MS)
        seen = await feed(s, recs, f"h{seed}-", {0: honest.id})
        assert all(case is None for _, case in seen)
        scans = await FairPlayStore(s.services.store).scans(honest.id, 0.0, 100)
        assert sum(r.deals for r in scans) == DEALS and sum(r.judged for r in scans) > 0


async def test_bots_and_a_player_at_two_seats_are_never_judged(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        p = await s.player()
        rec = play_records(GAME, {}, [Seat("peeker:1", "P"), Seat("random", "R")], 1, 5)[0]
        fp = s.services.fairplay
        await fp.queue("bots", GAME, 1.0, as_table(rec, "bots", {}))
        await fp.queue("twice", GAME, 2.0, as_table(rec, "twice", {0: p.id, 1: p.id}))
        await fp.drain()
        store = FairPlayStore(s.services.store)
        assert await store.queued(10) == []
        assert await store.scans(p.id, 0.0, 10) == []


async def play_out(p: Player, table: str, rng: random.Random,
                   tokens: dict[int, str] | None = None) -> None:
    """The player's seat 0 (by the session) or the seats of ``tokens`` play random legal
    actions until the match is over (a bot moves between)."""
    seats: dict[int, dict[str, str]] = ({s: {"Authorization": f"Bearer {t}"}
                                         for s, t in tokens.items()} if tokens else {0: {}})
    for _ in range(4000):
        moved = False
        for seat, auth in seats.items():
            v = (await p.http.get(f"/api/tables/{table}/view?seat={seat}", headers=auth)).json()
            if v.get("over"):
                return
            if v["legal_actions"]:
                r = await p.http.post(f"/api/tables/{table}/actions?seat={seat}", headers=auth,
                                      json={"action": rng.choice(v["legal_actions"]),
                                            "version": v["version"]})
                assert r.status_code in (200, 409), r.text
                moved = True
        if not moved:
            await asyncio.sleep(0.01)  # the bot's move
    raise AssertionError("the match did not end")


async def ended(s: Site, store: FairPlayStore, player: str, matches: int = 1) -> None:
    """Wait until the hub's match_ended listeners have run for the player's ``matches``th
    match (its history line written, by social's listener beside fair play's)."""
    for _ in range(1000):
        lines = (await s.services.social.history(player, None, 10))["matches"]
        if len(lines) >= matches and (await store.queued(10) or await store.scans(
                player, 0.0, 10) or matches > 1):
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the match's end was not heard")


async def test_a_table_whose_match_ends_is_queued_and_scanned(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        p = await s.player()
        made = await p.ok("POST", "/api/tables", {
            "game": GAME, "options": {"target": 1}, "live": False, "first_seat": 0,
            "seats": [{"type": "human"}, {"type": "bot", "level": "random"}]}, status=201)
        table = made["id"]
        await play_out(p, table, random.Random(3))
        store = FairPlayStore(s.services.store)
        await ended(s, store, p.id)
        await s.services.fairplay.drain()  # the match's end queued it; the job scans it
        assert await store.queued(10) == []
        scans = await store.scans(p.id, 0.0, 10)
        record = await p.ok("GET", f"/api/tables/{table}/record")
        assert [(r.table_id, r.deals) for r in scans] == [(table, len(record["deals"]))]
        assert scans[0].judged > 0  # the player's decisions were judged; the bot's never are
        # a table for pass and play (one device passed round its seats) is not queued at all
        both = await p.ok("POST", "/api/tables", {
            "game": GAME, "options": {"target": 1}, "live": False, "pass_and_play": True,
            "first_seat": 0, "seats": [{"type": "human"}, {"type": "human"}]}, status=201)
        await play_out(p, both["id"], random.Random(4),
                       {x["seat"]: x["token"] for x in both["seats"]})
        await ended(s, store, p.id, 2)  # its results are written: the match's end was heard
        await s.services.fairplay.drain()
        assert [r.table_id for r in await store.scans(p.id, 0.0, 10)] == [table]
