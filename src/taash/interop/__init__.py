"""Adapters to reinforcement-learning and game-theory toolkits (the optional ``rl`` extra).

``taash.interop.openspiel`` registers each game's deal with OpenSpiel; ``taash.interop.
pettingzoo`` gives PettingZoo AEC environments; ``taash.interop.episode`` is the shared model
(explicit chance, integer actions, one player at a time) both are built on.
"""
