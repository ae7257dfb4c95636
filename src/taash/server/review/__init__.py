"""The deal review of the page: a finished deal's replay and its analysis in a worker."""
