"""The SQL tables of puzzles (migration 0026; store/puzzles.py, docs/puzzles.md "On the
server"), on the store's one ``metadata`` (``taash.server.store.db`` imports this module, so the
metadata the migrations test compares holds them).  The puzzles themselves are not here: the
server reads them from its puzzle source (the shipped set); these are what attempts leave."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table

from taash.server.store.schema import metadata

# a player's puzzle rating in one game (Glicko-2: rating, deviation, volatility), how many
# puzzles they tried and solved, and their best streak; a guest's row keeps the counts and the
# streak, its rating stays as it was made (guests are not rated)
puzzle_players = Table(
    "puzzle_players", metadata,
    Column("player_id", String(24), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("best_streak", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

# a puzzle's rating once it has been tried (before that, its source's: the set's rating, else
# 1500/350/0.06)
puzzle_ratings = Table(
    "puzzle_ratings", metadata,
    Column("puzzle_id", String(32), primary_key=True),
    Column("game", String(32), nullable=False, index=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

# a player's first attempt at a puzzle (one per player and puzzle: a puzzle tried again is
# answered, not kept, and rates nobody again); the ratings before and after are the player's
# and the puzzle's, None where the attempt was not rated (a guest)
puzzle_attempts = Table(
    "puzzle_attempts", metadata,
    Column("player_id", String(24), primary_key=True),
    Column("puzzle_id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("action", String(64), nullable=False),
    Column("solved", Boolean, nullable=False),
    Column("at", Float, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("player_before", Float, nullable=True),
    Column("player_after", Float, nullable=True),
    Column("puzzle_before", Float, nullable=True),
    Column("puzzle_after", Float, nullable=True),
)
Index("ix_puzzle_attempts_player_at", puzzle_attempts.c.player_id, puzzle_attempts.c.at)

# a player's streak being played (one at a time): its game, the puzzles solved in a row so far
# and the puzzle now asked
puzzle_streaks = Table(
    "puzzle_streaks", metadata,
    Column("player_id", String(24), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("run", Integer, nullable=False),
    Column("puzzle_id", String(32), nullable=False),
    Column("started", Float, nullable=False),
    Column("updated", Float, nullable=False),
)
