"""Puzzles from real deals: "play this trick" positions where, with all hands open, one card
(or one group of equivalent cards) alone keeps the best result (docs/puzzles.md).

- ``taash.puzzles.mine``: finding puzzles in finished deals with the exact solver, and the
  ``Puzzle`` with its JSON form;
- ``taash.puzzles.themes``: the themes, each a precise test;
- ``taash.puzzles.store``: puzzle sets on disk (the shipped one, ``set.json.gz``) and their
  counts per game and theme;
- ``taash.puzzles.glicko``: Glicko-2 ratings of players and puzzles from attempts;
- ``taash.puzzles.command``: ``taash puzzles make|merge|stats``.

This package's own import is light (``taash --help`` imports the command's module): the
solver, the bots and the core load with ``mine``.
"""
