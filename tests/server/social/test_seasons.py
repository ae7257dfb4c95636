"""Seasons (issue 47): each month ranks the players active in it, per game, by their rating
after their last rated match of the month; a month that has ended keeps its podium, shown on
its players' profiles. Results are written into a real SQLite file as finished matches leave
them (``match_results`` with the rating after each), months back, then read over HTTP."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from taash.ratings import Rating
from taash.server.config import Settings
from taash.server.errors import BadRequest
from taash.server.social.seasons import MIN_MATCHES, Seasons, bounds, parse, season_of, shift
from taash.server.store.db import Store
from taash.server.store.seasons import SeasonRow
from tests.server.helpers import Server
from tests.server.social.test_social import Browser


@pytest.fixture
def own(tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    db = tmp_path / "seasons.db"
    srv = Server(f"sqlite+aiosqlite:///{db}", "--bot-delay", "0",
                 log=tmp_path / "server.log").start()
    yield srv, db
    srv.stop()


def results(db: Path, player: str, season: str, ratings: list[tuple[float, float]],
            game: str = "goat", tag: str = "") -> None:
    """Rated matches of ``player`` in ``season``, an hour apart, each with the rating after it."""
    start, _ = bounds(season)
    with sqlite3.connect(db, timeout=10) as conn:
        conn.executemany(
            "INSERT INTO match_results (player_id, table_id, game, seat, result, ended, entry,"
            " mu, sigma) VALUES (?, ?, ?, 0, 1, ?, ?, ?, ?)",
            [(player, f"{tag}{player[:8]}{season}{i}", game, start + 3600 * (i + 1),
              json.dumps({"options": {}, "partners": [], "opponents": []}), mu, sigma)
             for i, (mu, sigma) in enumerate(ratings)])


def test_months_and_their_bounds() -> None:
    assert season_of(bounds("2026-11")[0]) == "2026-11"
    assert season_of(bounds("2026-11")[1] - 0.001) == "2026-11"
    assert season_of(bounds("2026-11")[1]) == "2026-12"
    assert bounds("2026-12")[1] == bounds("2027-01")[0]
    assert shift("2026-12", 1) == "2027-01" and shift("2026-01", -1) == "2025-12"
    assert shift("2026-03", -14) == "2025-01"
    for bad in ("2026-13", "2026-00", "26-11", "2026-1", "november", "1969-12"):
        with pytest.raises(BadRequest):
            parse(bad)


def test_a_month_ranks_its_active_players_and_keeps_its_podium(own: tuple[Server, Path]) -> None:
    srv, db = own
    a, b, c, d, e = (Browser(srv, n) for n in ("Anvar", "Bushra", "Chand", "Dilnoza", "Elham"))
    this = season_of(time.time())
    last, before = shift(this, -1), shift(this, -2)
    settled = 3.0  # a sigma past the provisional bound
    results(db, a.id, last, [(70.0, settled)] * (MIN_MATCHES - 1) + [(80.0, settled)])
    # b's best was earlier in the month: the season counts the rating after the last match
    results(db, b.id, last, [(100.0, settled)] * MIN_MATCHES + [(90.0, settled)])
    results(db, c.id, last, [(120.0, settled)] * (MIN_MATCHES - 1))  # too few matches
    results(db, d.id, last, [(150.0, settled)] * (MIN_MATCHES - 1) + [(150.0, 6.0)])  # provisional
    results(db, a.id, this, [(200.0, settled)])  # the month under way does not count for last
    results(db, a.id, before, [(60.0, 8.0)] * MIN_MATCHES)  # a month before: no one settled
    # results from long ago (a clock at 0 wrote them, or an import): their month closes too,
    # found by one query rather than a month at a time over fifty years
    results(db, e.id, "1971-03", [(50.0, settled)] * MIN_MATCHES)

    season = a.http.get(f"/api/seasons/goat?season={last}").json()
    assert (season["season"], season["closed"], season["min_matches"]) == (last, True, MIN_MATCHES)
    assert (season["previous"], season["next"]) == (before, this)
    assert [(r["rank"], r["player"], r["name"], r["shown"], r["matches"])
            for r in season["rows"]] == [(1, b.id, "Bushra", "5400", MIN_MATCHES + 1),
                                         (2, a.id, "Anvar", "4800", MIN_MATCHES)]
    assert a.http.get(f"/api/seasons/goat?season={before}").json()["rows"] == []

    # the podium is on the profiles: b first, a second; nobody else's
    assert b.http.get(f"/api/players/{b.id}").json()["podiums"] == [
        {"game": "goat", "season": last, "rank": 1, "rating": 5400, "shown": "5400"}]
    assert [(p["season"], p["rank"]) for p in
            a.http.get(f"/api/players/{a.id}").json()["podiums"]] == [(last, 2)]
    for p in (c, d):
        assert a.http.get(f"/api/players/{p.id}").json()["podiums"] == []

    # the month under way: a has one match, not ranked yet; once d has played enough, d is
    current = a.http.get("/api/seasons/goat").json()
    assert (current["season"], current["closed"], current["next"]) == (this, False, None)
    assert a.id not in {r["player"] for r in current["rows"]}
    results(db, d.id, this, [(110.0, settled)] * MIN_MATCHES, tag="now")
    current = a.http.get("/api/seasons/goat").json()
    assert [(r["player"], r["shown"]) for r in current["rows"]] == [(d.id, "6600")]

    # a closed month's podium is kept as it was when the month was closed: a result that
    # appears in it later (only by hand: a match is written when it ends) moves its standings
    # but not its podium, and asking again closes nothing twice
    results(db, c.id, last, [(130.0, settled)], tag="late")
    assert a.http.get(f"/api/seasons/goat?season={last}").json()["rows"][0]["player"] == c.id
    assert a.http.get(f"/api/players/{c.id}").json()["podiums"] == []
    assert len(b.http.get(f"/api/players/{b.id}").json()["podiums"]) == 1
    with sqlite3.connect(db, timeout=10) as conn:
        assert conn.execute("SELECT count(*) FROM season_podiums WHERE season = ?",
                            (last,)).fetchone() == (2,)
        closed = {s for (s,) in conn.execute("SELECT season FROM seasons_closed "
                                             "WHERE game = 'goat'")}
    assert closed == {"1971-03", before, last}  # the months with rated matches
    assert [(p["season"], p["rank"]) for p in
            a.http.get(f"/api/players/{e.id}").json()["podiums"]] == [("1971-03", 1)]

    # other games have their own seasons; bad requests are one clear line
    assert a.http.get(f"/api/seasons/court-piece?season={last}").json()["rows"] == []
    for path, words in ((f"/api/seasons/goat?season={shift(this, 1)}", "has not begun"),
                        ("/api/seasons/goat?season=2026-13", "YYYY-MM"),
                        ("/api/seasons/chess", "unknown game")):
        r = a.http.get(path)
        assert r.status_code == 400 and words in r.json()["error"]["message"], r.text

    # a deleted account leaves the podium
    r = b.send("DELETE", "/api/me", {"confirm": "delete"})
    assert r.status_code == 200, r.text
    with sqlite3.connect(db, timeout=10) as conn:
        assert conn.execute("SELECT rank FROM season_podiums WHERE season = ?",
                            (last,)).fetchall() == [(2,)]
    for x in (a, b, c, d, e):
        x.http.close()


@pytest.mark.postgres
def test_two_instances_close_a_month_once(pg_url: str) -> None:
    """Both instances find last month not closed and close it: the database keeps one
    podium."""
    async def run() -> list[int]:
        store = Store(Settings(db_url=pg_url).resolved_db_url())
        await store.migrate()
        try:
            seasons = Seasons(store)
            game = f"test-{time.time_ns()}"  # a month no earlier run closed
            row = [SeasonRow("p1", "x", Rating(90.0, 3.0), 5)]
            done = await asyncio.gather(*(Seasons(store).store.close(game, "2001-02", row, 1.0)
                                          for _ in range(4)))
            kept = await seasons.store.podiums_of("p1")
            return [*map(int, done), len([p for p in kept if p.game == game])]
        finally:
            await store.close()

    *done, kept = asyncio.run(run())
    assert sorted(done) == [0, 0, 0, 1] and kept == 1
