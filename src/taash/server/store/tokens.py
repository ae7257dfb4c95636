"""The store's queries for personal API tokens (the ``api_tokens`` table of migration 0005)
and for what a player's data export and account deletion need.

Kept apart from ``store.py`` so the player queries there can move without touching these; it
works through the same engine and the same SQLite writer lock.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, select, update

from taash.server.store.db import Store
from taash.server.store.mining_schema import mining_left
from taash.server.store.rows import PlayerRow
from taash.server.store.schema import (
    api_tokens,
    email_links,
    game_tables,
    link_codes,
    passkeys,
    players,
    push_subscriptions,
    seats,
    sessions,
)


@dataclass(frozen=True)
class TokenRow:
    id: str
    player_id: str
    name: str
    scopes: tuple[str, ...]
    created: float
    last_used: float | None


def _row(r: object) -> TokenRow:
    return TokenRow(r.id, r.player_id, r.name, tuple(r.scopes.split()),  # type: ignore[attr-defined]
                    r.created, r.last_used)  # type: ignore[attr-defined]


class TokenStore:
    """Personal API tokens and a player's account, in the server's one database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, row: TokenRow, token_hash: str) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(api_tokens.insert().values(
                id=row.id, token_hash=token_hash, player_id=row.player_id, name=row.name,
                scopes=" ".join(row.scopes), created=row.created, last_used=None,
                revoked=None))

    async def of_player(self, player_id: str) -> list[TokenRow]:
        """The player's tokens not revoked, the newest first."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(
                select(api_tokens).where(and_(api_tokens.c.player_id == player_id,
                                              api_tokens.c.revoked.is_(None)))
                .order_by(api_tokens.c.created.desc(), api_tokens.c.id))
            return [_row(r) for r in rows]

    async def live(self, token_hash: str) -> tuple[TokenRow, PlayerRow] | None:
        """The token with this hash, not revoked, and its player, not deleted."""
        async with self.store.engine.connect() as conn:
            r = (await conn.execute(
                select(api_tokens.c.id, api_tokens.c.player_id, api_tokens.c.name,
                       api_tokens.c.scopes, api_tokens.c.created, api_tokens.c.last_used,
                       players.c.name.label("pname"), players.c.language,
                       players.c.created.label("pcreated"))
                .join(players, players.c.id == api_tokens.c.player_id)
                .where(and_(api_tokens.c.token_hash == token_hash,
                            api_tokens.c.revoked.is_(None), players.c.deleted.is_(None)))
            )).first()
        if r is None:
            return None
        return _row(r), PlayerRow(r.player_id, r.pname, r.language, r.pcreated)

    async def touch(self, token_id: str, now: float) -> None:
        async with self.store._writing(), self.store.engine.begin() as conn:
            await conn.execute(update(api_tokens).where(api_tokens.c.id == token_id)
                               .values(last_used=now))

    async def revoke(self, player_id: str, token_id: str, now: float) -> bool:
        """Revoke one of the player's tokens; False if they have no such live token."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            res = await conn.execute(
                update(api_tokens).where(and_(api_tokens.c.id == token_id,
                                              api_tokens.c.player_id == player_id,
                                              api_tokens.c.revoked.is_(None)))
                .values(revoked=now))
            return bool(res.rowcount == 1)

    # -- the account as a whole --------------------------------------------------------------
    async def account(self, player_id: str) -> dict[str, object]:
        """What the export tells besides tables: the player's e-mail and passkeys (no key
        material), as the store has them."""
        async with self.store.engine.connect() as conn:
            p = (await conn.execute(select(players).where(players.c.id == player_id))).first()
            keys = await conn.execute(
                select(passkeys.c.name, passkeys.c.created, passkeys.c.last_used,
                       passkeys.c.transports).where(passkeys.c.player_id == player_id)
                .order_by(passkeys.c.created))
            return {"email": getattr(p, "email", None) if p is not None else None,
                    "passkeys": [dict(k._mapping) for k in keys]}

    async def seat_tables(self, player_id: str) -> list[str]:
        """The ids of the tables with a seat of the player's."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(select(seats.c.table_id).where(
                seats.c.player_id == player_id).distinct())
            return sorted(str(r.table_id) for r in rows)

    async def delete_player(self, player_id: str, now: float,
                            name: str) -> tuple[list[str], list[str]]:
        """In one commit: the player's sessions, tokens, passkeys, e-mail (and its links),
        link codes and push subscriptions gone; the player row kept, marked deleted, under
        ``name``; each of their seats named ``name``, with its notices off and no player,
        and at an unfinished table given to a bot (so the others can finish; its match is
        then never mined for puzzles).  Returns the
        ids of the sessions and tokens (``pat:ID``) that ended and of the tables whose seats
        changed."""
        async with self.store._writing(), self.store.engine.begin() as conn:
            ended = [f"pat:{r.id}" for r in await conn.execute(
                select(api_tokens.c.id).where(and_(api_tokens.c.player_id == player_id,
                                                   api_tokens.c.revoked.is_(None))))]
            ended += [str(r.id) for r in await conn.execute(
                select(sessions.c.id).where(and_(sessions.c.player_id == player_id,
                                                 sessions.c.revoked.is_(None))))]
            p = (await conn.execute(select(players.c.email).where(
                players.c.id == player_id))).first()
            if p is not None and p.email:
                await conn.execute(email_links.delete().where(email_links.c.email == p.email))
            await conn.execute(email_links.delete().where(email_links.c.player_id == player_id))
            await conn.execute(sessions.delete().where(sessions.c.player_id == player_id))
            await conn.execute(api_tokens.delete().where(api_tokens.c.player_id == player_id))
            await conn.execute(passkeys.delete().where(passkeys.c.player_id == player_id))
            await conn.execute(link_codes.delete().where(link_codes.c.player_id == player_id))
            await conn.execute(push_subscriptions.delete().where(  # theirs and their seats'
                push_subscriptions.c.player_id == player_id))
            await conn.execute(update(players).where(players.c.id == player_id)
                               .values(deleted=now, name=name, email=None))
            rows = await conn.execute(
                select(seats.c.table_id, game_tables.c.over)
                .join(game_tables, game_tables.c.id == seats.c.table_id)
                .where(seats.c.player_id == player_id))
            found = {str(r.table_id): bool(r.over) for r in rows}
            live = sorted(t for t, over in found.items() if not over)
            mine = seats.c.player_id == player_id
            if live:
                await conn.execute(update(seats).where(and_(mine, seats.c.table_id.in_(live)))
                                   .values(type="bot", level="easy", token_hash=None,
                                           claimed=True))
                # their moves are in those matches: never mined for puzzles (mining_queue.py)
                marked = set((await conn.execute(select(mining_left.c.table_id).where(
                    mining_left.c.table_id.in_(live)))).scalars())
                if unmarked := [t for t in live if t not in marked]:
                    await conn.execute(mining_left.insert(),
                                       [{"table_id": t, "left": now} for t in unmarked])
            await conn.execute(update(seats).where(mine).values(
                name=name, webhook=None, email=None, token_hash=None, player_id=None))
            return ended, sorted(found)
