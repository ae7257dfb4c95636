"""Duplicate events (issue 45, docs/events.md): everyone plays the same boards against robots,
scored against the field, the whole board set committed to before the first entry."""
