"""How far any fair bot could go against the rules of thumb in single sar: a side that sees
every hand, on the arena's boards (duplicate: each deck once from each side).

    .venv/bin/python bench/court_ceiling.py --boards 200 --seed 1
        [--mode dd|exploit|playout|lookahead]
        [--jobs 2]

``dd``: the seeing side plays the double-dummy best card on the real deal at every turn (the
rules of thumb's card where it is among the best), so it loses only where the deal cannot be
won against a perfect defence, or where it would have paid to play for the opponents' habits.
``exploit``: the seeing side also plays each candidate card on to the deal's end against the
real rules-of-thumb opponents (itself double dummy) and takes a card that wins there: a best
response to those opponents, with every card known.
``playout``: the seeing side plays each candidate on to the deal's end with every seat, its own
included, by the rules of thumb, and takes the card that wins there: the hard bot's search
with the real deal as its only sample, so the gap to ``hard`` is what reading hands costs it.
``lookahead``: as ``playout``, but in those playouts the seeing side's own later cards look one
card ahead too (each of its cards played on by the rules of thumb, the one that wins kept): what
a better plan for the side's own later cards is worth when every hand is known.

Both sides call trumps by the rules of thumb.  The boards, first seats and bot seeds are the
arena's (``taash arena --game court-piece --seed S``), so the figure compares directly with
``--team0 hard --team1 heuristic`` on the same seed.  It measures a bound, not a bot: no fair
player sees the other hands.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from multiprocessing import Pool
from typing import Any

import dd  # bench/dd.py: this script runs from bench/, beside it
from taash.bots import court as cp
from taash.bots.arena import ArenaConfig, arena_bot, board_match, confidence, hash_seed
from taash.bots.hard import cp_candidates, cp_playout, cp_rule_card, public_knowledge
from taash.bots.sampling import CourtSampler
from taash.cards import card_list
from taash.games.tricks import ACTION_TEXT, PACK, SUIT_MASK, SUIT_OF

GAME = "court-piece"
RULES_MODES = ("playout", "lookahead")  # the modes that need no double-dummy solver


def all_hands(m: Any) -> list[int]:
    return [PACK.mask(m.view(s)["hand"]) for s in range(4)]


def seeing_card(m: Any, view: dict[str, Any], mode: str, bots: dict[int, Any]) -> str:
    """The seeing side's action at ``view``'s turn."""
    legal: list[str] = view["legal_actions"]
    if view["phase"] == "trump":
        return cp.call_trump(view)
    if len(legal) == 1:
        return legal[0]
    hands = all_hands(m)
    info = CourtSampler(view).info
    side = info.seat & 1
    # The playouts alone decide in the rules modes: no solve (nor the solver) needed there.
    res = {} if mode in RULES_MODES else dd.solve(hands, info.trump, info.leader, info.trick)[0]
    mask = PACK.mask(a.partition(":")[2] for a in legal)
    prior = cp.choose_play(cp.knowledge_from_view(view), mask)
    need = 7 - int(view["tricks"][side])

    def key(c: int) -> tuple[int, int, bool]:
        return int(res[c] >= need), res[c], c == prior

    if mode == "dd":
        return ACTION_TEXT[max(card_list(mask), key=key)]
    if mode == "lookahead":
        return ACTION_TEXT[look_ahead(m, side, prior, lambda x: side_lookahead(x, side))]

    def played_on(c: int) -> tuple[int, ...]:
        x = m.clone()
        x.apply(info.seat, ACTION_TEXT[c])
        finish(x, side, "rules" if mode == "playout" else "dd", bots)
        r = x.summary()["deals"][0]
        won = int(r["winner"] == side)
        return (won, r["tricks"][side], c == prior) if mode == "playout" else (won, *key(c))

    return ACTION_TEXT[best_candidate(hands, info.seat, mask, played_on)]


def best_candidate(hands: list[int], seat: int, legal: int,
                   value: Callable[[int], tuple[int, ...]]) -> int:
    """The candidate among ``seat``'s ``legal`` cards (one per run of equivalent cards) with
    the highest ``value``, the first in candidate order on a tie."""
    others = 0
    for s in range(4):
        if s != seat:
            others |= hands[s]
    return max(cp_candidates(legal, others), key=value)


def public(m: Any) -> tuple[int, list[int], list[int]]:
    """The public knowledge in ``m``'s deal (``public_knowledge``)."""
    return public_knowledge(CourtSampler(m.view(0)).info)


def look_ahead(m: Any, side: int, rule: int, play_on: Callable[[Any], Any]) -> int:
    """The card of the seat to move (on ``side``) that wins the deal when ``play_on`` plays
    the rest, then the one taking most tricks, then ``rule``."""
    seat = m.to_move
    hands = all_hands(m)
    legal = hands[seat]
    if m.trick:
        legal = legal & SUIT_MASK[SUIT_OF[m.trick[0]]] or legal

    def played_on(c: int) -> tuple[int, ...]:
        x = m.clone()
        x.apply_id(seat, c)
        play_on(x)
        return int(x.won[side] >= 7), x.won[side], int(c == rule)

    return best_candidate(hands, seat, legal, played_on)


def side_lookahead(m: Any, side: int) -> None:
    """Play on to the deal's end: the other side by the rules of thumb, ``side`` one card
    ahead (each of its cards played on by the rules of thumb, the best kept)."""
    while m.to_move >= 0:
        seat = m.to_move
        played, voids, leads = public(m)
        rule = cp_rule_card(m, played, voids, leads)
        if seat & 1 == side:
            card = look_ahead(m, side, rule,
                              lambda x: cp_playout(x, *public(x)) if x.to_move >= 0 else 0)
        else:
            card = rule
        m.apply_id(seat, card)


def finish(m: Any, side: int, mode: str, bots: dict[int, Any]) -> None:
    """Play the deal to its end: ``side`` seeing every hand (by ``mode``; ``rules``: by the
    rules of thumb like the others), the others by their bots."""
    while not (m.needs_deal() or m.is_over()):
        s = m.actors()[0]
        v = m.view(s)
        seeing = s & 1 == side and mode != "rules"
        m.apply(s, seeing_card(m, v, mode, bots) if seeing else bots[s].act(v))


def play(task: tuple[int, int, bool, str]) -> int:
    """One deal of a board; 1 if the seeing side won it."""
    seed, board, swapped, mode = task
    m = board_match(ArenaConfig(GAME, {}, "seeing", "heuristic", 0, seed), board)
    side = 1 if swapped else 0
    # The other side's bots play the real deal; the seeing side's play only in its playouts.
    bots = {s: arena_bot(GAME, "heuristic", hash_seed(seed, board, s, swapped), None)
            for s in range(4)}
    finish(m, side, mode, bots)
    return int(m.summary()["deals"][0]["winner"] == side)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200, help="boards (two deals each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=("dd", "exploit", *RULES_MODES), default="dd")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if args.boards < 1 or args.jobs < 1:
        ap.error("--boards and --jobs must be at least 1")
    if args.mode not in RULES_MODES and not dd.available():
        print(f"--mode {args.mode} needs the double-dummy solver, which is not available "
              "(endplay comes with the dev install: pip install -e '.[dev]')", file=sys.stderr)
        return 2
    tasks = [(args.seed, b, sw, args.mode) for b in range(args.boards) for sw in (False, True)]
    with Pool(args.jobs) as pool:
        won = pool.map(play, tasks, chunksize=2)
    per_board = [(won[2 * i] + won[2 * i + 1]) / 2 for i in range(args.boards)]
    rate = sum(won) / len(won)
    lo, hi = confidence(per_board, rate, len(won))
    print(f"single sar, seed {args.seed}, {len(won)} deals: the side seeing every hand "
          f"({args.mode}) wins {rate:.1%} (95% CI {lo:.1%} .. {hi:.1%}) against heuristic")
    return 0


if __name__ == "__main__":
    sys.exit(main())
