"""Puzzles on the server (issue 49, docs/puzzles.md "On the server"): the puzzle source, the
service that serves, judges and rates them, its routes and the page's address."""
