"""Fair play through the HTTP API (docs/fairplay.md, "In the server"): only moderators see the
queue and decide (a stranger 401, a player 403 on every route), a decision is recorded once
with who and when, and a ban from rated play keeps the player from rated tables and takes their
rated results out of the ratings, their opponents' replayed without them as worked by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from openskill.models import PlackettLuce

from taash.ratings import NEW, bot_rating
from tests.server.events.helpers import BASE, Site, site
from tests.server.fairplay.helpers import GAME, flagged, moderator, rated_match, ratings_of

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


async def test_only_moderators_see_the_queue_and_decide(s: Site) -> None:
    suspect, player = await s.player(), await s.player()
    case = await flagged(s, suspect.id)
    stranger = httpx.AsyncClient(transport=s.transport, base_url=BASE, headers={"Origin": BASE})
    try:
        for method, path, body in ROUTES:
            r = await stranger.request(method, path.format(case=case), json=body)
            assert r.status_code == 401, (path, r.text)
            for who in (player, suspect):
                r = await who.http.request(method, path.format(case=case), json=body)
                assert r.status_code == 403, (path, r.text)
                assert "moderators" in r.json()["error"]["message"]
    finally:
        await stranger.aclose()
    # nothing was decided by those refusals, and nobody was banned by the flag itself
    assert (await s.services.fairplay.banned([suspect.id])) == set()
    r = await suspect.http.post("/api/tables", json={"game": GAME})
    assert r.status_code == 201, r.text


async def test_a_moderator_reads_the_evidence_and_decides_once(s: Site) -> None:
    suspect, honest = await s.player(), await s.player()
    case = await flagged(s, suspect.id)
    assert await s.services.fairplay.weigh(honest.id) is None  # no deals: no case
    mod = await moderator(s)
    q = await mod.ok("GET", "/api/fairplay/queue")  # (PostgreSQL: other tests' cases too)
    assert case in [c["id"] for c in q["open"]]
    assert case not in [c["id"] for c in q["decided"]]
    listed = next(c for c in q["open"] if c["id"] == case)
    assert listed["player"] == suspect.id and listed["status"] == "open"
    assert listed["deals"] == 20 and listed["p_value"] <= 0.001 and listed["score"] >= 3
    got = await mod.ok("GET", f"/api/fairplay/cases/{case}")
    ev = got["evidence"]
    assert ev["opportunities"] == 20 and ev["hits"] == 20 and ev["flagged"]
    assert ev["deals"] == 20 and ev["matches"] == 20 and ev["kinds"]["follow"]["hits"] == 20
    assert got["replay"] and all(d["replay"] == f"/review?table={d['table']}&deal={d['deal']}"
                                 for d in got["replay"])
    assert got["decision"] is None
    # bad decisions are refused with a reason, and change nothing
    for body, code in [({"decision": "shot", "note": "x"}, 400),
                       ({"decision": "warned", "note": "   "}, 400),
                       ({"decision": "warned"}, 400),
                       ({"decision": "warned", "note": "x" * 2001}, 400)]:
        r = await mod.post(f"/api/fairplay/cases/{case}/decision", body)
        assert r.status_code == code, (body, r.text)
        assert r.json()["error"]["message"]
    r = await mod.post("/api/fairplay/cases/nosuchcase/decision",
                       {"decision": "warned", "note": "x"})
    assert r.status_code == 404
    done = await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                        {"decision": "warned", "note": "hits in every follow: told them"})
    d = done["decision"]
    assert done["status"] == "warned"
    assert d["decision"] == "warned" and d["by"] == mod.id and d["at"]
    assert d["note"] == "hits in every follow: told them"
    r = await mod.post(f"/api/fairplay/cases/{case}/decision",
                       {"decision": "banned", "note": "changed my mind"})
    assert r.status_code == 409 and "decided already" in r.json()["error"]["message"]
    q = await mod.ok("GET", "/api/fairplay/queue")
    assert case not in [c["id"] for c in q["open"]]
    assert case in [c["id"] for c in q["decided"]]
    # warned is not banned: they still play rated
    assert (await s.services.fairplay.banned([suspect.id])) == set()
    # the same deals do not open a new case: only deals after the decision count
    assert await s.services.fairplay.weigh(suspect.id) is None


def _direct(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[tuple[float,
                                                                                        float]]:
    m = PlackettLuce()
    out = m.rate([[m.rating(mu=mu, sigma=sg) for mu, sg in t] for t in teams], ranks=ranks)
    return [(t[0].mu, t[0].sigma) for t in out]


async def test_a_ban_removes_rated_results_and_replays_the_opponents(s: Site) -> None:
    a, b, c = await s.player(), await s.player(), await s.player()
    hard = bot_rating(GAME, "hard")
    assert hard is not None
    # c's table against the hard bot: its seats say which bot sat there
    r = await c.http.post("/api/tables", json={
        "game": GAME, "seats": [{"type": "human"}, {"type": "bot", "level": "hard"}]})
    assert r.status_code == 201, r.text
    t4 = r.json()["id"]
    await rated_match(s, "t1" + a.id[:6], [a.id, b.id], 0, 1.0)   # a beats b
    await rated_match(s, "t2" + a.id[:6], [b.id, c.id], 1, 2.0)   # c beats b
    await rated_match(s, "t3" + a.id[:6], [a.id, c.id], None, 3.0)  # a and c draw
    await rated_match(s, t4, [c.id, hard], 1, 4.0)                # the hard bot beats c
    before = {p.id: ratings_of(await p.ok("GET", f"/api/players/{p.id}")) for p in (a, b, c)}
    assert [before[p.id]["matches"] for p in (a, b, c)] == [2, 2, 3]

    case = await flagged(s, a.id)
    mod = await moderator(s)
    done = await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                        {"decision": "banned", "note": "sees the cards"})
    assert done["status"] == "banned" and done["decision"]["by"] == mod.id

    # by hand: without a's matches, t2 (c beats b, both new) then t4 (the bot beats c)
    n = (NEW.mu, NEW.sigma)
    b2, c2 = _direct([[n], [n]], [2, 1])
    c4, _ = _direct([[c2], [(hard.mu, hard.sigma)]], [2, 1])
    after = {p.id: (await p.ok("GET", f"/api/players/{p.id}")) for p in (a, b, c)}
    assert ratings_of(after[a.id]) is None  # no rated result left
    rb, rc = ratings_of(after[b.id]), ratings_of(after[c.id])
    assert rb["matches"] == 1 and rc["matches"] == 2
    assert rb["rating"] == round(60 * b2[0]) and rb["deviation"] == round(60 * b2[1])
    assert rc["rating"] == round(60 * c4[0]) and rc["deviation"] == round(60 * c4[1])
    kept = await s.services.social.store.profile(c.id, 10)
    assert kept is not None
    exact = {r.game: r.rating for r in kept.ratings}[GAME]
    assert (exact.mu, exact.sigma) == pytest.approx(c4, abs=1e-12)
    # the matches with a are unrated for everyone who played them
    lines = {m["table"]: m for m in (await b.ok("GET", f"/api/players/{b.id}/history"))[
        "matches"]}
    assert lines["t1" + a.id[:6]]["rated"] is False and lines["t2" + a.id[:6]]["rated"] is True
    hist_c = {m["table"]: m for m in (await c.ok("GET", f"/api/players/{c.id}/history"))[
        "matches"]}
    assert hist_c["t3" + a.id[:6]]["rated"] is False
    assert hist_c[t4]["rating_after"]["rating"] == rc["rating"]


async def test_a_banned_player_cannot_sit_at_a_rated_table(s: Site) -> None:
    a, b = await s.player(), await s.player()
    case = await flagged(s, a.id)
    mod = await moderator(s)
    open_table = (await b.ok("POST", "/api/tables", {"game": GAME, "open": True}, status=201))
    await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                 {"decision": "banned", "note": "sees the cards"})
    for path, body in [("/api/tables", {"game": GAME}),
                       ("/api/tables", {"game": GAME, "seats": [
                           {"type": "human"}, {"type": "bot", "level": "hard"}]}),
                       (f"/api/tables/{open_table['id']}/join", {})]:
        r = await a.post(path, body)
        assert r.status_code == 403, (path, r.text)
        assert "banned from rated play" in r.json()["error"]["message"]
    # unrated play stays open to them: a table for pass and play
    r = await a.post("/api/tables", {"game": GAME, "pass_and_play": True})
    assert r.status_code == 201, r.text
    # and a player who was never banned plays on
    r = await b.post("/api/tables", {"game": GAME})
    assert r.status_code == 201, r.text


async def test_a_team_match_is_replayed_with_its_bots_on_their_sides(s: Site) -> None:
    """Four-player Court Piece: c and d, each with a bot partner, keep their rated match
    when a (who played c apart) is banned; it is replayed as openskill rates the two teams."""
    a, c, d = await s.player(), await s.player(), await s.player()
    four = "court-piece"
    hard, easy = bot_rating(four, "hard"), bot_rating(four, "easy")
    assert hard is not None and easy is not None
    r = await c.http.post("/api/tables", json={"game": four, "seats": [
        {"type": "human"}, {"type": "human"}, {"type": "bot", "level": "hard"},
        {"type": "bot", "level": "easy"}]})
    assert r.status_code == 201, r.text
    team = r.json()["id"]
    await rated_match(s, "x1" + a.id[:6], [a.id, c.id], 0, 1.0)  # a beats c (two-player)
    # c (seat 0) with the hard bot (seat 2) beat d (seat 1) with the easy bot (seat 3)
    await rated_match(s, team, [c.id, d.id, hard, easy], 0, 2.0, four)
    case = await flagged(s, a.id)
    mod = await moderator(s)
    await mod.ok("POST", f"/api/fairplay/cases/{case}/decision",
                 {"decision": "banned", "note": "sees the cards"})
    m = PlackettLuce()
    (cw, _), (dl, _) = m.rate([[m.rating(), m.rating(mu=hard.mu, sigma=hard.sigma)],
                               [m.rating(), m.rating(mu=easy.mu, sigma=easy.sigma)]],
                              ranks=[1, 2])
    for p, want in ((c, cw), (d, dl)):
        prof = await s.services.social.store.profile(p.id, 1)
        assert prof is not None
        rated = {x.game: (x.rating, x.matches) for x in prof.ratings}
        assert set(rated) == {four}  # c's two-player rating went with a's match
        assert (rated[four][0].mu, rated[four][0].sigma) == pytest.approx(
            (want.mu, want.sigma), abs=1e-12)
        assert rated[four][1] == 1
