"""Accounts: players and their sessions, signing in (passkeys, e-mail links, linking another
device), personal API tokens, and the player's own data (``/api/me``)."""
