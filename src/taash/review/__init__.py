"""`taash review`: replay a finished deal from its record and show where it was won or lost.

- ``replay``: the positions of one deal (every step's state, the tricks, the trump call with
  the caller's first five cards, Goat's face-down passes turned up, the double-sar pile and its
  collections, the result), pure and through the core's public API;
- ``analyse``: for every action, what the ``hard`` bot would have played from that seat's view
  ("with only what the player knew") and, where the exact solver (``solver``) is there, what
  each play cost with all cards open (best, mistake, blunder), with a summary per seat;
- ``dds``: four-player single sar (whist with a trump suit) solved by DDS through endplay,
  which the analysis uses there in place of ``solver`` wherever endplay can be imported;
- ``command``: the ``taash review FILE [--deal D] [--seat S] [--json]`` command, stepping
  through a deal in the terminal or printing it (and its analysis) for programs.

Exit codes follow ``taash record verify``: 2 for a malformed record or a bad flag, 1 for an
illegal action in the record, 3 for a fair deal whose proof fails; one line on stderr each.
"""
