"""Offline matches brought home (issue 46): ``POST /api/me/records`` keeps a record that
``taash record verify`` accepts, once, in the player's history and stats, offline and unrated;
every record it refuses is refused with the command's words and exit code, and changes nothing.
On SQLite and on PostgreSQL, in process (the app over ASGI, the services started as
``taash serve`` starts them)."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from taash.cli import app as cli_app
from taash.games import CourtPiece, CourtPiece2P, Goat, game_class
from taash.offline import Engine
from taash.record import random_record

BASE = "http://t"
ORIGIN = {"Origin": BASE}

# a short finished match of each game: its options and the bots' level
SHORT = {CourtPiece.game_id: {"session_end": {"deals": 1}},
         CourtPiece2P.game_id: {"target": 1},
         Goat.game_id: {"target": 1}}


def offline_match(game: str, seed: int = 5, level: str = "random") -> dict[str, Any]:
    """The record of a whole match the offline engine plays with ``level`` bots at every seat,
    as the page's worker would keep it."""
    e = Engine()
    m = e.handle({"op": "new", "game": game, "options": SHORT[game], "seed": seed})
    assert "error" not in m, m
    match = m["match"]
    while True:
        at = e.handle({"op": "actors", "match": match})
        if at["over"]:
            break
        seat = at["actors"][0]
        move = e.handle({"op": "bot", "match": match, "seat": seat, "level": level})
        done = e.handle({"op": "apply", "match": match, "seat": seat, "action": move["action"]})
        assert "error" not in done, done
    rec: dict[str, Any] = e.handle({"op": "record", "match": match})["record"]
    return rec


@asynccontextmanager
async def served(db_url: str, **settings_given: Any) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app over ``db_url``, with a guest's session cookie."""
    async with serving(db_url, **settings_given) as (c, _):
        yield c


@asynccontextmanager
async def serving(db_url: str, **settings_given: Any) -> AsyncIterator[tuple[
        httpx.AsyncClient, Any]]:
    """The client of ``served`` and the app's services (``taash.server.app.Services``)."""
    from taash.server.app import Services, create_app
    from taash.server.config import Settings
    from taash.server.store.db import Store

    settings = Settings(db_url=db_url, sweep_s=60, **settings_given)
    store = Store(settings.resolved_db_url())
    await store.migrate()
    services = Services(settings, store)
    await services.start()
    transport = httpx.ASGITransport(app=create_app(settings, services=services))
    try:
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
            assert (await c.get("/api/me")).status_code == 200
            yield c, services
    finally:
        await services.close()
        await store.close()


async def me(c: httpx.AsyncClient) -> str:
    r = await c.get("/api/me")
    pid: str = r.json()["id"]
    return pid


async def kept(c: httpx.AsyncClient) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The player's history lines and profile."""
    pid = await me(c)
    history = (await c.get(f"/api/players/{pid}/history")).json()["matches"]
    profile = (await c.get(f"/api/players/{pid}")).json()
    return history, profile


def post(c: httpx.AsyncClient, body: Any, **kw: Any) -> Any:
    return c.post("/api/me/records", json=body, headers=ORIGIN, **kw)


async def upload_twice(c: httpx.AsyncClient, services: Any, game: str) -> None:
    from taash.server.store.schema import ratings

    rec = offline_match(game)
    seat = 1
    async with services.store.engine.begin() as conn:  # a rating from matches played online
        await conn.execute(ratings.insert().values(player_id=await me(c), game=game, mu=30.0,
                                                   sigma=4.0, matches=7, updated=1.0))
    rated = (await kept(c))[1]["ratings"]
    assert rated[game]["matches"] == 7
    r = await post(c, {"record": rec, "seat": seat})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["game"] == game and body["offline"] is True and body["rated"] is False
    assert body["summary"]["match"]["over"] is True
    assert body["summary"]["deals"][0]["complete"] is True

    again = await post(c, {"record": rec, "seat": seat})
    assert again.status_code == 200, again.text
    assert again.json() == body
    history, profile = await kept(c)
    assert len(history) == 1
    line = history[0]
    assert line["table"] == body["id"] and line["game"] == game and line["seat"] == seat
    assert line["offline"] is True and line["rated"] is False and "rating_after" not in line
    assert line["options"] == game_class(game).check_options(SHORT[game])  # filled in
    match = body["summary"]["match"]
    won = (match["loser"] != seat % 2) if "loser" in match else (
        match["winner"] == (seat if game == CourtPiece2P.game_id else seat % 2))
    assert line["result"] == ("won" if won else "lost")
    assert all(o["type"] == "bot" for o in line["opponents"] + line["partners"])
    assert profile["ratings"] == rated  # unrated: no rating moved, no match counted
    stats = profile["stats"][game]
    assert stats["matches"]["played"] == 1
    assert stats["matches"]["won" if won else "lost"] == 1
    # the history line's record is the record as it was brought home
    got = await c.get(line["record"])
    assert got.status_code == 200 and got.json() == rec


@pytest.mark.parametrize("game", [CourtPiece.game_id, CourtPiece2P.game_id, Goat.game_id])
async def test_an_offline_match_joins_history_and_stats_once_unrated(tmp_path: Path,
                                                                    game: str) -> None:
    async with serving(f"sqlite+aiosqlite:///{tmp_path / 'u.db'}") as (c, services):
        await upload_twice(c, services, game)


async def test_who_sat_where_is_not_taken_from_the_record(tmp_path: Path) -> None:
    """A record's ``seats`` may name the bots' level; a person it names at another seat is
    counted as a bot all the same (the record is only what its uploader says)."""
    rec = offline_match(CourtPiece.game_id, seed=7)
    async with served(f"sqlite+aiosqlite:///{tmp_path / 's.db'}") as c:
        rec["seats"] = [{"type": "human"}] + [{"type": "bot", "level": "hard"}] * 3
        assert (await post(c, {"record": rec, "seat": 0})).status_code == 201
        rec["seats"][1] = {"type": "human", "player": await me(c), "name": "Someone"}
        assert (await post(c, {"record": rec, "seat": 0})).status_code == 201  # another record
        history, profile = await kept(c)
    assert [o["level"] for o in history[0]["opponents"]] == [None, "hard"]
    assert [o["level"] for o in history[1]["opponents"]] == ["hard", "hard"]
    assert all(o["type"] == "bot" for line in history for o in line["opponents"])
    by = profile["stats"][CourtPiece.game_id]["by_opponent"]
    assert sum(t["played"] for t in by.values()) == 2 and by["bot:hard"]["played"] == 1
    assert "people" not in by


async def test_the_export_holds_them_and_a_deleted_account_takes_them(tmp_path: Path) -> None:
    rec = offline_match(CourtPiece2P.game_id, seed=2)
    async with served(f"sqlite+aiosqlite:///{tmp_path / 'd.db'}") as c:
        kept_id = (await post(c, {"record": rec, "seat": 1})).json()["id"]
        data = (await c.get("/api/me/export")).json()
        assert [(x["id"], x["seat"], x["record"]) for x in data["offline_records"]] == [
            (kept_id, 1, rec)]
        pid = await me(c)
        r = await c.request("DELETE", "/api/me", json={"confirm": "delete"}, headers=ORIGIN)
        assert r.status_code == 200, r.text
        assert (await c.get(f"/api/records/{kept_id}")).status_code == 404
        assert (await c.get(f"/api/players/{pid}/history")).status_code == 404
        c.cookies.clear()
        await c.get("/api/me")  # a new guest: the same record is theirs to bring
        assert (await post(c, {"record": rec, "seat": 1})).status_code == 201


@pytest.mark.slow
async def test_a_long_match_is_brought_home_past_the_other_routes_bound(tmp_path: Path) -> None:
    """Court Piece to two coats (its default) runs to many deals: its record passes the 64 KiB
    that bounds other bodies, and is taken up to its own bound."""
    rec = random_record(CourtPiece.game_id, seed=1)
    size = len(json.dumps({"record": rec, "seat": 0}, separators=(",", ":")))  # as sent
    assert 64 * 1024 < size < 1024 * 1024
    async with served(f"sqlite+aiosqlite:///{tmp_path / 'l.db'}",
                      max_record_body=size + 100) as c:
        r = await c.patch("/api/me", json={"name": "x" * size}, headers=ORIGIN)
        assert r.status_code == 413  # other routes keep their bound
        r = await post(c, {"record": rec, "seat": 0})
        assert r.status_code == 201, r.text
        assert len(r.json()["summary"]["deals"]) == len(rec["deals"])
        rec["padding"] = "x" * 200  # an engine's own field: still a record, now too long
        r = await post(c, {"record": rec, "seat": 0})
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        history, _ = await kept(c)
        assert len(history) == 1


def cli_verify(rec: Any) -> tuple[int, str]:
    """``taash record verify -`` on a record: its exit code and its line on stderr."""
    out = CliRunner().invoke(cli_app, ["record", "verify", "-"], input=json.dumps(rec))
    return out.exit_code, out.stderr.strip().removeprefix("taash: ")  # its one-line prefix


def _change_action(rec: dict[str, Any]) -> None:
    a = rec["deals"][0]["actions"][3]
    a["seat"] = (a["seat"] + 1) % 4  # not that seat's turn


def _swap_deck(rec: dict[str, Any]) -> None:
    deck = rec["deals"][0]["deck"]
    deck[0], deck[-1] = deck[-1], deck[0]  # still the pack, but the hands the actions need go


def _deck_short(rec: dict[str, Any]) -> None:
    rec["deals"][0]["deck"].pop()


def _deals_not_a_list(rec: dict[str, Any]) -> None:
    rec["deals"] = {"0": rec["deals"][0]}


def _unfinished(rec: dict[str, Any]) -> None:
    del rec["deals"][-1]["actions"][-1]


# each way to spoil a Goat record (four seats), the exit code taash record verify gives
SPOILED: dict[str, tuple[Callable[[dict[str, Any]], None], int]] = {
    "an action changed": (_change_action, 1),
    "a deck changed": (_swap_deck, 1),
    "a deck not the pack": (_deck_short, 2),
    "deals not a list": (_deals_not_a_list, 2),
}


async def refuses_and_keeps_nothing(c: httpx.AsyncClient) -> None:
    good = offline_match(Goat.game_id, seed=9)
    for why, (spoil, code) in SPOILED.items():
        rec = copy.deepcopy(good)
        spoil(rec)
        r = await post(c, {"record": rec, "seat": 0})
        assert r.status_code == 400, (why, r.text)
        error = r.json()["error"]
        assert (error["code"], error["exit"]) == ("record_refused", code), why
        assert (code, error["message"]) == cli_verify(rec), why  # the command's very words
    # a fair deal whose proof is not the deck's
    fair = random_record(Goat.game_id, {"target": 1}, seed=3, fair=True)
    fair["deals"][0]["fair"]["seeds"][1] += "x"
    r = await post(c, {"record": fair, "seat": 0})
    assert r.json()["error"]["exit"] == 3 and "not fair" in r.json()["error"]["message"]
    assert (3, r.json()["error"]["message"]) == cli_verify(fair)
    # verified, but not what a player can bring home: unfinished, or not their seat
    rec = copy.deepcopy(good)
    _unfinished(rec)
    assert cli_verify(rec)[0] == 0
    r = await post(c, {"record": rec, "seat": 0})
    assert r.status_code == 400 and r.json()["error"]["exit"] == 2
    assert "not over" in r.json()["error"]["message"]
    for seat in (4, -1, True, "0", None):
        r = await post(c, {"record": good, "seat": seat})
        assert r.status_code == 400, (seat, r.text)
        assert r.json()["error"]["code"] == "record_refused" and "seat" in r.json()[
            "error"]["message"], seat
    assert (await post(c, {"record": "not a record", "seat": 0})).json()["error"][
        "exit"] == 2
    assert (await post(c, {"seat": 0})).status_code == 400  # no record at all
    deep: Any = []
    for _ in range(500):  # read by the body's parser; deeper than a record nests
        deep = [deep]
    r = await post(c, {"record": {**good, "x": deep}, "seat": 0})
    assert r.json()["error"] == {"code": "record_refused", "rule": None, "exit": 2,
                                 "message": "malformed record: not JSON: nested too deeply to "
                                            "read"}
    # a stranger: no session, or another site's page
    async with httpx.AsyncClient(transport=c._transport, base_url=BASE) as stranger:
        r = await stranger.post("/api/me/records", json={"record": good, "seat": 0},
                                headers=ORIGIN)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = await c.post("/api/me/records", json={"record": good, "seat": 0},
        headers={"Origin": "https://elsewhere.example"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
    history, profile = await kept(c)
    assert history == [] and profile["stats"] == {} and profile["ratings"] == {}


async def test_a_record_that_does_not_verify_is_refused_with_its_reason(tmp_path: Path) -> None:
    async with served(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}") as c:
        await refuses_and_keeps_nothing(c)


async def uploads_at_once_keep_one(c: httpx.AsyncClient) -> None:
    rec = offline_match(CourtPiece2P.game_id, seed=11)
    answers = await asyncio.gather(*(post(c, {"record": rec, "seat": 0}) for _ in range(4)))
    assert sorted(r.status_code for r in answers) == [200, 200, 200, 201]
    assert len({r.json()["id"] for r in answers}) == 1
    history, profile = await kept(c)
    assert len(history) == 1 and profile["stats"][CourtPiece2P.game_id]["matches"][
        "played"] == 1


async def test_uploads_of_one_record_at_once_keep_it_once(tmp_path: Path) -> None:
    async with served(f"sqlite+aiosqlite:///{tmp_path / 'o.db'}") as c:
        await uploads_at_once_keep_one(c)


@pytest.mark.slow
@pytest.mark.postgres
async def test_offline_records_on_postgres(pg_url: str) -> None:
    for game in (CourtPiece.game_id, Goat.game_id):
        async with serving(pg_url) as (c, services):  # a new guest each time
            await upload_twice(c, services, game)
    async with served(pg_url) as c:
        await refuses_and_keeps_nothing(c)
    async with served(pg_url) as c:
        await uploads_at_once_keep_one(c)
