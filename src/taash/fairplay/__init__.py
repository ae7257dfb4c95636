"""Fair play: catching players who see cards they should not (issue 48).

- ``taash.fairplay.open_best``: the best actions with every card open (DDS or the own solver).
- ``taash.fairplay.detect``: the detector over records, per player and per partnership, with
  a p-value against an honest reference population (``reference.json``).
- ``taash.fairplay.cheats``: cheating policies for the arena only (a peeker, a colluding
  partnership, a helped player) and a way to play them into records.  The server never
  imports it (an import-linter contract in pyproject.toml).
- ``taash.fairplay.command``: ``taash fairplay RECORDS...``.

docs/fairplay.md says what is measured, how the reference was made, and the limits.
"""
