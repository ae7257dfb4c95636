"""How big an offline match's record is, and how long the server takes to bring it home (issue
46; not a test): whole matches of each game at its default options, every seat played by the
offline engine's bots (``taash.offline.Engine``), their compact JSON's size and deals; then
``POST /api/me/records`` of each, in process (the app over ASGI on a SQLite file, as
tests/server/social/test_uploads.py runs it), timed around the request.

    .venv/bin/python bench/offline_records.py --matches 8 --level easy

Why: the upload's body bound (``max_record_body``, 1 MiB) has to hold a whole match; Court
Piece to two coats (its default) runs to many deals.  Wall clocks: on a shared machine they
count waits for a core too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.social.test_uploads import ORIGIN, served  # noqa: E402

from taash.games import GAMES  # noqa: E402
from taash.offline import Engine  # noqa: E402


def whole_match(game: str, seed: int, level: str) -> dict[str, Any]:
    e = Engine()
    m = e.handle({"op": "new", "game": game, "seed": seed})["match"]
    while not (at := e.handle({"op": "actors", "match": m}))["over"]:
        seat = at["actors"][0]
        move = e.handle({"op": "bot", "match": m, "seat": seat, "level": level})
        e.handle({"op": "apply", "match": m, "seat": seat, "action": move["action"]})
    rec: dict[str, Any] = e.handle({"op": "record", "match": m})["record"]
    return rec


async def upload_times(records: list[dict[str, Any]], folder: str) -> list[tuple[float, int]]:
    """Each upload's milliseconds and HTTP status (201 kept, 413 over the bound)."""
    out = []
    async with served(f"sqlite+aiosqlite:///{folder}/bench.db") as c:
        for rec in records:
            t0 = time.perf_counter()
            r = await c.post("/api/me/records", json={"record": rec, "seat": 0}, headers=ORIGIN)
            out.append(((time.perf_counter() - t0) * 1000, r.status_code))
            assert r.status_code in (201, 413), r.text
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=8, help="matches per game (seeds 0..N-1)")
    ap.add_argument("--level", default="easy", help="the bots' level: random, easy or hard")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for game in GAMES:
            recs = [whole_match(game, seed, args.level) for seed in range(args.matches)]
            sizes = [len(json.dumps(r, separators=(",", ":"))) for r in recs]
            answers = asyncio.run(upload_times(recs, folder))
            ms = [t for t, _ in answers]
            print(json.dumps({
                "game": game, "level": args.level, "bytes": sorted(sizes),
                "deals": sorted(len(r["deals"]) for r in recs),
                "over_64KiB": sum(s > 64 * 1024 for s in sizes),
                "kept": sum(status == 201 for _, status in answers),
                "upload_ms_median": round(statistics.median(ms), 1),
                "upload_ms_max": round(max(ms), 1)}))


if __name__ == "__main__":
    main()
