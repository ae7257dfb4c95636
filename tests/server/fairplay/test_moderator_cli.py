"""`taash moderator grant | revoke | list` on a running server's database: the role it grants
is what the fair-play API checks (a moderator 200, without it 403), a name two players share
is refused with their ids, an unknown one with a clear line (exit 2)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.events.helpers import Player, site

pytestmark = pytest.mark.slow  # the command runs in a process of its own


def taash(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TAASH_DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "taash", *args], capture_output=True,
                          text=True, timeout=120, env=env, check=False)


async def cmd(*args: str) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(taash, *args)


async def rename(p: Player, name: str) -> None:
    r = await p.http.patch("/api/me", json={"name": name})
    assert r.status_code == 200, r.text


async def test_the_host_grants_and_revokes_the_moderator_role(tmp_path: Path) -> None:
    async with site(tmp_path) as s:
        db = f"sqlite:///{tmp_path / 'events.db'}"
        mod, twin1, twin2 = await s.player(), await s.player(), await s.player()
        await rename(mod, "Meera Mod")
        await rename(twin1, "Twin")
        await rename(twin2, "twin")
        assert (await mod.get("/api/fairplay/queue")).status_code == 403
        done = await cmd("moderator", "grant", "meera mod", "--db", db)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"Meera Mod ({mod.id}) is now a moderator"
        assert (await mod.get("/api/fairplay/queue")).status_code == 200
        again = await cmd("moderator", "grant", mod.id, "--db", db)
        assert again.returncode == 0 and "already a moderator" in again.stdout
        listed = await cmd("moderator", "list", "--db", db)
        assert listed.stdout.strip() == f"{mod.id} Meera Mod"
        both = await cmd("moderator", "grant", "Twin", "--db", db)
        assert both.returncode == 2 and both.stderr.count("\n") == 1
        assert twin1.id in both.stderr and twin2.id in both.stderr
        nobody = await cmd("moderator", "grant", "Nobody Here", "--db", db)
        assert nobody.returncode == 2
        assert nobody.stderr.strip() == "taash: no player has the id or name 'Nobody Here'"
        gone = await cmd("moderator", "revoke", mod.id, "--db", db)
        assert gone.returncode == 0 and "no longer a moderator" in gone.stdout
        assert (await mod.get("/api/fairplay/queue")).status_code == 403
