"""The SQL tables of puzzle mining (migration 0027; store/mined_puzzles.py,
docs/puzzles.md "Mined on the server"), on the store's one ``metadata``
(``taash.server.store.db`` imports this module, so the metadata the migrations test compares
holds them)."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text

from taash.server.store.schema import metadata

# puzzles mined from the server's finished deals (0027): each as the shipped set's entries are
# (``Puzzle.as_json()``, JSON text: no player's name or id in it), keyed by its position's id,
# with the table it was found at and when
mined_puzzles = Table(
    "mined_puzzles", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("puzzle", Text, nullable=False),
    Column("table_id", String(24), nullable=False),
    Column("created", Float, nullable=False),
)
Index("ix_mined_puzzles_game_created", mined_puzzles.c.game, mined_puzzles.c.created)

# finished matches waiting for the miner (0027): the core's record of the match (its deals,
# every card shown: the match is over; no seat's name or player), the players whose consent
# let it in (asked again before it is mined), kept until it is mined so a stop loses none
mining_queue = Table(
    "mining_queue", metadata,
    Column("table_id", String(24), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("ended", Float, nullable=False),
    Column("record", Text, nullable=False),
    Column("players", Text, nullable=False),  # JSON list of player ids
    Column("tries", Integer, nullable=False),
)
Index("ix_mining_queue_ended", mining_queue.c.ended)

# tables where a human seat was given to a bot before the match ended (0027): the moves made
# there before were a person's, whose consent nobody can ask any more, so the match is not mined
mining_left = Table(
    "mining_left", metadata,
    Column("table_id", String(24), primary_key=True),
    Column("left", Float, nullable=False),
)
