"""A table's room rebuilt from the store: what a process does when it takes a table (on first
use, after a restart, or from an owner that stopped or was killed)."""

from __future__ import annotations

from taash.server.store.rows import TableRow
from taash.server.tables.match import build_match, deal_next
from taash.server.tables.room import HISTORY, Host, Room
from taash.server.tables.watch import Watch


async def replay(host: Host, meta: TableRow, owned: bool = True) -> Room:
    """The room of ``meta``'s table, its stored actions replayed: the last ``HISTORY`` kept
    as steps (for clients that reconnect), the answers to every client id (an action sent
    again is answered as the first time), the time a human was last seen.  ``owned``: this
    process owns the table, and writes back the deals a stop left unrecorded."""
    store = host.store
    table_id = meta.id
    rows = await store.load_actions(table_id, 0)
    state = build_match(meta)
    dealt = [(f.deal, f.dealt) for f in meta.fair]
    keep = max(0, len(rows) - HISTORY)
    marks = Watch(meta.spectator_delay, 0, state)  # spectators see a delayed table from
    for r in rows:                                 # there: its states are kept from it on
        marks.note(r.version, r.events)
    keep = min(keep, marks.target(len(rows)))
    room = Room(host, meta, state, 0)
    for r in rows[:keep]:  # replay fast, without keeping a state per version
        state.apply(r.seat, r.action)
        deal_next(meta, state)
        room.watch.note(r.version, r.events)
        if r.client_id is not None:
            room.answers[(r.seat, r.client_id)] = {"version": r.version, "events": r.events}
        room.version = r.version
    room.watch.reset(room.version, state)
    room.replay_rows(rows[keep:])
    if owned and dealt != [(f.deal, f.dealt) for f in meta.fair]:  # dealt before a stop
        await store.save_fair(table_id, meta.fair)
    room.meta.updated = meta.updated
    humans = [s.seat for s in meta.seats if s.type == "human"]
    room.human_seen = (await store.last_human_move(table_id, humans)
                       or meta.created)  # an idle table stays so after a restart
    return room
