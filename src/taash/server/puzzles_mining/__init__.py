"""Puzzles mined from the server's finished deals (issue 49, docs/puzzles.md "Mined on the
server"): a finished match whose every human seat's player consented (or a table of bots
only) is queued, and a worker process searches its deals for puzzles, kept in the store's
``mined_puzzles``.  Other domains reach it only through its service (``service.Mining``);
the puzzles it keeps are read through ``taash.server.store.mined_puzzles``."""
