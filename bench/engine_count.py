"""A fixed amount of random play, for counting instructions (not timed): run it under
``valgrind --tool=callgrind`` with N actions and with 0, and divide the difference by N.

    valgrind --tool=callgrind .venv/bin/python bench/engine_count.py goat 20000
    valgrind --tool=callgrind .venv/bin/python bench/engine_count.py goat 0
    valgrind --tool=callgrind .venv/bin/python bench/engine_count.py hearts 20000   # open-spiel

The same harness as bench/engine.py (``actors``, ``legal_ids``, ``apply_id``; pyspiel's
``legal_actions`` and ``apply_action``, chance nodes not counted), without its clock: counts
are the same whatever else the machine is doing, where timed ratios are not.
"""

from __future__ import annotations

import random
import sys


def taash_actions(game: str, n: int) -> int:
    from taash.games import get_game

    cls = get_game(game)
    opts = {"target": 1000000} if game != "court-piece" else {"session_end": None}
    rng = random.Random(5)
    done = 0
    while done < n:
        st = cls.new_match(opts, rng=rng, deal=False)
        st.deal_from(rng)
        while not st.needs_deal() and not st.is_over() and done < n:
            actors = st.actors()
            seat = actors[0] if len(actors) == 1 else rng.choice(actors)
            st.apply_id(seat, rng.choice(st.legal_ids(seat)))
            done += 1
    return done


def hearts_actions(n: int) -> int:
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(5)
    done = 0
    while done < n:
        st = game.new_initial_state()
        while not st.is_terminal() and done < n:
            if st.is_chance_node():
                st.apply_action(rng.choice(st.chance_outcomes())[0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
                done += 1
    return done


if __name__ == "__main__":
    which, count = sys.argv[1], int(sys.argv[2])
    print(hearts_actions(count) if which == "hearts" else taash_actions(which, count))
