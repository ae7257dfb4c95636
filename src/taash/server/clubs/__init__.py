"""Clubs (issue 47, docs/clubs.md): members with roles, club tables and club events."""
