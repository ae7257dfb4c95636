"""A board's best result from the first card (issue 45, docs/events.md "your deal review
against the best result"): searched in a worker process once per board and trump call, for
Goat and double sar too, kept in the store (a second ask, another entrant, another instance or
a restart searches nothing again), labelled proven or not, and shown to nobody who has not
finished the board."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from taash.server.events.best import BestResults, best_key
from taash.server.events.boards import opening_actions
from taash.server.store.event_best import EventBestStore
from taash.server.store.events import EventStore
from tests.server.events.helpers import event_body, review_kept, site

pytestmark = pytest.mark.slow  # servers in process, and worker processes that search

GAMES = {"goat": {}, "court-piece": {"sar": "double"}}


async def test_goat_and_double_sar_best_results_are_searched_once_kept_and_survive_a_restart(
        tmp_path: Path) -> None:
    kept: dict[str, dict[str, object]] = {}
    async with site(tmp_path, event_best_time=1.0) as s:
        host, ann, bob = await s.player(), await s.player(), await s.player()
        best = s.services.event_boards.best
        events = {}
        for game, options in GAMES.items():
            ev = await host.ok("POST", "/api/events",
                               event_body(game=game, boards=1, options=options), status=201)
            events[game] = ev["id"]
            for p in (ann, bob):
                await p.ok("POST", f"/api/events/{ev['id']}/entry", status=201)
            await ann.play_board(ev["id"], 1, lambda legal: legal[0])
        # bob has reached each board but not finished it: its best result is searched (ann
        # finished it), and still hidden from him
        for eid in events.values():
            assert (await bob.get(f"/api/events/{eid}/boards/1/review")).status_code == 403
        for game, eid in events.items():
            r = await review_kept(ann, s, eid, 1)
            assert r["solver"] == "taash" and r["budget"] == 1.0
            assert r["lower"] <= r["upper"] and r["proven"] == (r["lower"] == r["upper"])
            assert r["best"] == (r["lower"] if r["proven"] else None)  # a bound is no "best"
            assert r["lost"] == (max(0, r["best"] - r["yours"]) if r["proven"] else None)
            assert r["unit"] == ("points" if game == "goat" else "tricks")
            # the range the search began with: the pack's points, the deal's 13 tricks
            assert r["upper"] <= r["most"] == (120 if game == "goat" else 13)
            kept[game] = r
        assert best.runs == 2  # one search per board and trump call
        # as kept in the store
        store, bests = EventStore(s.services.store), EventBestStore(s.services.store)
        for game, eid in events.items():
            row = next(iter(await store.boards_of(eid, ann.id)))
            got = await bests.get(best_key(eid, 1, opening_actions(row.actions)))
            assert got is not None and got.done is not None and got.seconds is not None
            assert (got.lower, got.upper, got.proven, got.seconds) == (
                kept[game]["lower"], kept[game]["upper"], kept[game]["proven"],
                kept[game]["seconds"])
        # asked again, and by bob once he has played the same line: nothing searched again
        for game, eid in events.items():
            assert await ann.ok("GET", f"/api/events/{eid}/boards/1/review") == kept[game]
            await bob.play_board(eid, 1, lambda legal: legal[0])
            assert await bob.ok("GET", f"/api/events/{eid}/boards/1/review") == kept[game]
        await best.settled()
        assert best.runs == 2
        jar, ann_id = dict(ann.http.cookies), ann.id
    async with site(tmp_path, event_best_time=1.0) as s:  # the same database, restarted
        ann = await s.player()
        ann.http.cookies.clear()
        ann.http.cookies.update(jar)
        ann.id = ann_id
        for game, eid in events.items():
            assert await ann.ok("GET", f"/api/events/{eid}/boards/1/review") == kept[game]
        assert s.services.event_boards.best.runs == 0


async def test_one_instance_searches_and_a_stopped_ones_claim_is_taken_over(
        tmp_path: Path) -> None:
    async with site(tmp_path, event_best_time=0.5) as s:
        host, ann = await s.player(), await s.player()
        ev = await host.ok("POST", "/api/events", event_body(game="goat", boards=2),
                           status=201)
        await ann.ok("POST", f"/api/events/{ev['id']}/entry", status=201)
        e = await EventStore(s.services.store).get(ev["id"])
        assert e is not None
        # two instances asked for board 1's at once: one claims and searches it
        one, two = (BestResults(s.services.store, budget=0.5),
                    BestResults(s.services.store, budget=0.5))
        try:
            rows = await asyncio.gather(one.get(e, 1, ()), two.get(e, 1, ()))
            owners = {r.owner for r in rows if r is not None}
            assert len(rows) == 2 and owners in ({one.instance}, {two.instance})
            await asyncio.gather(one.settled(), two.settled())
            assert one.runs + two.runs == 1
            done = await two.get(e, 1, ())
            assert done is not None and done.done is not None
            assert await one.get(e, 1, ()) == done
            # board 2's claim held by an instance that stopped (its lease run out, no result):
            # the next instance to ask takes it over and searches it
            k = best_key(e.id, 2, ())
            bests = EventBestStore(s.services.store)
            assert await bests.claim(k, "gone", 0.0, 1.0, 0.5)
            assert not await bests.claim(k, "other", 0.5, 10.0, 0.5)  # still held then
            before = one.runs
            row = await one.get(e, 2, ())
            assert row is not None and row.owner == one.instance
            await one.settled()
            after = await bests.get(k)
            assert after is not None and after.done is not None and one.runs == before + 1
        finally:
            await one.close()
            await two.close()
