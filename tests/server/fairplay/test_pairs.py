"""A partnership's case through the HTTP API (docs/fairplay.md, "Partnerships in the
server"): two players flagged as partners get one case of two, which only moderators see (401,
403 on every route); its evidence names both players and the partnership's statistic; its
decision is recorded once, with who and when, and warns or bans both players, or the one the
moderator names, each told as a player's case tells them; lifting its ban lifts it for the
players it banned."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from taash.server.store.fairplay_pairs import pair_key
from tests.server.events.helpers import BASE, Player, Site, site
from tests.server.fairplay.helpers import GAME, flagged, flagged_pair, moderator

pytestmark = pytest.mark.slow  # a server in process per test


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str | None:
    return str(request.getfixturevalue("pg_url")) if request.param == "postgres" else None


@pytest.fixture
async def s(db_url: str | None, tmp_path: Path) -> AsyncIterator[Site]:
    async with site(tmp_path, db_url) as it:
        yield it


ROUTES = [("GET", "/api/fairplay/queue", None),
          ("GET", "/api/fairplay/cases/{case}", None),
          ("POST", "/api/fairplay/cases/{case}/decision", {"decision": "banned", "note": "x"}),
          ("POST", "/api/fairplay/cases/{case}/lift", {"note": "x"})]


async def told(p: Player) -> list[str]:
    return [n["kind"] for n in (await p.ok("GET", "/api/me/fairplay"))["notices"]]


async def test_only_moderators_see_a_partnership_case(s: Site) -> None:
    a, b, other = await s.player(), await s.player(), await s.player()
    case = await flagged_pair(s, a.id, b.id)
    stranger = httpx.AsyncClient(transport=s.transport, base_url=BASE, headers={"Origin": BASE})
    try:
        for method, path, body in ROUTES:
            r = await stranger.request(method, path.format(case=case), json=body)
            assert r.status_code == 401, (path, r.text)
            for who in (a, b, other):
                r = await who.http.request(method, path.format(case=case), json=body)
                assert r.status_code == 403, (path, r.text)
                assert "moderators" in r.json()["error"]["message"]
    finally:
        await stranger.aclose()
    # nothing decided, nobody banned by the flag, nobody told
    assert await s.services.fairplay.banned([a.id, b.id]) == set()
    assert await told(a) == [] and await told(b) == []
    # weighed again (either order of the two), the same case; a player's own case is apart
    assert await s.services.fairplay.weigh_pair(b.id, a.id) == case
    assert await s.services.fairplay.weigh(a.id) is None


async def test_a_moderator_reads_a_partnership_case_and_bans_one_of_the_two(s: Site) -> None:
    a, b, other = await s.player(), await s.player(), await s.player()
    one, two = pair_key(a.id, b.id)
    case = await flagged_pair(s, a.id, b.id)
    mod = await moderator(s)
    q = await mod.ok("GET", "/api/fairplay/queue")  # (PostgreSQL: other tests' cases too)
    listed = next(c for c in q["open"] if c["id"] == case)
    assert (listed["player"], listed["partner"]) == (one, two)
    assert listed["partner_profile"] == f"/p/{two}" and listed["partner_name"]
    assert listed["deals"] == 20 and listed["p_value"] <= 0.001
    got = await mod.ok("GET", f"/api/fairplay/cases/{case}")
    ev = got["evidence"]
    assert ev["players"] == [one, two] and ev["statistic"] == ["partner-fit"]
    assert ev["opportunities"] == 20 and ev["hits"] == 20 and ev["flagged"]
    assert ev["kinds"]["partner:follow"]["hits"] == 20 and ev["deals"] == 20
    assert got["replay"] and all(d["replay"] == f"/review?table={d['table']}&deal={d['deal']}"
                                 for d in got["replay"])
    assert got["decision"] is None
    # bad decisions change nothing: a player who is not of the partnership, nobody
    for players in ([other.id], [], [a.id, other.id]):
        r = await mod.post(f"/api/fairplay/cases/{case}/decision",
                           {"decision": "banned", "note": "x", "players": players})
        assert r.status_code in (400, 422), (players, r.text)
    # ``players`` belongs to a partnership's case only
    single = await flagged(s, other.id)
    r = await mod.post(f"/api/fairplay/cases/{single}/decision",
                       {"decision": "warned", "note": "x", "players": [other.id]})
    assert r.status_code == 400, r.text
    done = await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                        {"decision": "banned", "note": "a's play fits b's hand", "players": [a.id]})
    d = done["decision"]
    assert done["status"] == "banned" and d["by"] == mod.id and d["at"]
    assert d["players"] == [a.id] and d["note"] == "a's play fits b's hand"
    r = await mod.post(f"/api/fairplay/cases/{case}/decision",
                       {"decision": "cleared", "note": "changed my mind"})
    assert r.status_code == 409 and "decided already" in r.json()["error"]["message"]
    assert await s.services.fairplay.banned([a.id, b.id]) == {a.id}
    assert await told(a) == ["banned"] and await told(b) == []
    r = await a.post("/api/tables", {"game": GAME})
    assert r.status_code == 403 and "banned from rated play" in r.json()["error"]["message"]
    assert (await b.post("/api/tables", {"game": GAME})).status_code == 201
    # the same deals open no new case: only deals after the decision count
    assert await s.services.fairplay.weigh_pair(a.id, b.id) is None
    q = await mod.ok("GET", "/api/fairplay/queue")
    assert case in [c["id"] for c in q["decided"]]
    # the lift: the ban of the player it banned, once
    lifted = await mod.ok("POST", f"/api/fairplay/cases/{case}/lift",
                          {"note": "a second look: b called the plays aloud"})
    assert lifted["lift"]["player"] == a.id and lifted["lift"]["by"] == mod.id
    assert await s.services.fairplay.banned([a.id, b.id]) == set()
    assert await told(a) == ["lifted", "banned"] and await told(b) == []
    r = await mod.post(f"/api/fairplay/cases/{case}/lift", {"note": "again"})
    assert r.status_code == 409


async def test_a_partnership_warned_tells_both_players(s: Site) -> None:
    a, b = await s.player(), await s.player()
    case = await flagged_pair(s, a.id, b.id)
    mod = await moderator(s)
    done = await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                        {"decision": "warned", "note": "told them both"})
    assert sorted(done["decision"]["players"]) == sorted([a.id, b.id])
    assert await told(a) == ["warned"] and await told(b) == ["warned"]
    assert await s.services.fairplay.banned([a.id, b.id]) == set()
    r = await mod.post(f"/api/fairplay/cases/{case}/lift", {"note": "nothing to lift"})
    assert r.status_code == 409
    # what they are told holds nothing of the evidence, the note or the moderator
    seen = await a.ok("GET", "/api/me/fairplay")
    assert "told them both" not in str(seen) and mod.id not in str(seen)
