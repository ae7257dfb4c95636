"""A player's "my finished deals may become puzzles" (``puzzle_consent``): off until they turn
it on, changed by ``PATCH /api/me`` as their other settings are, kept on the player, and their
own (not on the public profile).  Mining turned off (``taash serve --no-mining``) queues
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from taash.server.cli import setting_flags
from taash.server.config import Settings
from taash.server.puzzles_mining.service import Mining
from tests.server.events.helpers import site
from tests.server.puzzles_mining.helpers import GAME

pytestmark = pytest.mark.slow  # a server in process per test (a second or two)


async def test_consent_is_off_until_the_player_turns_it_on(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        p, other = await s.player(), await s.player()
        assert (await p.ok("GET", "/api/me"))["puzzle_consent"] is False
        r = await p.http.patch("/api/me", json={"puzzle_consent": True})
        assert r.status_code == 200 and r.json()["puzzle_consent"] is True, r.text
        assert (await p.ok("GET", "/api/me"))["puzzle_consent"] is True
        # another setting changed alone leaves it as it is
        r = await p.http.patch("/api/me", json={"name": "Zara"})
        assert r.json()["name"] == "Zara" and r.json()["puzzle_consent"] is True
        assert (await other.ok("GET", "/api/me"))["puzzle_consent"] is False
        # not on the public profile: the player's own setting
        assert "puzzle_consent" not in await other.ok("GET", f"/api/players/{p.id}")
        # bad input: a clear refusal, nothing changed
        for bad in ("yes", 1, None, [True]):
            r = await p.http.patch("/api/me", json={"puzzle_consent": bad})
            if bad is None:  # null: not given
                assert r.status_code == 200 and r.json()["puzzle_consent"] is True
                continue
            assert r.status_code == 400, (bad, r.text)
            assert "puzzle_consent" in r.json()["error"]["message"], r.text
        r = await p.http.patch("/api/me", json={"puzzle_consent": False})
        assert r.json()["puzzle_consent"] is False
        assert (await p.ok("GET", "/api/me"))["puzzle_consent"] is False


async def test_mining_turned_off_queues_nothing(tmp_path: Path) -> None:
    async with site(tmp_path) as s:  # the suite's servers: TAASH_NO_MINING=1
        assert not s.services.mining.on
        rec = {"game": GAME, "first_caller": 0, "deals": []}
        assert not await s.services.mining.queue("t", GAME, 1.0, rec)
        assert await s.services.mining.drain() == 0
    # `taash serve --no-mining`: the flag is made from the setting, and turns mining off
    assert "--no-mining" in {o for p in setting_flags() for o in p.opts}
    flags = Settings.load({"db_url": f"sqlite:///{tmp_path / 'x.db'}", "no_mining": True})
    assert not Mining(flags, s.services.store).on
    on = Settings(db_url=f"sqlite:///{tmp_path / 'x.db'}", no_mining=False, mining_workers=2)
    assert Mining(on, s.services.store).workers == 2
