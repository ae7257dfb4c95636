"""Tournaments: Swiss and arena (issue 47, docs/tournaments.md)."""
