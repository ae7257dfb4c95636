"""The store: every table, seat, action, player and their social data in SQLite or
PostgreSQL (``db.Store``, composed of each domain's queries), its schema and migrations, and
the group commit that writes many tables' actions in one transaction."""
