"""Looking after a running server: metrics, the garbage collector's pauses, and the database
commands a host runs (upgrade, backup, restore, copy, check)."""
