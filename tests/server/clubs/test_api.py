"""Clubs through the HTTP API (docs/clubs.md): every rule of who may see and do what, on SQLite
and on PostgreSQL: a private club hidden from strangers as if it did not exist, the roles, joins
that change nothing when repeated, a closed club that refuses everything, club tables and club
events for members only."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.events.helpers import T0, Player, Site, event_body, site

pytestmark = pytest.mark.slow  # a server in process per test: one to three seconds each


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str | None:
    """None: SQLite in the test's folder; else the module's PostgreSQL database."""
    return str(request.getfixturevalue("pg_url")) if request.param == "postgres" else None


@pytest.fixture
async def s(db_url: str | None, tmp_path: Path) -> AsyncIterator[Site]:
    async with site(tmp_path, db_url) as it:
        yield it


def unique(word: str) -> str:
    """A name no other test's club or player has (the PostgreSQL database is the module's)."""
    return f"{word} {uuid.uuid4().hex[:8]}"


async def named(s: Site, name: str) -> Player:
    p = await s.player()
    r = await p.http.patch("/api/me", json={"name": name})
    assert r.status_code == 200, r.text
    return p


async def send(p: Player, method: str, path: str, body: Any = None,
               status: int = 200) -> Any:
    r = await p.http.request(method, path, json=body)
    assert r.status_code == status, (method, path, r.text)
    return r.json() if r.content else None


async def club(owner: Player, public: bool = False, name: str = "") -> dict[str, Any]:
    c: dict[str, Any] = await send(owner, "POST", "/api/clubs",
                                   {"name": name or unique("Club"), "public": public}, 201)
    return c


async def test_a_private_club_is_hidden_from_strangers_like_no_club(s: Site) -> None:
    owner, stranger = await s.player(), await s.player()
    c = await club(owner)
    assert c["role"] == "owner" and not c["public"]
    assert [m["player"] for m in c["members"]] == [owner.id]
    gone = (await send(stranger, "GET", "/api/clubs/nosuchclub", status=404))["error"]
    for method, path, body in [
        ("GET", f"/api/clubs/{c['id']}", None),
        ("GET", f"/api/clubs/{c['id']}/leaderboard/court-piece", None),
        ("POST", f"/api/clubs/{c['id']}/join", None),
        ("POST", f"/api/clubs/{c['id']}/join", {"invite": "not-the-token"}),
        ("POST", f"/api/clubs/{c['id']}/invites", {"name": "anyone"}),
        ("POST", f"/api/clubs/{c['id']}/leave", None),
        ("POST", f"/api/clubs/{c['id']}/close", None),
        ("POST", f"/api/clubs/{c['id']}/tables", {"game": "court-piece-2p"}),
        ("POST", f"/api/clubs/{c['id']}/events", event_body()),
        ("DELETE", f"/api/clubs/{c['id']}/members/{owner.id}", None),
        ("PUT", f"/api/clubs/{c['id']}/members/{stranger.id}", {"role": "owner"}),
    ]:
        err = (await send(stranger, method, path, body, 404))["error"]
        assert err["code"] == gone["code"] and err["message"] == gone["message"].replace(
            "nosuchclub", c["id"]), (method, path, err)
    listed = (await stranger.get("/api/clubs", params={"q": c["name"]})).json()
    assert listed["clubs"] == []
    assert [m["player"] for m in (await send(owner, "GET", f"/api/clubs/{c['id']}"))
            ["members"]] == [owner.id]


async def test_joining_by_the_link_is_idempotent_and_a_renewed_link_stops_the_old(
        s: Site) -> None:
    owner, friend, late = await s.player(), await s.player(), await s.player()
    c = await club(owner)
    token = c["invite"]["token"]
    assert c["invite"]["url"] == f"/club/{c['id']}?invite={token}"
    seen = await send(friend, "GET", f"/api/clubs/{c['id']}?invite={token}")
    assert seen["role"] is None and seen["name"] == c["name"] and "invite" not in seen
    first = await send(friend, "POST", f"/api/clubs/{c['id']}/join", {"invite": token})
    again = await send(friend, "POST", f"/api/clubs/{c['id']}/join", {"invite": token})
    assert first["role"] == again["role"] == "member" and "invite" not in first
    assert [m["player"] for m in again["members"]] == [owner.id, friend.id]
    # a member is refused what the owner and admins do
    await send(friend, "POST", f"/api/clubs/{c['id']}/link", status=403)
    renewed = await send(owner, "POST", f"/api/clubs/{c['id']}/link")
    assert renewed["invite"]["token"] != token
    await send(late, "POST", f"/api/clubs/{c['id']}/join", {"invite": token}, 404)
    await send(late, "POST", f"/api/clubs/{c['id']}/join",
               {"invite": renewed["invite"]["token"]})
    mine = await send(late, "GET", "/api/me/clubs")
    assert [(x["id"], x["role"], x["members"]) for x in mine["clubs"]] == [(c["id"], "member",
                                                                           3)]


async def test_inviting_by_name_lets_that_player_see_and_join(s: Site) -> None:
    owner, other = await s.player(), await s.player()
    guest_name = unique("Rafi")
    guest = await named(s, guest_name)
    c = await club(owner)
    await send(guest, "GET", f"/api/clubs/{c['id']}", status=404)
    await send(owner, "POST", f"/api/clubs/{c['id']}/invites", {"name": "nobody " + guest_name},
               404)
    assert (await send(owner, "POST", f"/api/clubs/{c['id']}/invites",
                       {"name": guest_name.upper()})) == {"player": guest.id,
                                                          "state": "invited"}
    seen = await send(guest, "GET", f"/api/clubs/{c['id']}")
    assert seen["invited"] and seen["role"] is None
    assert [x["id"] for x in (await send(guest, "GET", "/api/me/clubs"))["invited"]] == [c["id"]]
    await send(other, "GET", f"/api/clubs/{c['id']}", status=404)  # the invitation is theirs
    await send(guest, "POST", f"/api/clubs/{c['id']}/join")
    assert (await send(guest, "GET", "/api/me/clubs"))["invited"] == []
    assert (await send(owner, "POST", f"/api/clubs/{c['id']}/invites", {"name": guest_name})
            )["state"] == "member"
    # two players of one name: the owner is told to send the link
    twin = unique("Twin")
    await named(s, twin)
    await named(s, twin)
    err = await send(owner, "POST", f"/api/clubs/{c['id']}/invites", {"name": twin}, 409)
    assert "link" in err["error"]["message"]


async def test_roles_who_may_remove_whom_hand_over_leave_and_close(s: Site) -> None:
    owner, admin, a, b = await s.player(), await s.player(), await s.player(), await s.player()
    c = await club(owner, public=True)
    cid = c["id"]
    for p in (admin, a, b):
        await send(p, "POST", f"/api/clubs/{cid}/join")
    await send(a, "PUT", f"/api/clubs/{cid}/members/{b.id}", {"role": "admin"}, 403)
    await send(owner, "PUT", f"/api/clubs/{cid}/members/{admin.id}", {"role": "admin"})
    await send(admin, "PUT", f"/api/clubs/{cid}/members/{a.id}", {"role": "admin"}, 403)
    await send(owner, "PUT", f"/api/clubs/{cid}/members/{admin.id}", {"role": "chief"}, 400)
    await send(a, "DELETE", f"/api/clubs/{cid}/members/{b.id}", status=403)
    await send(admin, "DELETE", f"/api/clubs/{cid}/members/{owner.id}", status=403)
    await send(admin, "DELETE", f"/api/clubs/{cid}/members/{b.id}", status=204)
    await send(admin, "DELETE", f"/api/clubs/{cid}/members/{b.id}", status=404)
    # b may come back to a public club; the owner cannot leave without handing over
    await send(b, "POST", f"/api/clubs/{cid}/join")
    err = await send(owner, "POST", f"/api/clubs/{cid}/leave", status=409)
    assert "hand the club over" in err["error"]["message"]
    await send(admin, "POST", f"/api/clubs/{cid}/close", status=403)
    page = await send(owner, "PUT", f"/api/clubs/{cid}/members/{a.id}", {"role": "owner"})
    roles = {m["player"]: m["role"] for m in page["members"]}
    assert roles == {owner.id: "admin", admin.id: "admin", a.id: "owner", b.id: "member"}
    await send(owner, "POST", f"/api/clubs/{cid}/leave", status=204)
    await send(owner, "POST", f"/api/clubs/{cid}/leave", status=403)  # no longer a member
    # the new owner closes it: everything is refused, to members (409) and others (404)
    closed = await send(a, "POST", f"/api/clubs/{cid}/close")
    assert closed["closed"] is not None and "invite" not in closed
    for p, status in ((a, 409), (b, 409), (owner, 404)):
        for method, path, body in [
            ("POST", f"/api/clubs/{cid}/join", None),
            ("POST", f"/api/clubs/{cid}/invites", {"name": "x"}),
            ("POST", f"/api/clubs/{cid}/tables", {"game": "court-piece-2p"}),
            ("POST", f"/api/clubs/{cid}/link", None),
            ("POST", f"/api/clubs/{cid}/close", None),
            ("PUT", f"/api/clubs/{cid}/members/{b.id}", {"role": "admin"}),
        ]:
            if not (p is owner and method == "POST" and path.endswith("/join")):
                await send(p, method, path, body, status)
    await send(owner, "POST", f"/api/clubs/{cid}/join", status=404)
    assert (await send(b, "GET", f"/api/clubs/{cid}"))["closed"] is not None
    assert (await s.players[0].get("/api/clubs", params={"q": c["name"]})).json()["clubs"] == []


async def test_public_clubs_are_listed_and_searched_by_name(s: Site) -> None:
    owner, visitor = await s.player(), await s.player()
    word = uuid.uuid4().hex[:8]
    big = await club(owner, public=True, name=f"Lahore {word} Sar")
    small = await club(owner, public=True, name=f"Karachi {word}")
    await club(owner, name=f"Secret {word}")
    await send(visitor, "POST", f"/api/clubs/{big['id']}/join")
    found = (await visitor.get("/api/clubs", params={"q": word.upper()})).json()["clubs"]
    assert [(x["id"], x["members"], x["role"]) for x in found] == [
        (big["id"], 2, "member"), (small["id"], 1, None)]
    found = (await visitor.get("/api/clubs", params={"q": f"{word} sar"})).json()["clubs"]
    assert [x["id"] for x in found] == [big["id"]]
    # the search's wildcards are plain characters
    assert all("%" in x["name"] for x in
               (await visitor.get("/api/clubs", params={"q": "%"})).json()["clubs"])
    # a public club's page is open to anyone, its invite link to its owner and admins only;
    # what members do is refused to a visitor who has not joined (403: the club is no secret)
    page = await send(visitor, "GET", f"/api/clubs/{small['id']}")
    assert page["role"] is None and "invite" not in page
    for method, path, body in [
        ("POST", f"/api/clubs/{small['id']}/tables", {"game": "court-piece-2p"}),
        ("POST", f"/api/clubs/{small['id']}/leave", None),
        ("POST", f"/api/clubs/{small['id']}/invites", {"name": "anyone"}),
    ]:
        err = await send(visitor, method, path, body, 403)
        assert "join it first" in err["error"]["message"]
    # without a session, nothing is made
    anon = await s.player()
    anon.http.cookies.clear()
    await send(anon, "POST", "/api/clubs", {"name": unique("Anon")}, 401)
    await send(anon, "POST", f"/api/clubs/{small['id']}/join", status=401)
    for bad in ("", "   ", "x" * 65):
        await send(owner, "POST", "/api/clubs", {"name": bad}, 400)


async def test_club_tables_are_for_members_and_their_results_and_ratings_show(
        s: Site) -> None:
    owner, friend, stranger = await s.player(), await s.player(), await s.player()
    c = await club(owner)
    cid = c["id"]
    await send(friend, "POST", f"/api/clubs/{cid}/join", {"invite": c["invite"]["token"]})
    made = await send(owner, "POST", f"/api/clubs/{cid}/tables",
                      {"game": "court-piece-2p", "options": {"target": 1}, "live": False}, 201)
    tid = made["table"]
    assert made["seat"] == 0 and made["token"]
    await send(owner, "POST", f"/api/clubs/{cid}/tables",
               {"game": "court-piece-2p", "seats": [{"type": "bot"}, {"type": "bot"}]}, 400)
    assert all(t["id"] != tid for t in (await owner.get("/api/lobby")).json())
    await send(stranger, "POST", f"/api/tables/{tid}/join", status=403)  # not open to all
    await send(stranger, "POST", f"/api/clubs/{cid}/tables/{tid}/join", status=404)
    await send(friend, "POST", f"/api/clubs/{cid}/tables/nosuchtable/join", status=404)
    # the owner's seat is theirs: asking again gives it back, and the friend gets seat 1
    assert (await send(owner, "POST", f"/api/clubs/{cid}/tables/{tid}/join"))["seat"] == 0
    sat = await send(friend, "POST", f"/api/clubs/{cid}/tables/{tid}/join")
    assert sat["seat"] == 1 and sat["token"]
    again = await send(friend, "POST", f"/api/clubs/{cid}/tables/{tid}/join")
    assert again["seat"] == 1 and again["token"] is None
    listed = (await send(friend, "GET", f"/api/clubs/{cid}"))["tables"]
    assert [(t["id"], t["free_seats"], [x["player"] for x in t["seats"]]) for t in listed] == [
        (tid, 0, [owner.id, friend.id])]
    await play_out(tid, {0: owner, 1: friend})
    page = await wait_results(friend, cid, tid)
    results = page["tables"][0]["results"]
    assert sorted(results.values()) == [-1, 1]
    for m in page["members"]:
        assert "court-piece-2p" in m["ratings"]
    board = await send(stranger, "GET", f"/api/clubs/{cid}/leaderboard/court-piece-2p",
                       status=404)
    assert board["error"]["code"] == "not_found"
    board = await send(friend, "GET", f"/api/clubs/{cid}/leaderboard/court-piece-2p")
    winner = next(p for p, r in results.items() if r == 1)
    assert board["players"][0]["player"] == winner
    assert [x["rank"] for x in board["players"]] == [1, 2]
    await send(friend, "GET", f"/api/clubs/{cid}/leaderboard/chess", status=400)


async def play_out(tid: str, seats: dict[int, Player]) -> None:
    """Each seat plays its first legal action until the match is over."""
    for _ in range(2000):
        for seat, p in seats.items():
            v = (await p.get(f"/api/tables/{tid}/view?seat={seat}")).json()
            if v.get("over"):
                return
            if v["legal_actions"]:
                r = await p.post(f"/api/tables/{tid}/actions?seat={seat}",
                                 {"action": v["legal_actions"][0], "version": v["version"]})
                assert r.status_code in (200, 409), r.text
    raise AssertionError("the match did not end")


async def wait_results(p: Player, cid: str, tid: str) -> Any:
    for _ in range(300):  # the results are written as the match ends, off the move's path,
        page = await send(p, "GET", f"/api/clubs/{cid}")  # and the ratings after them
        if page["tables"][0]["results"] and all(m["ratings"] for m in page["members"]):
            return page
        await asyncio.sleep(0.05)
    raise AssertionError("the table's results and ratings were not written")


async def test_club_events_are_listed_on_the_club_and_entered_by_members_only(
        s: Site) -> None:
    owner, member, stranger = await s.player(), await s.player(), await s.player()
    c = await club(owner, public=True)
    cid = c["id"]
    await send(member, "POST", f"/api/clubs/{cid}/join")
    await send(member, "POST", f"/api/clubs/{cid}/events", event_body(), 403)
    await send(owner, "POST", f"/api/clubs/{cid}/events", event_body(boards=0), 400)
    e = await send(owner, "POST", f"/api/clubs/{cid}/events", event_body(), 201)
    assert [x["id"] for x in (await send(member, "GET", f"/api/clubs/{cid}"))["events"]] == [
        e["id"]]
    assert e["id"] not in [x["id"] for x in (await send(stranger, "GET", "/api/events"))
                           ["events"]]
    err = await send(stranger, "POST", f"/api/events/{e['id']}/entry", status=403)
    assert "members" in err["error"]["message"]
    entered = await send(member, "POST", f"/api/events/{e['id']}/entry", status=201)
    assert entered["entered"] and entered["opens"] == T0 - 60
    mine = (await send(member, "GET", "/api/events"))["mine"]
    assert [x["id"] for x in mine] == [e["id"]]
    # once the club is closed, its events take no entry, even from its members
    later = await send(owner, "POST", f"/api/clubs/{cid}/events", event_body(), 201)
    await send(owner, "POST", f"/api/clubs/{cid}/close")
    await send(member, "POST", f"/api/events/{later['id']}/entry", status=409)
    await send(owner, "POST", f"/api/clubs/{cid}/events", event_body(), 409)
    # a public event stays listed and open to all
    pub = await send(owner, "POST", "/api/events", event_body(), 201)
    assert pub["id"] in [x["id"] for x in (await send(stranger, "GET", "/api/events"))
                         ["events"]]
    await send(stranger, "POST", f"/api/events/{pub['id']}/entry", status=201)
