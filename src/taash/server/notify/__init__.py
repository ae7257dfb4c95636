"""Telling a seat it is its turn: when and in what words (``notices``), by webhook or e-mail
(``notifier``) or Web Push (``push``, ``push_routes``)."""
