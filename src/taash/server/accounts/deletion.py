"""The part of an account's deletion after its first commit (``TokenStore.delete_player``:
sessions, tokens, passkeys, e-mail, seats): the player's puzzles, memberships and entries
(``MyData.forget``), ratings, stats, history and offline records (``SocialStore.forget``),
friends, blocks and challenges (``FriendStore.forget``), each in its own commit, and then the
player marked ``forgotten``.  Every step may run again (it removes what is left), so the hourly
sweep finishes a deletion that a stopped process left half done (``finish_deletions``)."""

from __future__ import annotations

import logging
import time

from taash.server.store.db import Store
from taash.server.store.friends import FriendStore
from taash.server.store.my_data import MyData
from taash.server.store.social import SocialStore

log = logging.getLogger("taash.server")

#: what a deleted player's seats, entries and results are named
DELETED_NAME = "deleted player"


async def forget_player(store: Store, player_id: str, now: float) -> None:
    """Remove the deleted player's rows outside the players table (finished results stay,
    under ``DELETED_NAME``) and mark the deletion finished."""
    await MyData(store).forget(player_id, now, DELETED_NAME)
    await SocialStore(store).forget(player_id)
    await FriendStore(store).forget(player_id)
    await store.mark_forgotten(player_id, time.time())


async def finish_deletions(store: Store) -> int:
    """Finish the deletions a stopped process left half done; how many were finished."""
    done = 0
    for player_id in await store.unfinished_deletions():
        try:
            await forget_player(store, player_id, time.time())
        except Exception:
            log.exception("finishing the deletion of player %s", player_id)
            continue
        done += 1
    if done:
        log.warning("finished %d account deletions left half done", done)
    return done
