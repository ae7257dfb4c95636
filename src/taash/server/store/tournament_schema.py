"""The SQL tables of tournaments (migration 0020; store/tournaments.py, docs/tournaments.md),
on the store's one ``metadata`` (``taash.server.store.db`` imports this module, so the metadata
the migrations test compares holds them)."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, UniqueConstraint

from taash.server.store.schema import metadata

# a tournament: Swiss (``rounds``) or arena (``minutes``), its game and options, its start, the
# turn timer of its tables, who organised it (and for which club), where it stands
tournaments = Table(
    "tournaments", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # swiss or arena
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("rounds", Integer, nullable=False),  # Swiss: its rounds; arena: 0
    Column("minutes", Integer, nullable=False),  # arena: its length; Swiss: 0
    Column("starts", Float, nullable=False),
    Column("turn_timer_s", Float, nullable=False),
    Column("organiser", String(24), nullable=False),
    Column("club_id", String(24), nullable=True, index=True),
    Column("state", String(12), nullable=False),  # scheduled, running, over, cancelled
    Column("round", Integer, nullable=False),  # Swiss: the round being played (0 before)
    Column("created", Float, nullable=False),
    Column("started", Float, nullable=True),
    Column("ended", Float, nullable=True),
    # how far behind spectators see its tables (0025): trick, deal or hidden, the organiser's
    Column("spectator_delay", String(8), nullable=False, server_default="deal"),
)
Index("ix_tournaments_state", tournaments.c.state, tournaments.c.starts)

# an entrant: a player, a pair of partners (the four-seat games), or a bot the organiser added;
# ``seed`` is its registration order
tournament_entrants = Table(
    "tournament_entrants", metadata,
    Column("tournament_id", String(24), primary_key=True),
    Column("seed", Integer, primary_key=True),
    Column("player_id", String(24), nullable=True, index=True),
    Column("partner_id", String(24), nullable=True, index=True),
    Column("bot", String(16), nullable=True),
    Column("name", String(140), nullable=False),
    Column("registered", Float, nullable=False),
    UniqueConstraint("tournament_id", "player_id", name="uq_tournament_entrants_player"),
)

# a game of a round (Swiss) or of the arena (``round``: its number in the arena): entrant
# ``a`` against ``b`` (None: a bye for a) at ``table_id``; ``result`` 2 a won, 1 drawn, 0 b won
tournament_games = Table(
    "tournament_games", metadata,
    Column("tournament_id", String(24), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("a", Integer, nullable=False),
    Column("b", Integer, nullable=True),
    Column("table_id", String(24), nullable=True, index=True),
    Column("result", Integer, nullable=True),
    Column("created", Float, nullable=False),
    Column("finished", Float, nullable=True),
)
