"""What the store keeps: the SQL tables (the metadata migrations 0001 to 0013 create; the
migrations test compares them) and the rows the server reads from them."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()

game_tables = Table(
    "game_tables", metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first_seat", Integer, nullable=False),
    Column("live", Boolean, nullable=False),
    Column("open", Boolean, nullable=False),
    Column("bot_delay_ms", Integer, nullable=False),
    Column("turn_timer_s", Float, nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("to_move", Integer, nullable=True),
    Column("rematch_id", String(24), nullable=True),
    Column("rematch_of", String(24), nullable=True),
    # free text in the table's quick chat, as its creator allowed (0012)
    Column("chat_text", Boolean, nullable=False, server_default=false()),
    # one player may hold several of its seats (pass and play), as its creator chose (0013)
    Column("pass_and_play", Boolean, nullable=False, server_default=false()),
    # a live table waiting for the friends invited to it until they come or the host starts
    # it (0014)
    Column("waiting", Boolean, nullable=False, server_default=false()),
    # how far behind spectators see it: none, trick, deal, hidden (0024; tables/watch.py)
    Column("spectator_delay", String(8), nullable=False, server_default="none"),
)
# the lobby's query (open tables not over); migration 0001 creates it under this name
Index("ix_game_tables_open", game_tables.c.open, game_tables.c.over)

seats = Table(
    "seats", metadata,
    Column("table_id", String(24), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("type", String(8), nullable=False),
    Column("level", String(16), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True, index=True),
    Column("claimed", Boolean, nullable=False),
    Column("webhook", Text, nullable=True),
    Column("email", Text, nullable=True),
    Column("notified_version", Integer, nullable=False),
    Column("reminded_version", Integer, nullable=False),
    # the player the seat belongs to (0002); None: a seat held by its token alone
    Column("player_id", String(24), nullable=True, index=True),
    # the invite token a player claimed the seat with (0002): it works no more, and says so
    Column("spent_hash", String(64), nullable=True, index=True),
    PrimaryKeyConstraint("table_id", "seat"),
)

actions = Table(
    "actions", metadata,
    Column("table_id", String(24), nullable=False),
    Column("version", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("client_id", String(80), nullable=True),
    Column("events", Text, nullable=False),
    Column("created", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "version"),
    UniqueConstraint("table_id", "seat", "client_id", name="uq_actions_client_id"),
)


# a player: a guest from their first visit (0002)
# taash-shuffle/1 (RECORD.md "Fair deals"): each deal's server secret and the seats' seeds;
# ``dealt`` false: the next deal, its commit published and its seeds still being sent
fair_deals = Table(
    "fair_deals", metadata,
    Column("table_id", String(24), nullable=False),
    Column("deal", Integer, nullable=False),
    Column("secret", String(64), nullable=False),
    Column("seeds", Text, nullable=False),
    Column("dealt", Boolean, nullable=False),
    PrimaryKeyConstraint("table_id", "deal"),
)

players = Table(
    "players", metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("language", String(8), nullable=False),
    Column("created", Float, nullable=False),
    Column("deleted", Float, nullable=True),
    # the confirmed e-mail address, lower-cased (0005)
    Column("email", String(254), nullable=True),
    Index("ix_players_email", "email", unique=True),
    # ISO 3166-1 alpha-2, upper case, shown as a flag on the public profile (0011)
    Column("country", String(2), nullable=True),
    # "my finished deals may become puzzles" (0027): off unless the player turns it on
    Column("puzzle_consent", Boolean, nullable=False, server_default=false()),
    # a deleted player's rows outside the players table all removed (0031): until then the
    # hourly sweep finishes the deletion
    Column("forgotten", Float, nullable=True),
)

# a player's signed-in browsers (0002): the cookie holds a random secret, the row its sha256
sessions = Table(
    "sessions", metadata,
    Column("id", String(24), primary_key=True),  # names the session to its player (not secret)
    Column("secret_hash", String(64), nullable=False, unique=True),
    Column("player_id", String(24), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("revoked", Float, nullable=True),
    Column("user_agent", String(300), nullable=True),
    # made by signing in on a browser a guest played on (0007): that guest, until the player
    # says whether its tables come into the account
    Column("guest_id", String(24), nullable=True),
)

# one-time codes that sign another device in as a player (0003): only the code's sha256 is kept
link_codes = Table(
    "link_codes", metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("player_id", String(24), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("used", Float, nullable=True),  # when it signed a device in (or was replaced)
)

# a player's passkeys (0005): WebAuthn credentials, ids and COSE keys in base64url
passkeys = Table(
    "passkeys", metadata,
    Column("credential_id", String(1400), primary_key=True),
    Column("player_id", String(24), nullable=False, index=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("transports", String(200), nullable=True),
    Column("name", String(64), nullable=True),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=True),
)

# one-time e-mail links (0005), "confirm" an address or "sign_in": only the link's sha256 is kept
email_links = Table(
    "email_links", metadata,
    Column("link_hash", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),
    Column("email", String(254), nullable=False, index=True),
    Column("player_id", String(24), nullable=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("used", Float, nullable=True),
)

# WebAuthn challenges handed out (0007): each works once, until ``expires``; kept as the sha256
# of its bytes, found again from the client data the authenticator signed
webauthn_challenges = Table(
    "webauthn_challenges", metadata,
    Column("challenge_hash", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),
    Column("player_id", String(24), nullable=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

# personal API tokens (0005): named, scoped ("play read"), kept as their sha256, revocable
api_tokens = Table(
    "api_tokens", metadata,
    Column("id", String(24), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("player_id", String(24), nullable=False, index=True),
    Column("name", String(64), nullable=False),
    Column("scopes", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("last_used", Float, nullable=True),
    Column("revoked", Float, nullable=True),
)


# a finished deal's analysis (0008), keyed by the sha256 of the record up to the deal and the
# analysis settings; ``table_id`` None for a record pasted into the review
analyses = Table(
    "analyses", metadata,
    Column("key", String(64), primary_key=True),
    Column("table_id", String(24), nullable=True, index=True),
    Column("deal", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("analysis", Text, nullable=False),
)

# Web Push (0009): the server's VAPID key pair, made at first start (raw private key, base64url)
vapid_keys = Table(
    "vapid_keys", metadata,
    Column("id", String(16), primary_key=True),
    Column("private_key", String(64), nullable=False),
    Column("created", Float, nullable=False),
)

# a browser's push subscription (0009): for one seat ("t:TABLE:SEAT") or for every seat of a
# player ("p:PLAYER"); quiet hours are minutes of the day in the browser's time zone
push_subscriptions = Table(
    "push_subscriptions", metadata,
    Column("id", String(24), primary_key=True),
    Column("scope", String(64), nullable=False),
    Column("endpoint", Text, nullable=False),
    Column("endpoint_hash", String(64), nullable=False),
    Column("p256dh", String(200), nullable=False),
    Column("auth", String(100), nullable=False),
    Column("table_id", String(24), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("player_id", String(24), nullable=True, index=True),
    Column("language", String(8), nullable=False),
    Column("off", Boolean, nullable=False),
    Column("quiet_from", Integer, nullable=True),
    Column("quiet_to", Integer, nullable=True),
    Column("tz_offset", Integer, nullable=False),
    Column("created", Float, nullable=False),
    UniqueConstraint("endpoint_hash", "scope", name="uq_push_endpoint_scope"),
    Index("ix_push_subscriptions_seat", "table_id", "seat"),
)

# a seat that muted push at its table (0009), whichever subscription would have told it
push_mutes = Table(
    "push_mutes", metadata,
    Column("table_id", String(24), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
)

# ratings (0010): a player's openskill mu and sigma per game (taash.ratings), rated matches counted
ratings = Table(
    "ratings", metadata,
    Column("player_id", String(24), nullable=False),
    Column("game", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
    Column("updated", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "game"),
)
Index("ix_ratings_game_mu", ratings.c.game, ratings.c.mu)  # the leaderboard

# every finished match of a player (0010): a history line, and the rating after it if rated
match_results = Table(
    "match_results", metadata,
    Column("player_id", String(24), nullable=False),
    Column("table_id", String(24), nullable=False),
    Column("game", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("result", Integer, nullable=False),  # 1 won, 0 drawn, -1 lost
    Column("ended", Float, nullable=False),
    Column("entry", Text, nullable=False),  # JSON: options, partners, opponents
    Column("mu", Float, nullable=True),
    Column("sigma", Float, nullable=True),
    PrimaryKeyConstraint("player_id", "table_id"),
)
# history pages, newest first
Index("ix_match_results_player_ended", match_results.c.player_id, match_results.c.ended)
Index("ix_match_results_table_id", match_results.c.table_id)  # is this match written yet?

# a match played offline and brought home by one of its players (0016): its record as sent,
# keyed by the SHA-256 of its canonical JSON per player, so a retried upload is found again; its
# history line is the match_results row whose table_id is this id
offline_records = Table(
    "offline_records", metadata,
    Column("id", String(24), primary_key=True),
    Column("player_id", String(24), nullable=False),
    Column("digest", String(64), nullable=False),
    Column("game", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("record", Text, nullable=False),
    Column("uploaded", Float, nullable=False),
    UniqueConstraint("player_id", "digest", name="uq_offline_records_player_digest"),
)

# a player's stats per game (0010): taash.stats's counters as JSON, added to as a match ends
player_stats = Table(
    "player_stats", metadata,
    Column("player_id", String(24), nullable=False),
    Column("game", String(32), nullable=False),
    Column("stats", Text, nullable=False),
    PrimaryKeyConstraint("player_id", "game"),
)


# friends (0010): each player's friend code, asked by whoever would be their friend
friend_codes = Table(
    "friend_codes", metadata,
    Column("player_id", String(24), primary_key=True),
    Column("code", String(16), nullable=False, unique=True),
)

# one row per direction (0010): "asked" (player asked friend, waiting for them), "friends"
# (both confirmed: a row each way), "blocked" (player blocked friend)
friends = Table(
    "friends", metadata,
    Column("player_id", String(24), nullable=False),
    Column("friend_id", String(24), nullable=False, index=True),
    Column("state", String(8), nullable=False),
    Column("since", Float, nullable=False),
    PrimaryKeyConstraint("player_id", "friend_id"),
)

# a challenge to a friend (0010): "open" until accepted (its table made), declined, withdrawn
# or past ``expires``
challenges = Table(
    "challenges", metadata,
    Column("id", String(24), primary_key=True),
    Column("from_id", String(24), nullable=False, index=True),
    Column("to_id", String(24), nullable=False, index=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("live", Boolean, nullable=False),
    Column("state", String(10), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("table_id", String(24), nullable=True),
    Column("bots", String(16), nullable=True),  # the level of the seats no friend takes (0011)
)

# each friend a challenge invites (0011): their seat and answer (open, accepted, declined)
challenge_invites = Table(
    "challenge_invites", metadata,
    Column("challenge_id", String(24), primary_key=True),
    Column("player_id", String(24), primary_key=True, index=True),
    Column("seat", Integer, nullable=False),
    Column("state", String(10), nullable=False),
)

# which instance owns a table, until when, under which fencing number (0015; store/leases.py)
table_leases = Table(
    "table_leases", metadata,
    Column("table_id", String(24), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("fence", BigInteger, nullable=False),
    Column("expires", Float, nullable=False),
    # where the owner answers the other instances (its forwarded requests); None: nowhere
    Column("address", String(200), nullable=True),
)

# duplicate events (0017; store/events.py, docs/events.md): an event, its one secret (the
# commitment to every board is its SHA-256), the entries, and each entrant's play of a board
events = Table(
    "events", metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("boards", Integer, nullable=False),
    Column("opens", Float, nullable=False),
    Column("closes", Float, nullable=False),
    Column("secret", String(64), nullable=False),
    Column("host", String(24), nullable=True),
    Column("daily", Boolean, nullable=False),
    Column("closed", Float, nullable=True),
    Column("created", Float, nullable=False),
    Column("announced", Float, nullable=True),  # its close told to its entrants (0022)
)
Index("ix_events_closes", events.c.closes)

event_entries = Table(
    "event_entries", metadata,
    Column("event_id", String(40), primary_key=True),
    Column("player_id", String(24), primary_key=True, index=True),
    Column("entered", Float, nullable=False),
)

event_boards = Table(
    "event_boards", metadata,
    Column("event_id", String(40), primary_key=True),
    Column("player_id", String(24), primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("actions", Text, nullable=False),  # every seat's actions, the robots' too
    Column("version", Integer, nullable=False),  # the entrant's actions taken so far
    Column("last_id", String(64), nullable=True),  # the client id of the entrant's last one
    Column("done", Boolean, nullable=False),
    Column("score", Integer, nullable=True),
    Column("result", Text, nullable=True),
    Column("finished", Float, nullable=True),
)
