"""The taash game server: tables, seats, bots, the live channel and play-anytime notices.

``taash serve`` runs it (see ``taash.server.cli``); ``create_app`` builds the ASGI app.
"""
