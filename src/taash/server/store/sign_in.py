"""The store's queries for signing in: a new session for a sign-in (a guest's tables merged
when asked), the WebAuthn challenges, passkeys and e-mail addresses with their one-time links.
``Store`` inherits them; they share its engine and its one writer on SQLite."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from sqlalchemy import and_, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from taash.server.store.players import PasskeyRow, insert_session, merge_seats
from taash.server.store.rows import SessionRow
from taash.server.store.schema import email_links, passkeys, players, sessions, webauthn_challenges


class SignInQueries:
    """Sessions made by signing in, challenges, passkeys and e-mail (a mixin of ``Store``)."""

    engine: AsyncEngine

    def _writing(self) -> AbstractAsyncContextManager[None]:
        raise NotImplementedError  # the Store's: one writer at a time on SQLite

    async def sign_in_session(self, old_session: str | None, new: SessionRow,
                              secret_hash: str, now: float) -> None:
        """In one commit: end the browser's old session (if it had one) and give it ``new``
        (a new id and secret: the session is rotated at every sign-in)."""
        async with self._writing(), self.engine.begin() as conn:
            if old_session is not None:
                await conn.execute(update(sessions).where(and_(
                    sessions.c.id == old_session, sessions.c.revoked.is_(None)))
                    .values(revoked=now))
            await insert_session(conn, new, secret_hash)

    async def merge_guest(self, session_id: str, guest_id: str,
                          player_id: str) -> tuple[list[str], list[str]] | None:
        """Bring the guest a session replaced into its player, once (None: the session has no
        such guest waiting, or was answered already): the tables merged and those refused."""
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(update(sessions).where(and_(
                sessions.c.id == session_id, sessions.c.guest_id == guest_id))
                .values(guest_id=None))
            if res.rowcount != 1:
                return None
            return await merge_seats(conn, guest_id, player_id)

    async def forget_guest(self, session_id: str) -> bool:
        """The player said no: the guest's tables stay the guest's."""
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(update(sessions).where(and_(
                sessions.c.id == session_id, sessions.c.guest_id.is_not(None)))
                .values(guest_id=None))
            return bool(res.rowcount == 1)

    # -- WebAuthn challenges -------------------------------------------------------------------
    async def add_challenge(self, challenge_hash: str, purpose: str, player_id: str | None,
                            now: float, expires: float) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(webauthn_challenges.insert().values(
                challenge_hash=challenge_hash, purpose=purpose, player_id=player_id,
                created=now, expires=expires))

    async def take_challenge(self, challenge_hash: str, purpose: str,
                             now: float) -> tuple[str | None] | None:
        """Spend a live challenge of this purpose (it works once): ``(player_id,)`` of whoever
        it was made for, or None if there is no such live challenge."""
        cond = and_(webauthn_challenges.c.challenge_hash == challenge_hash,
                    webauthn_challenges.c.purpose == purpose,
                    webauthn_challenges.c.expires > now)
        async with self._writing(), self.engine.begin() as conn:
            r = (await conn.execute(select(webauthn_challenges.c.player_id).where(cond))).first()
            if r is None:
                return None
            res = await conn.execute(delete(webauthn_challenges).where(cond))
            if res.rowcount != 1:
                return None
            return (r.player_id,)

    async def drop_challenges(self, now: float) -> int:
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(delete(webauthn_challenges)
                                     .where(webauthn_challenges.c.expires < now))
            return int(res.rowcount or 0)

    # -- passkeys ------------------------------------------------------------------------------
    async def add_passkey(self, k: PasskeyRow) -> bool:
        """False if that credential is known already (to this player or another)."""
        try:
            async with self._writing(), self.engine.begin() as conn:
                await conn.execute(passkeys.insert().values(
                    credential_id=k.credential_id, player_id=k.player_id,
                    public_key=k.public_key, sign_count=k.sign_count, transports=k.transports,
                    name=k.name, created=k.created, last_used=k.last_used))
        except IntegrityError:
            return False
        return True

    async def passkeys_of(self, player_id: str) -> list[PasskeyRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(passkeys).where(passkeys.c.player_id == player_id)
                                      .order_by(passkeys.c.created))
            return [PasskeyRow(**r._mapping) for r in rows]

    async def passkey(self, credential_id: str) -> PasskeyRow | None:
        """The passkey with this id, if its player is not deleted."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(
                select(passkeys).join(players, players.c.id == passkeys.c.player_id)
                .where(and_(passkeys.c.credential_id == credential_id,
                            players.c.deleted.is_(None))))).first()
            return None if r is None else PasskeyRow(**r._mapping)

    async def passkey_used(self, credential_id: str, sign_count: int, now: float) -> None:
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(passkeys).where(passkeys.c.credential_id == credential_id)
                               .values(sign_count=sign_count, last_used=now))

    async def remove_passkey(self, player_id: str, credential_id: str) -> bool:
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(delete(passkeys).where(and_(
                passkeys.c.credential_id == credential_id, passkeys.c.player_id == player_id)))
            return bool(res.rowcount == 1)

    # -- e-mail --------------------------------------------------------------------------------
    async def email_owner(self, email: str) -> str | None:
        """The player (not deleted) whose confirmed address this is."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(players.c.id).where(and_(
                players.c.email == email, players.c.deleted.is_(None))))).first()
            return None if r is None else str(r.id)

    async def add_email_link(self, link_hash: str, purpose: str, email: str,
                             player_id: str | None, now: float, expires: float) -> None:
        """A new one-time link; the earlier unused links of this purpose and address (and
        player) work no more."""
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(update(email_links).where(and_(
                email_links.c.purpose == purpose, email_links.c.email == email,
                email_links.c.used.is_(None))).values(used=now))
            await conn.execute(email_links.insert().values(
                link_hash=link_hash, purpose=purpose, email=email, player_id=player_id,
                created=now, expires=expires, used=None))

    async def spend_email_link(self, link_hash: str, purpose: str,
                               now: float) -> tuple[str, str | None] | None:
        """Spend a live link of this purpose (once): its address and player, else None."""
        cond = and_(email_links.c.link_hash == link_hash, email_links.c.purpose == purpose,
                    email_links.c.used.is_(None), email_links.c.expires > now)
        async with self._writing(), self.engine.begin() as conn:
            r = (await conn.execute(select(email_links.c.email, email_links.c.player_id)
                                    .where(cond))).first()
            if r is None:
                return None
            res = await conn.execute(update(email_links).where(cond).values(used=now))
            if res.rowcount != 1:
                return None
            return str(r.email), r.player_id

    async def set_email(self, player_id: str, email: str | None) -> bool:
        """Give the player this confirmed address (None: none); False if another has it."""
        try:
            async with self._writing(), self.engine.begin() as conn:
                res = await conn.execute(update(players).where(and_(
                    players.c.id == player_id, players.c.deleted.is_(None)))
                    .values(email=email))
                return bool(res.rowcount == 1)
        except IntegrityError:
            return False

    async def drop_email_links(self, before: float) -> int:
        async with self._writing(), self.engine.begin() as conn:
            res = await conn.execute(email_links.delete().where(email_links.c.expires < before))
            return int(res.rowcount or 0)
