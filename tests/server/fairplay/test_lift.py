"""A ban from rated play lifted by a moderator, and what a decided player is told, through the
HTTP API (docs/fairplay.md, "In the server"): only moderators lift (401, 403), a lift is
recorded once with who, when and why, the player plays rated again, the results taken out at
the ban stay out and the ratings stay those a replay of the rated history gives; a warned,
banned or lifted player reads a notice once, with nothing of the evidence, the note or the
moderator in it."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from taash.ratings import RatedMatch, Rating, replay
from taash.server.store.fairplay import FairPlayStore, ScanRow
from tests.server.events.helpers import BASE, Player, Site, site
from tests.server.fairplay.helpers import GAME, flagged, moderator, rated_match

pytestmark = pytest.mark.slow  # a server in process per test


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str | None:
    return str(request.getfixturevalue("pg_url")) if request.param == "postgres" else None


@pytest.fixture
async def s(db_url: str | None, tmp_path: Path) -> AsyncIterator[Site]:
    async with site(tmp_path, db_url) as it:
        yield it


async def flagged_again(s: Site, player_id: str) -> str:
    """Twenty more deals of the player, every chance taken, ended after their last decision:
    the case the weighing opens."""
    store = FairPlayStore(s.services.store)
    later = time.time() + 1000
    for d in range(20):
        t = f"again{player_id[:6]}{d}"
        await store.scanned(t, [ScanRow(player_id, t, GAME, later + d, 1, 5,
                                        [(0, 10, GAME, "follow", True)])])
    case = await s.services.fairplay.weigh(player_id)
    assert case is not None
    return case


async def stored(s: Site, player_id: str) -> tuple[float, float, int] | None:
    prof = await s.services.social.store.profile(player_id, 10)
    assert prof is not None
    got = {r.game: (r.rating.mu, r.rating.sigma, r.matches) for r in prof.ratings}
    return got.get(GAME)


def replayed(history: list[RatedMatch], player_id: str) -> tuple[float, float, int] | None:
    done = replay(GAME, history)
    r: Rating | None = done.ratings.get(player_id)
    return None if r is None else (r.mu, r.sigma, done.matches[player_id])


async def rated_lines(p: Player) -> dict[str, bool]:
    hist = await p.ok("GET", f"/api/players/{p.id}/history")
    return {m["table"]: m["rated"] for m in hist["matches"]}


async def test_a_moderator_lifts_a_ban_and_the_ratings_stay_a_replay(s: Site) -> None:
    a, b, c = await s.player(), await s.player(), await s.player()
    t1, t2, t3 = ("l1" + a.id[:6], "l2" + a.id[:6], "l3" + a.id[:6])
    await rated_match(s, t1, [a.id, b.id], 0, 1.0)  # a beats b
    await rated_match(s, t2, [b.id, c.id], 1, 2.0)  # c beats b
    case = await flagged(s, a.id)
    mod = await moderator(s)
    r = await mod.post(f"/api/fairplay/cases/{case}/lift", {"note": "not banned yet"})
    assert r.status_code == 409, r.text  # an open case banned nobody
    await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                 {"decision": "banned", "note": "sees the cards"})
    assert (await a.post("/api/tables", {"game": GAME})).status_code == 403

    # only a moderator lifts: a stranger 401, the banned player and another 403
    stranger = httpx.AsyncClient(transport=s.transport, base_url=BASE, headers={"Origin": BASE})
    try:
        r = await stranger.post(f"/api/fairplay/cases/{case}/lift", json={"note": "x"})
        assert r.status_code == 401, r.text
    finally:
        await stranger.aclose()
    for who in (a, b):
        r = await who.post(f"/api/fairplay/cases/{case}/lift", {"note": "let me play"})
        assert r.status_code == 403 and "moderators" in r.json()["error"]["message"]
    for body, code in [({"note": "  "}, 400), ({}, 400), ({"note": "x" * 2001}, 400)]:
        r = await mod.post(f"/api/fairplay/cases/{case}/lift", body)
        assert r.status_code == code, (body, r.text)
        assert r.json()["error"]["message"]
    r = await mod.post("/api/fairplay/cases/nosuchcase/lift", {"note": "x"})
    assert r.status_code == 404
    assert await s.services.fairplay.banned([a.id]) == {a.id}  # nothing lifted by those

    done = await mod.ok("POST", f"/api/fairplay/cases/{case}/lift",
                        {"note": "a shared screen at a club, explained"})
    assert done["status"] == "banned"  # the decision stays what it was
    lift = done["lift"]
    assert lift["by"] == mod.id and lift["at"] and lift["by_name"]
    assert lift["note"] == "a shared screen at a club, explained"
    got = await mod.ok("GET", f"/api/fairplay/cases/{case}")
    assert got["lift"] == lift
    listed = next(c for c in (await mod.ok("GET", "/api/fairplay/queue"))["decided"]
                  if c["id"] == case)
    assert listed["lifted"] == lift["at"]
    r = await mod.post(f"/api/fairplay/cases/{case}/lift", {"note": "again"})
    assert r.status_code == 409 and "not banned now" in r.json()["error"]["message"]

    # rated play is open again; the match taken out at the ban stays out
    assert await s.services.fairplay.banned([a.id]) == set()
    made = await a.ok("POST", "/api/tables", {"game": GAME}, status=201)
    assert made["id"]
    assert (await rated_lines(b))[t1] is False
    assert await stored(s, a.id) is None  # no rated result left: a starts again from new
    # a new rated match after the lift: every rating is what the rated history replays to
    await rated_match(s, t3, [a.id, b.id], 0, 3.0)  # a beats b again
    history = [RatedMatch(t2, (b.id, c.id), 1), RatedMatch(t3, (a.id, b.id), 0)]
    for p in (a, b, c):
        want = replayed(history, p.id)
        assert want is not None
        assert await stored(s, p.id) == pytest.approx(want, abs=1e-12), p
    assert (await rated_lines(a)) == {t1: False, t3: True}

    # banned again later: t3 leaves too, and the ratings are the replay without both
    again = await flagged_again(s, a.id)
    await mod.ok("POST", f"/api/fairplay/cases/{again}/decision",
                 {"decision": "banned", "note": "again"})
    assert await stored(s, a.id) is None
    for p in (b, c):
        assert await stored(s, p.id) == pytest.approx(
            replayed(history[:1], p.id), abs=1e-12), p


async def test_a_warned_case_has_no_ban_to_lift(s: Site) -> None:
    a = await s.player()
    case = await flagged(s, a.id)
    mod = await moderator(s)
    await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                 {"decision": "warned", "note": "told"})
    r = await mod.post(f"/api/fairplay/cases/{case}/lift", {"note": "x"})
    assert r.status_code == 409 and "no ban to lift" in r.json()["error"]["message"]
    assert (await mod.ok("GET", f"/api/fairplay/cases/{case}"))["lift"] is None


async def test_the_player_is_told_once_and_nothing_of_the_evidence(s: Site) -> None:
    a, other = await s.player(), await s.player()
    assert await a.ok("GET", "/api/me/fairplay") == {"notices": [], "contact": None,
                                                     "banned": False}
    case = await flagged(s, a.id)
    assert (await a.ok("GET", "/api/me/fairplay"))["notices"] == []  # a flag tells nobody
    mod = await moderator(s)
    await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                 {"decision": "warned", "note": "secret-note-xyz: every follow taken"})
    told = await a.ok("GET", "/api/me/fairplay")
    assert [n["kind"] for n in told["notices"]] == ["warned"] and told["banned"] is False
    assert set(told["notices"][0]) == {"id", "kind", "at"}
    text = json.dumps(told)
    for hidden in ("secret-note-xyz", mod.id, case, "p_value", "evidence", "follow"):
        assert hidden not in text, hidden
    assert (await other.ok("GET", "/api/me/fairplay"))["notices"] == []
    notice = told["notices"][0]["id"]
    # only the player can say they read it
    r = await other.post(f"/api/me/fairplay/notices/{notice}/seen")
    assert r.status_code == 404, r.text
    assert len((await a.ok("GET", "/api/me/fairplay"))["notices"]) == 1
    left = await a.ok("POST", f"/api/me/fairplay/notices/{notice}/seen")
    assert left["notices"] == []
    assert (await a.ok("GET", "/api/me/fairplay"))["notices"] == []  # told once
    await a.ok("POST", f"/api/me/fairplay/notices/{notice}/seen")  # read twice: no harm
    stranger = httpx.AsyncClient(transport=s.transport, base_url=BASE, headers={"Origin": BASE})
    try:
        assert (await stranger.get("/api/me/fairplay")).status_code == 401
    finally:
        await stranger.aclose()

    # banned later, then lifted: each told, the newest first, until read
    again = await flagged_again(s, a.id)
    await mod.ok("POST", f"/api/fairplay/cases/{again}/decision",
                 {"decision": "banned", "note": "secret-note-2"})
    told = await a.ok("GET", "/api/me/fairplay")
    assert [n["kind"] for n in told["notices"]] == ["banned"] and told["banned"] is True
    await mod.ok("POST", f"/api/fairplay/cases/{again}/lift", {"note": "secret-note-3"})
    told = await a.ok("GET", "/api/me/fairplay")
    assert [n["kind"] for n in told["notices"]] == ["lifted", "banned"]
    assert told["banned"] is False and "secret-note" not in json.dumps(told)
    for n in told["notices"]:
        await a.ok("POST", f"/api/me/fairplay/notices/{n['id']}/seen")
    assert (await a.ok("GET", "/api/me/fairplay"))["notices"] == []
