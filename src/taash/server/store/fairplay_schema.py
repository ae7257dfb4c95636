"""The SQL tables of fair play (migrations 0023, 0029 and 0030; store/fairplay.py,
store/fairplay_lift.py and store/fairplay_pairs.py, docs/fairplay.md), on the
store's one ``metadata`` (``taash.server.store.db`` imports this module, so the metadata the
migrations test compares holds them)."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, PrimaryKeyConstraint, String, Table, Text

from taash.server.store.schema import metadata

# a role on a player's account (0023): ``moderator`` (fair play's review queue), granted and
# revoked by the host's command (`taash moderator`), never through the API
player_roles = Table(
    "player_roles", metadata,
    Column("player_id", String(24), nullable=False),
    Column("role", String(16), nullable=False),
    Column("granted", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "role"),
)

# finished matches waiting for the detector (0023): the match's record (taash-record/1, every
# card shown: the match is over) with each human seat's player id, kept until it is scanned so a
# stop loses none; the instance scanning it holds a claim until ``claimed_until`` (0029), so of
# several instances sharing the database one scans it
fairplay_queue = Table(
    "fairplay_queue", metadata,
    Column("table_id", String(24), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("ended", Float, nullable=False),
    Column("record", Text, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("claimed_by", String(24), nullable=True),
    Column("claimed_until", Float, nullable=True),
)
Index("ix_fairplay_queue_ended", fairplay_queue.c.ended)

# what the detector found in one player's seat of one finished match (0023): the deals, the
# decisions judged and the opportunities (JSON: [deal, step, game key, kind, hit] each)
fairplay_scans = Table(
    "fairplay_scans", metadata,
    Column("player_id", String(24), nullable=False),
    Column("table_id", String(24), nullable=False),
    Column("game", String(32), nullable=False),
    Column("ended", Float, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("judged", Integer, nullable=False),
    Column("opportunities", Text, nullable=False),
    PrimaryKeyConstraint("player_id", "table_id"),
)
Index("ix_fairplay_scans_player_ended", fairplay_scans.c.player_id, fairplay_scans.c.ended)

# what the detector found in one partnership's side of one finished match (0030): the two
# players (``player_id`` < ``partner_id``), the deals, the decisions judged and the
# partnership's opportunities (JSON: [deal, step, game key, kind, hit] each; partner-fit, or in
# Goat the two seats' open-best opportunities pooled)
fairplay_pair_scans = Table(
    "fairplay_pair_scans", metadata,
    Column("player_id", String(24), nullable=False),
    Column("partner_id", String(24), nullable=False),
    Column("table_id", String(24), nullable=False),
    Column("game", String(32), nullable=False),
    Column("ended", Float, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("judged", Integer, nullable=False),
    Column("opportunities", Text, nullable=False),
    PrimaryKeyConstraint("player_id", "partner_id", "table_id"),
)
Index("ix_fairplay_pair_scans_pair_ended", fairplay_pair_scans.c.player_id,
      fairplay_pair_scans.c.partner_id, fairplay_pair_scans.c.ended)

# a flagged player's case for the moderators (0023): the evidence when flagged (and refreshed
# while it is open), then the decision (cleared, warned or banned), who made it and when.  A
# partnership's case (0030) has its two players, ``player_id`` < ``partner_id`` (NULL: one
# player's case), and its warning or ban applies to the players in ``decided_for`` (JSON list)
fairplay_cases = Table(
    "fairplay_cases", metadata,
    Column("id", String(24), primary_key=True),
    Column("player_id", String(24), nullable=False),
    Column("opened", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(8), nullable=False),  # open, cleared, warned, banned
    Column("p_value", Float, nullable=False),
    Column("deals", Integer, nullable=False),
    Column("evidence", Text, nullable=False),
    Column("decided", Float, nullable=True),
    Column("decided_by", String(24), nullable=True),
    Column("note", Text, nullable=True),
    Column("partner_id", String(24), nullable=True),
    Column("decided_for", Text, nullable=True),
)
Index("ix_fairplay_cases_status_opened", fairplay_cases.c.status, fairplay_cases.c.opened)
Index("ix_fairplay_cases_player_id", fairplay_cases.c.player_id)

# players banned from rated play by a moderator's decision (0023)
fairplay_bans = Table(
    "fairplay_bans", metadata,
    Column("player_id", String(24), primary_key=True),
    Column("case_id", String(24), nullable=False),
    Column("banned", Float, nullable=False),
    Column("by", String(24), nullable=False),
)

# a ban lifted by a moderator (0029): the ban as it was (its case, when and by whom) and who
# lifted it, when and why; the ban's row leaves ``fairplay_bans`` in the same transaction
fairplay_lifts = Table(
    "fairplay_lifts", metadata,
    Column("id", String(24), primary_key=True),
    Column("player_id", String(24), nullable=False),
    Column("case_id", String(24), nullable=False),
    Column("banned", Float, nullable=False),
    Column("banned_by", String(24), nullable=False),
    Column("lifted", Float, nullable=False),
    Column("lifted_by", String(24), nullable=False),
    Column("note", Text, nullable=False),
)
Index("ix_fairplay_lifts_case_id", fairplay_lifts.c.case_id)

# what a player is told of a moderator's decision about them (0029): ``warned``, ``banned`` or
# ``lifted``, written with the decision; ``seen`` once the player has read it (told once).  No
# evidence, no note and no moderator: those are the moderators' only
fairplay_notices = Table(
    "fairplay_notices", metadata,
    Column("id", String(24), primary_key=True),
    Column("player_id", String(24), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=True),
)
Index("ix_fairplay_notices_player_id", fairplay_notices.c.player_id)
