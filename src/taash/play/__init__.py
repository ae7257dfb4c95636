"""`taash play`: one person plays a whole match in a terminal against the built-in bots.

Plain Rich output and line input, so it works the same in a terminal, over ssh and with piped
input (the tests drive it that way).  The rules core decides everything: this package only turns
what the player types into action text (a card code, a number from the hand, a full action),
shows the core's reason when it refuses one, and narrates what the bots do.

- ``command``: the typer command, its flags and exit codes;
- ``table``: the loop (who acts, bots' moves, the player's turn);
- ``court``, ``goat``: what each game family says (``narrate``: their interface);
- ``parse``: reading what the player types, without I/O;
- ``screen``: seat names, cards and suits in colour, the hand.

Exit codes: 0 after quitting or finishing (end of input counts as quitting), 130 on Ctrl-C,
2 for bad flags or options, each with one line on stderr.
"""

from taash.play.command import play, register
from taash.play.table import Table
from taash.play.turn import Quit

__all__ = ["Quit", "Table", "play", "register"]
