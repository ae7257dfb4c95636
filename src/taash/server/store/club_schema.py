"""The SQL tables of clubs (migration 0018; store/clubs.py, docs/clubs.md), on the store's one
``metadata`` (``taash.server.store.db`` imports this module, so the metadata the migrations test
compares holds them)."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, String, Table

from taash.server.store.schema import metadata

# clubs (0018; store/clubs.py, docs/clubs.md): a club (its invite link's token, its owner; the
# lower-cased name searched), its members with their roles, the players invited by name, and
# the tables and duplicate events made for it
clubs = Table(
    "clubs", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, index=True),
    Column("public", Boolean, nullable=False),
    Column("invite", String(32), nullable=False),
    Column("owner", String(24), nullable=False),
    Column("created", Float, nullable=False),
    Column("closed", Float, nullable=True),
)

club_members = Table(
    "club_members", metadata,
    Column("club_id", String(24), primary_key=True),
    Column("player_id", String(24), primary_key=True, index=True),
    Column("role", String(8), nullable=False),  # owner, admin or member
    Column("joined", Float, nullable=False),
)

club_invites = Table(
    "club_invites", metadata,
    Column("club_id", String(24), primary_key=True),
    Column("player_id", String(24), primary_key=True, index=True),
    Column("by", String(24), nullable=False),
    Column("created", Float, nullable=False),
)

club_tables = Table(
    "club_tables", metadata,
    Column("table_id", String(24), primary_key=True),
    Column("club_id", String(24), nullable=False),
    Column("created", Float, nullable=False),
)
Index("ix_club_tables_club_id", club_tables.c.club_id, club_tables.c.created)

club_events = Table(
    "club_events", metadata,
    Column("event_id", String(40), primary_key=True),
    Column("club_id", String(24), nullable=False),
    Column("created", Float, nullable=False),
)
Index("ix_club_events_club_id", club_events.c.club_id, club_events.c.created)
