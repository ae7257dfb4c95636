"""The events feed of the home page, a board's field and the entrant's review against the best
result with every hand open (and who may see them), and the notices of an event's close
(issue 45)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from taash.review.solver import solve
from taash.server.events.boards import deal_board, first_trick
from taash.server.events.service import Events
from taash.server.store.events import EventStore
from tests.server.events.helpers import T0, event_body, review_kept, site

pytestmark = pytest.mark.slow  # a server in process per test: one to three seconds each


async def test_the_feed_lists_todays_events_with_their_entrants_and_makes_none(
        tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        ann, bob, cat = await s.player(), await s.player(), await s.player()
        feed = await ann.ok("GET", "/api/events/today")
        assert {e["game"] for e in feed} == {"court-piece", "court-piece-2p", "goat"}
        assert all(e["entrants"] == 0 and not e["entered"] for e in feed)
        assert {e["id"] for e in feed} == {f"daily-{g}-20270115"
                                          for g in ("court-piece", "court-piece-2p", "goat")}
        assert all(e["closes"] == 1_800_057_600.0 for e in feed)  # midnight UTC that day
        # reading the feed made no event: the listing is still empty
        assert (await ann.ok("GET", "/api/events"))["events"] == []
        goat = await ann.ok("GET", "/api/events/daily/goat")
        for p in (ann, bob):
            await p.ok("POST", f"/api/events/{goat['id']}/entry", status=201)
        cp = await cat.ok("GET", "/api/events/daily/court-piece")
        await cat.ok("POST", f"/api/events/{cp['id']}/entry", status=201)
        # a host's event is not in the feed (it is in the listing)
        await cat.ok("POST", "/api/events", event_body(), status=201)
        by_game = {e["game"]: e for e in await ann.ok("GET", "/api/events/today")}
        assert [by_game[g]["entrants"] for g in ("goat", "court-piece", "court-piece-2p")] \
            == [2, 1, 0]
        assert by_game["goat"]["entered"] and not by_game["court-piece"]["entered"]
        assert by_game["goat"]["closes"] == goat["closes"]
        # without a session: the counts, nobody's entry
        anon = await s.player()
        anon.http.cookies.clear()
        assert [e["entered"] for e in await anon.ok("GET", "/api/events/today")] == [False] * 3
        # the next day: today's events are new ones
        s.now += 86400
        assert all(e["entrants"] == 0 and e["id"].endswith("20270116")
                   for e in await ann.ok("GET", "/api/events/today"))


async def test_a_boards_field_and_review_only_once_the_asker_has_finished_it(
        tmp_path: Path) -> None:
    # the best result settled whatever the machine's load (two-player Court Piece settles in
    # well under a second): the test compares it with the solver's own answer
    async with site(tmp_path, event_best_time=600.0) as s:
        host, ann, bob, cat = (await s.player(), await s.player(), await s.player(),
                               await s.player())
        ev = await host.ok("POST", "/api/events", event_body(boards=2), status=201)
        eid = ev["id"]
        for p in (ann, bob, cat):
            await p.ok("POST", f"/api/events/{eid}/entry", status=201)
        review = f"/api/events/{eid}/boards/1/review"
        # nobody has finished board 1: no review, no field, for anyone (the host did not
        # enter: not even a board)
        for p in (host, ann, bob):
            assert (await p.get(review)).status_code == 403
            assert (await p.get(f"/api/events/{eid}/boards/1/results")).status_code == 403
        assert (await ann.get(f"/api/events/{eid}/boards/2/review")).status_code == 403
        assert (await ann.get(f"/api/events/{eid}/boards/3/review")).status_code == 404
        assert (await ann.get("/api/events/nope/boards/1/review")).status_code == 404
        anon = await s.player()
        anon.http.cookies.clear()
        assert (await anon.get(review)).status_code == 401
        # three lines: ann and bob play the same (their first legal move each time), cat
        # her last
        a = await ann.play_board(eid, 1, lambda legal: legal[0])
        b = await bob.play_board(eid, 1, lambda legal: legal[0])
        assert a["result"] == b["result"]
        c = await cat.play_board(eid, 1, lambda legal: legal[-1])
        # bob's review: his side's tricks, and the best with every hand open
        mine = await review_kept(bob, s, eid, 1)
        assert mine["unit"] == "tricks" and mine["yours"] == b["result"]["tricks"]
        assert mine["solver"] == "taash" and mine["best"] is not None and mine["proven"]
        assert mine["lower"] == mine["upper"] == mine["best"]
        assert mine["lost"] == max(0, mine["best"] - mine["yours"])
        assert mine["review"] == f"/review?event={eid}&board=1&seat=0"
        # the best, as the solver gives it from the first card after bob's trump call
        store = EventStore(s.services.store)
        row = next(r for r in await store.boards_of(eid, bob.id) if r.board == 1)
        e = await store.get(eid)
        assert e is not None
        state = deal_board(e.game, e.options, eid, 1, e.secret)
        for act in row.actions:
            if not str(act["action"]).startswith("trump:"):
                break
            state.apply(int(str(act["seat"])), str(act["action"]))
        assert mine["opening"] == [str(x["action"]) for x in row.actions
                                   if str(x["action"]).startswith("trump:")]
        assert solve(state, time_limit=10).value == mine["best"]
        # the review is the asker's own: cat's is hers, ann (who finished) sees her own
        cats = await review_kept(cat, s, eid, 1)
        assert cats["yours"] == c["result"]["tricks"]
        # the field: the distribution and the two common lines, counted by hand
        field = await ann.ok("GET", f"/api/events/{eid}/boards/1/results")
        assert field["field"] == 3
        rows = {r.player_id: r for r in await store.finished(eid, 1)}
        lines = Counter(tuple(str(x["action"]) for x in r.actions if x["seat"] == 0)
                        for r in rows.values())
        line, n = lines.most_common(1)[0]
        assert field["common_line"] == list(line) and field["common_line_count"] == n == 2
        assert field["common_line"] == [str(x["action"]) for x in rows[ann.id].actions
                                        if x["seat"] == 0]
        firsts = Counter(first_trick(r.actions, 2) for r in rows.values())
        trick, m = firsts.most_common(1)[0]
        assert field["common_first_trick"] == list(trick) and field["common_first_trick_count"] == m
        assert m >= 2 and len(trick) == 2 and trick[0].split(":")[0] in ("0", "1")
        spread = Counter(r.score for r in rows.values())
        assert sum(d["count"] for d in field["distribution"]) == 3
        assert [d["count"] for d in field["distribution"]] == [spread[k] for k in
                                                               sorted(spread, reverse=True)]
        # the host, who played nothing, sees nothing of it before the close...
        assert (await host.get(f"/api/events/{eid}/boards/1/results")).status_code == 403
        assert (await host.get(review)).status_code == 403
        # ...and after it the field (anyone may) but never a review: he has no board
        s.now = ev["closes"]
        assert (await host.ok("GET", f"/api/events/{eid}/boards/1/results"))["field"] == 3
        assert (await host.get(review)).status_code == 403
        assert (await ann.ok("GET", review))["yours"] == a["result"]["tricks"]


async def test_goat_and_four_player_boards_have_a_review_in_their_own_unit(
        tmp_path: Path) -> None:
    async with site(tmp_path, event_best_time=1.0) as s:
        host, ann = await s.player(), await s.player()
        for game in ("goat", "court-piece"):
            ev = await host.ok("POST", "/api/events", event_body(game=game, boards=1),
                               status=201)
            await ann.ok("POST", f"/api/events/{ev['id']}/entry", status=201)
            done = await ann.play_board(ev["id"], 1, lambda legal: legal[0])
            r = await review_kept(ann, s, ev["id"], 1)
            assert r["lower"] <= r["upper"] and r["proven"] == (r["lower"] == r["upper"])
            # "best" only where the search proved it
            assert r["best"] == (r["lower"] if r["proven"] else None)
            if game == "goat":
                assert r["unit"] == "points" and r["yours"] == done["result"]["points"]
                assert 0 <= r["lower"] <= r["upper"] <= 120 and r["solver"] == "taash"
            else:
                assert r["unit"] == "tricks" and r["yours"] == done["result"]["tricks"]
                assert 0 <= r["lower"] <= r["upper"] <= 7
                assert r["solver"] in ("dds", "taash")


async def test_each_close_is_told_once_to_every_entrant(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        host, ann, bob, cat = (await s.player(), await s.player(), await s.player(),
                               await s.player())
        boards = s.services.event_boards
        early = await host.ok("POST", "/api/events", event_body(boards=1), status=201)
        timed = await host.ok("POST", "/api/events", event_body(boards=1, closes=T0 + 7200),
                              status=201)
        for p in (ann, bob, cat):
            await p.ok("POST", f"/api/events/{early['id']}/entry", status=201)
        await ann.ok("POST", f"/api/events/{timed['id']}/entry", status=201)
        a = await ann.play_board(early["id"], 1, lambda legal: legal[0])
        b = await bob.play_board(early["id"], 1, lambda legal: legal[-1])
        assert await boards.closed_notices() == []  # nothing closed yet
        await host.ok("POST", f"/api/events/{early['id']}/close")
        told = {n.player: n for n in await boards.closed_notices()}
        assert set(told) == {ann.id, bob.id, cat.id}
        assert all(n.event == early["id"] and n.game == "court-piece-2p" and n.field == 2
                   for n in told.values())
        # the standings by hand: two on one board, the better 100%, the other 0 (or both
        # 50% on a tie); cat finished nothing and has no place
        if a["result"]["tricks"] == b["result"]["tricks"]:
            assert (told[ann.id].rank, told[bob.id].rank) == (1, 1)
            assert told[ann.id].percent == told[bob.id].percent == 50.0
        else:
            win, lose = (ann, bob) if a["result"]["tricks"] > b["result"]["tricks"] \
                else (bob, ann)
            assert (told[win.id].rank, told[win.id].percent) == (1, 100.0)
            assert (told[lose.id].rank, told[lose.id].percent) == (2, 0.0)
        assert told[cat.id].rank is None and told[cat.id].percent is None
        # told once: a second sweep (this instance's or another's) finds nothing to tell
        assert await boards.closed_notices() == []
        other = type(boards)(Events(s.services.store, lambda: s.now))
        assert await other.closed_notices() == []
        # an event closed by its time: told at the first sweep after it
        s.now = timed["closes"] - 1
        assert await boards.closed_notices() == []
        s.now = timed["closes"]
        later = await boards.closed_notices()
        assert [(n.player, n.event, n.rank, n.field) for n in later] == \
            [(ann.id, timed["id"], None, 0)]
        assert await boards.closed_notices() == []
