"""Issue 45's end-to-end check: an event of three boards, four entrants who play different
lines through the HTTP API (one of them across a server restart), standings as computed by
hand from their results, the secret published at close and every board's record verifying
with `taash record verify`."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from taash import fair
from tests.conftest import run_taash
from tests.server.events.helpers import Player, event_body, review_kept, site

BOARDS = 3
LINES: dict[str, Callable[[list[str]], str]] = {
    "first": lambda legal: legal[0],
    "last": lambda legal: legal[-1],
    "middle": lambda legal: legal[len(legal) // 2],
    "second": lambda legal: legal[min(1, len(legal) - 1)],
}


def by_hand(tricks: dict[str, list[int]]) -> dict[str, float]:
    """Each entrant's percentage: per board, 2 per entrant with fewer tricks and 1 per entrant
    with as many, over 2 per other entrant; then the mean over the boards."""
    out = {}
    for p, mine in tricks.items():
        pcts = []
        for b in range(BOARDS):
            others = [t[b] for q, t in tricks.items() if q != p]
            mp = sum(2 if mine[b] > o else 1 if mine[b] == o else 0 for o in others)
            pcts.append(100 * mp / (2 * len(others)))
        out[p] = round(sum(pcts) / BOARDS, 2)
    return out


@pytest.mark.slow
async def test_an_event_played_by_four_entrants_scores_and_verifies(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        host = await s.player()
        ev = await host.ok("POST", "/api/events",
                           event_body(game="court-piece", boards=BOARDS), status=201)
        eid, commit = ev["id"], ev["commit"]
        players: dict[str, Player] = {}
        for line in LINES:
            players[line] = p = await s.player()
            await p.ok("POST", f"/api/events/{eid}/entry", status=201)
        cookies = {line: dict(p.http.cookies) for line, p in players.items()}
        ids = {line: p.id for line, p in players.items()}
        # "first" plays two moves of board 1 before the server restarts
        view = await players["first"].ok("GET", f"/api/events/{eid}/board")
        for _ in range(2):
            r = await players["first"].act(eid, 1, view["view"]["legal_actions"][0],
                                           version=view["version"])
            assert r.status_code == 200, r.text
            view = r.json()
        mid_board = view
    async with site(tmp_path) as s:  # the same database: every entry and move is still there
        host = await s.player()
        host.http.cookies.clear()
        players = {}
        for line, jar in cookies.items():
            p = await s.player()
            p.http.cookies.clear()
            p.http.cookies.update(jar)
            p.id = ids[line]
            players[line] = p
        assert await players["first"].ok("GET", f"/api/events/{eid}/board") == mid_board
        tricks: dict[str, list[int]] = {line: [] for line in LINES}
        for b in range(1, BOARDS + 1):
            for line, p in players.items():
                done = await p.play_board(eid, b, LINES[line])
                tricks[line].append(done["result"]["tricks"])
                assert done["next"] == (b + 1 if b < BOARDS else None)
        # different lines, different results somewhere: the field is a field
        assert len({tuple(t) for t in tricks.values()}) > 1, tricks
        want = by_hand(tricks)
        # a finished entrant sees the standings, provisional; the secret is still hidden
        prov = await players["last"].ok("GET", f"/api/events/{eid}/standings")
        assert prov["provisional"] is True
        assert {r["player"]: r["percent"] for r in prov["standings"]} == \
            {ids[line]: pct for line, pct in want.items()}
        rec = await players["last"].ok("GET", f"/api/events/{eid}/boards/1/record",
                                       params={"player": ids["first"]})
        assert "secret" not in rec["deals"][0]["fair"]
        assert (await players["last"].ok("GET", f"/api/events/{eid}"))["secret"] is None
        # the host's session went with the restart's cookie jar: close by the clock instead
        s.now = ev["closes"]
        final = await players["first"].ok("GET", f"/api/events/{eid}/standings")
        assert final["provisional"] is False
        pct = {ids[line]: v for line, v in want.items()}
        ranked = [r["player"] for r in final["standings"]]
        assert ranked == sorted(ranked, key=lambda p: (-pct[p], p))  # ties by player id
        # level entrants share a rank, the next counting them all (1, 2, 2, 4)
        assert [r["rank"] for r in final["standings"]] == \
            [1 + sum(v > pct[p] for v in pct.values()) for p in ranked]
        me = await players["first"].ok("GET", "/api/me")
        assert {r["player"]: r["name"] for r in final["standings"]}[me["id"]] == me["name"]
        closed = await players["first"].ok("GET", f"/api/events/{eid}")
        assert closed["state"] == "closed" and closed["commit"] == commit
        secret = closed["secret"]
        assert fair.commit(secret) == commit
        # every entrant's every board verifies with the published secret
        for line, p in players.items():
            for b in range(1, BOARDS + 1):
                rec = await p.ok("GET", f"/api/events/{eid}/boards/{b}/record")
                proof = rec["deals"][0]["fair"]
                assert proof == {"scheme": "taash-shuffle/1", "table": f"{eid}-{b}",
                                 "commit": commit, "secret": secret, "seeds": ["", "", "", ""]}
                path = tmp_path / f"{line}-{b}.json"
                path.write_text(json.dumps(rec))
                out = run_taash("record", "verify", str(path))
                assert out.returncode == 0, out.stderr
                summary = json.loads(out.stdout)["deals"][0]
                assert summary["fair"] is True and summary["complete"] is True
                assert summary["tricks"][0] == tricks[line][b - 1]
        # the field's results of a board, for anyone once closed
        res = await players["middle"].ok("GET", f"/api/events/{eid}/boards/2/results")
        assert res["field"] == 4
        assert sum(d["count"] for d in res["distribution"]) == 4
        assert res["common_line_count"] >= 1 and res["common_first_trick_count"] >= 1
        # each entrant's board against the best with every hand open: their own tricks, and
        # one best result for every entrant whose board had the same trump call
        best: dict[tuple[str, ...], int | None] = {}
        for line, p in players.items():
            mine = await review_kept(p, s, eid, 1)
            assert mine["yours"] == tricks[line][0] and mine["unit"] == "tricks"
            assert best.setdefault(tuple(mine["opening"]), mine["best"]) == mine["best"]
