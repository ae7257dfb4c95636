"""GET /metrics: off unless a token turns it on, refused without that token, and each named
series there and moving as a table plays (actions, fan-out latency, connections, bots, the
group commit, the event loop)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.server.helpers import Api, Server, pick_actor, tokens_of
from tests.waiting import wait_until

TOKEN = "metrics-token-for-the-test"
SERIES = ["taash_actions", "taash_action_seconds", "taash_connections", "taash_live_tables",
          "taash_bot_queue", "taash_bot_think_seconds", "taash_db_write_seconds",
          "taash_db_batch_actions", "taash_event_loop_lag_seconds", "taash_gc_pause_seconds",
          "taash_gc_frozen_objects"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("metrics") / "m.db"
    s = Server(f"sqlite:///{db}", "--bot-delay", "0", "--metrics-token", TOKEN).start()
    yield s
    s.stop()


def scrape(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = httpx.get(base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    out = {}
    for fam in text_string_to_metric_families(r.text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(m: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    return m.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.slow
def test_metrics_are_off_by_default_and_need_the_token(srv: Server, tmp_path: Path) -> None:
    assert httpx.get(srv.base + "/metrics", timeout=5).status_code == 401
    bad = httpx.get(srv.base + "/metrics", headers={"Authorization": "Bearer nope"}, timeout=5)
    assert bad.status_code == 401 and "Traceback" not in bad.text
    assert "/metrics" not in httpx.get(srv.base + "/openapi.json", timeout=5).text
    off = Server(f"sqlite:///{tmp_path / 'off.db'}").start()
    try:
        r = httpx.get(off.base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"},
                      timeout=5)
        assert r.status_code == 404
    finally:
        off.stop()


async def test_every_series_is_there_and_moves_as_a_table_plays(srv: Server) -> None:
    before = scrape(srv.base)
    names = {name for name, _ in before}
    for series in SERIES:
        assert any(n == series or n.startswith(series + "_") for n in names), series
    api = Api(srv.base)
    try:
        t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2)
        toks = tokens_of(t)
        rng = random.Random(2)
        # a seat's live socket, counted while open
        import websockets

        async def with_socket() -> float:
            url = srv.ws_base + f"/api/tables/{t['id']}/ws?token={toks[0]}"
            async with websockets.connect(url) as ws:
                json.loads(await ws.recv())
                now = scrape(srv.base)
                return value(now, "taash_connections", kind="ws", who="seat")

        assert await with_socket() == 1
        moves = 0
        for _ in range(12):
            views = {s: api.view(t["id"], tok) for s, tok in toks.items()}
            seat, action = pick_actor(views, rng) or (None, None)
            assert seat is not None
            assert api.act(t["id"], toks[seat], action).status_code == 200
            moves += 1
        # the seat not to move now (the views above are from before the last move)
        now_to_move = api.view(t["id"], toks[0])["to_move"]
        wrong = 1 - now_to_move if now_to_move in (0, 1) else 0
        assert api.act(t["id"], toks[wrong], "play:AS").status_code in (400, 409)
        # a table of bots only: its bots must think, whoever deals first
        bots = api.create("goat", {"target": 1}, [{"type": "bot"}] * 4, live=True,
                          bot_delay_ms=0)
        wait_until(lambda: api.public(bots["id"])["version"] >= 3, timeout=30,
                   what="the bots to play")
    finally:
        api.close()
    after = scrape(srv.base)
    game = "court-piece-2p"
    accepted = value(after, "taash_actions_total", game=game, result="accepted") - \
        value(before, "taash_actions_total", game=game, result="accepted")
    assert accepted == moves
    assert value(after, "taash_action_seconds_count", game=game) - \
        value(before, "taash_action_seconds_count", game=game) == moves
    refused = {labels for (name, labels) in after if name == "taash_actions_total"
               and dict(labels)["result"] != "accepted"}
    assert refused, "the refused action is counted by its reason"
    assert value(after, "taash_connections", kind="ws", who="seat") == 0
    assert value(after, "taash_live_tables") >= 2
    assert value(after, "taash_db_write_seconds_count") > value(before,
                                                                "taash_db_write_seconds_count")
    assert value(after, "taash_db_batch_actions_sum") >= moves
    assert value(after, "taash_bot_think_seconds_count", level="easy") > 0
    assert value(after, "taash_bot_queue") >= 0
    assert value(after, "taash_event_loop_lag_seconds_count") > 0
    # the server's collector is set up (taash.server.ops.gcpause): start-up frozen out of it
    assert value(after, "taash_gc_frozen_objects") > 10_000
