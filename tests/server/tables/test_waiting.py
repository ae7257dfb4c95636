"""A live table made to wait for the friends invited to it (issue 43): nobody moves, no bot
and no turn timer, until they have all come or a player at the table starts it."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from tests.server.helpers import Api, tokens_of
from tests.waiting import wait_until

TWO = [{"type": "human", "name": "Asha"}, {"type": "human", "name": "Bilal"}]


def info(api: Api, table: str) -> Any:
    return api.public(table)["table"]


def test_a_waiting_table_refuses_moves_until_the_friend_comes_then_times_from_then(
        api: Api) -> None:
    t = api.create("court-piece-2p", {"target": 1}, TWO, live=True, wait=True, first_seat=0,
                   turn_timer_s=60)
    tokens = tokens_of(t)
    assert info(api, t["id"])["waiting"] == [0, 1]
    assert info(api, t["id"])["turn_ends"] is None  # no timer runs for nobody
    api.view(t["id"], tokens[0])  # the host opens their seat
    assert info(api, t["id"])["waiting"] == [1]
    r = api.act(t["id"], tokens[0], "trump:H", cid="early")
    assert r.status_code == 409, r.text
    err = r.json()["error"]
    assert err["code"] == "waiting" and "Bilal" in err["message"], err
    assert api.public(t["id"])["version"] == 0  # the refusal changed nothing
    time.sleep(1.2)  # the wait is not counted against the first mover's timer
    api.view(t["id"], tokens[1])  # the friend comes: the table starts by itself
    now = info(api, t["id"])
    assert now["waiting"] == []
    ends = datetime.fromisoformat(now["turn_ends"].replace("Z", "+00:00")).timestamp()
    assert ends - time.time() > 55, now["turn_ends"]  # counted from the friend's arrival
    r = api.act(t["id"], tokens[0], "trump:H", cid="now")
    assert r.status_code == 200, r.text


def test_a_player_starts_it_without_the_friend_and_the_bots_move_from_then(api: Api) -> None:
    seats = [{"type": "human", "name": "Asha"}, {"type": "bot", "level": "easy"},
             {"type": "human", "name": "Bilal"}, {"type": "bot", "level": "easy"}]
    t = api.create("court-piece", {"session_end": {"deals": 1}}, seats, live=True, wait=True,
                   first_seat=0, bot_delay_ms=0)  # seat 1, a bot, calls trumps first
    tokens = tokens_of(t)
    api.view(t["id"], tokens[0])
    assert info(api, t["id"])["waiting"] == [2]
    time.sleep(0.8)  # bots answer at once (no delay, the sweep every 0.3 s): none moved
    assert api.public(t["id"])["version"] == 0
    # a stranger's token starts nothing
    other = api.create("court-piece-2p", {"target": 1}, TWO, live=True, wait=True)
    r = api.http.post(f"/api/tables/{t['id']}/start",
                      headers=api.auth(tokens_of(other)[0]))
    assert r.status_code == 403, r.text
    assert info(api, t["id"])["waiting"] == [2]
    r = api.http.post(f"/api/tables/{t['id']}/start", headers=api.auth(tokens[0]))
    assert r.status_code == 200, r.text
    assert r.json() == {"id": t["id"], "started": True, "waiting": []}
    wait_until(lambda: api.public(t["id"])["version"] >= 1, timeout=10,
               what="the bot's call of trumps once the table started")
    again = api.http.post(f"/api/tables/{t['id']}/start", headers=api.auth(tokens[0]))
    assert again.json()["started"] is False  # started once


def test_tables_not_made_to_wait_play_at_once(api: Api) -> None:
    for extra in ({}, {"wait": True, "live": False}, {"wait": True, "pass_and_play": True}):
        t = api.create("court-piece-2p", {"target": 1}, TWO,
                       **{"live": True, "first_seat": 0, **extra})
        assert info(api, t["id"])["waiting"] == [], extra
        r = api.act(t["id"], tokens_of(t)[0], "trump:H", cid="a")
        assert r.status_code == 200, (extra, r.text)
