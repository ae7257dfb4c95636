"""The SQL tables of seasons (migration 0020; store/seasons.py, docs/social.md "Seasons"), on
the store's one ``metadata`` (``taash.server.store.db`` imports this module, so the metadata the
migrations test compares holds them)."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, String, Table

from taash.server.store.schema import match_results, metadata

# seasons (0020, issue 47): a closed season's podium per game, kept once it is first asked for
# after the season ends (``seasons_closed`` says it was, podium or none), and an index for the
# season's standings, which read a game's rated results of one month
season_podiums = Table(
    "season_podiums", metadata,
    Column("game", String(32), primary_key=True),
    Column("season", String(7), primary_key=True),  # YYYY-MM (UTC)
    Column("rank", Integer, primary_key=True),  # 1, 2, 3
    Column("player_id", String(24), nullable=False, index=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),  # rated matches in the season
)

seasons_closed = Table(
    "seasons_closed", metadata,
    Column("game", String(32), primary_key=True),
    Column("season", String(7), primary_key=True),
    Column("closed", Float, nullable=False),
)
Index("ix_match_results_game_ended", match_results.c.game, match_results.c.ended)
