"""The SQL table of events' best results (migration 0028; store/event_best.py, docs/events.md
"your deal review against the best result"), on the store's one ``metadata``
(``taash.server.store.db`` imports this module, so the metadata the migrations test compares
holds it)."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Integer, String, Table

from taash.server.store.schema import metadata

# a board's best result from the first card, once per board and trump call: the row is the
# claim (its primary key: one computer among the instances, ``owner`` until ``lease``), then
# the result (``done`` set); ``lower <= best <= upper``, ``proven`` when they meet
event_best = Table(
    "event_best", metadata,
    Column("event_id", String(40), primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("opening", String(64), primary_key=True),  # "seat:trump:S" ("" in Goat)
    Column("owner", String(64), nullable=False),  # the instance computing it
    Column("lease", Float, nullable=False),  # its claim holds until then, unless done
    Column("budget", Float, nullable=False),  # the solver's seconds
    Column("started", Float, nullable=True),  # when its worker began
    Column("done", Float, nullable=True),
    Column("lower", Integer, nullable=True),
    Column("upper", Integer, nullable=True),
    Column("proven", Boolean, nullable=True),
    Column("solver", String(8), nullable=True),
    Column("seconds", Float, nullable=True),
    Column("nodes", Integer, nullable=True),
    Column("most", Integer, nullable=True),  # the top of the range the search began with
)
