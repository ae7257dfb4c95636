"""taash: trick-taking card games of South Asia and Eastern Europe."""

__version__ = "0.1.0"
