"""`python -m taash` and the `taash` command (``run``).

Ctrl-C is one line and exit code 130 from the first instant: while the commands' modules are
still being imported (a few tenths of a second, longer on a loaded machine), as well as once
a command runs (``taash.cli.main``).
"""

import sys


def run() -> None:
    try:
        from taash.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("taash: interrupted\n")
        raise SystemExit(130) from None
    main()


if __name__ == "__main__":
    run()
