"""Deal review: replay and analysis of finished deals."""
