"""The hard bot's single-sar card play, measured decision by decision (less noisy than arenas).

    .venv/bin/python bench/court_decisions.py collect --boards 200 --out pos.jsonl
    .venv/bin/python bench/court_decisions.py errors pos.jsonl [--set NAME=VALUE ...]
    .venv/bin/python bench/court_decisions.py paired pos.jsonl --set NAME=VALUE [--every 3]
    .venv/bin/python bench/court_decisions.py reading pos.jsonl [--set NAME=VALUE ...] [--uniform]
    .venv/bin/python bench/court_decisions.py calls --boards 600 [--first 0]

``collect`` plays four-player single sar, ``hard`` on one side and ``heuristic`` on the other
(the side alternates by board), and saves every hard decision with a choice: the view, the real
hands and the board (JSON lines).

``errors`` keeps the positions where, with every hand known, the card decides whether the side
can still win the deal (double dummy), and counts how often ``hard`` (with the ``--set``
settings) and the rules of thumb play a card that cannot win there while another could.  It
measures reading hands against a perfect defence; it cannot see plays that only pay against
weaker opponents.

``paired`` decides every position with the default settings and with ``--set``; where the two
cards differ, each is played on to the deal's end from the real position (the side by ``hard``
at a 60 ms budget, the opponents by ``heuristic``, the same seeds both ways) and the deals each
won are compared.

``reading`` measures the hand reading alone: at each position it draws ``--samples`` deals from
the posterior chain as ``hard`` does (``COURT_EPS``, ``BURN``, ``THIN``; ``--uniform``: deals drawn
uniformly instead) and reports the share of the unseen cards each sample puts in the right hand
(the partner's and the opponents' apart), and how many cards change hands from one sample to the
next (consecutive chain samples are correlated; fully mixed samples change the most).

``calls`` looks at the trump call instead: on each board the caller's side is ``hard``; where its
call differs from the rules of thumb's, the deal is played on from each call (the side ``hard``,
the other ``heuristic``, both at their default budget, the same seeds both ways) and the deals
each call won are compared.

``--set`` names a module constant of ``taash.bots.hard`` or ``taash.bots.pimc``
(``Z_OVERRULE=0.5``, ``COURT_EPS=0.02``, ``SINGLE_SAR_BUDGET_MS=300`` ...).  A 2-core machine
collects about 100 boards in 3 minutes (``--jobs 2``).
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import random
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import dd  # bench/dd.py: this script runs from bench/, beside it
from taash.bots import court as cp
from taash.bots import hard, pimc
from taash.bots.arena import ArenaConfig, arena_bot, board_match, hash_seed
from taash.bots.infer import CourtChain
from taash.bots.sampling import CourtSampler
from taash.games.tricks import PACK

GAME = "court-piece"
CFG = ArenaConfig(GAME, {}, "hard", "heuristic", 0, 99)
Settings = dict[str, Any]
# One position's hand reading: (stage, right share: all, the partner's, the opponents'; cards
# moved between consecutive samples); None where that seat holds no unseen card.
Reading = tuple[int, float, float | None, float | None, float]


def hard_side(board: int) -> int:
    """The side (0 or 1) the hard level holds on this board."""
    return board % 2


def collect_board(board: int) -> list[dict[str, Any]]:
    m = board_match(CFG, board)
    side = hard_side(board)
    bots = [arena_bot(GAME, "hard" if s & 1 == side else "heuristic",
                      hash_seed(CFG.seed, board, s, False), None) for s in range(4)]
    out = []
    while not (m.needs_deal() or m.is_over()):
        s = m.actors()[0]
        view = m.view(s)
        if s & 1 == side and view.get("phase") == "play" and len(view["legal_actions"]) > 1:
            hands = [PACK.mask(m.view(o)["hand"]) for o in range(4)]
            out.append({"board": board, "view": view, "hands": hands})
        m.apply(s, bots[s].act(view))
    return out


def card_of(action: str) -> int:
    return int(PACK.mask([action.partition(":")[2]])).bit_length() - 1


# The modules whose constants ``--set`` may change: the hard level's Court Piece part and its
# search (a name both hold, such as a re-exported budget, is set in both).
TUNABLE = (hard, pimc)


def apply_settings(settings: Settings) -> None:
    for name, value in settings.items():
        for mod in TUNABLE:
            if hasattr(mod, name):
                setattr(mod, name, value)


def decide(pos: dict[str, Any], settings: Settings, defaults: Settings, seed: int) -> str:
    apply_settings({**defaults, **settings})
    a = hard.HardCourtBot(GAME, seed=seed).act(pos["view"])
    apply_settings(defaults)
    assert a is not None
    return a


def truth(pos: dict[str, Any]) -> dict[int, bool]:
    """For each legal card: can the side still win the deal with it, every hand known?"""
    view = pos["view"]
    info = CourtSampler(view).info
    need = 7 - int(view["tricks"][info.seat & 1])
    res, _ = dd.solve(pos["hands"], info.trump, info.leader, info.trick)
    return {card_of(a): res[card_of(a)] >= need for a in view["legal_actions"]}


def errors_task(task: tuple[int, dict[str, Any], dict[int, bool], Settings, Settings]
                ) -> tuple[bool, bool]:
    i, pos, wins, settings, defaults = task
    view = pos["view"]
    mine = wins[card_of(decide(pos, settings, defaults, 1000 + i))]
    k = cp.knowledge_from_view(view)
    prior = cp.choose_play(k, PACK.mask(a.partition(":")[2] for a in view["legal_actions"]))
    return not mine, not wins[prior]


def play_on(pos: dict[str, Any], action: str, seed: int) -> int:
    """Replay the board to the position, play ``action`` and finish the deal; 1 if won."""
    view = pos["view"]
    m = board_match(CFG, pos["board"])
    for h in view["history"]:
        m.apply(h["seat"], h["action"])
    m.apply(view["seat"], action)
    side = view["seat"] & 1
    bots = [hard.HardCourtBot(GAME, seed=seed + s, budget_ms=60) if s & 1 == side
            else arena_bot(GAME, "heuristic", seed + s, None) for s in range(4)]
    return finish(m, side, bots)


def finish(m: Any, side: int, bots: list[Any]) -> int:
    """Play the deal to its end with ``bots``; 1 if ``side`` won it."""
    while not (m.needs_deal() or m.is_over()):
        s = m.actors()[0]
        m.apply(s, bots[s].act(m.view(s)))
    return int(m.summary()["deals"][0]["winner"] == side)


def calls_task(board: int) -> tuple[int, int] | None:
    """The caller's side ``hard``: where its trump call differs from the rules of thumb's,
    the deal played on from each call (the opponents ``heuristic``, the arena's seeds, each
    level at its default budget); (won with hard's call, won with the rules' call)."""
    m = board_match(CFG, board)
    caller = m.actors()[0]
    view = m.view(caller)
    side = caller & 1
    seeds = [hash_seed(CFG.seed, board, s, False) for s in range(4)]
    mine = arena_bot(GAME, "hard", seeds[caller], None).act(view)
    rule = cp.call_trump(view)
    if mine == rule or mine is None:
        return None
    won = []
    for call in (mine, rule):
        x = m.clone()
        x.apply(caller, call)
        bots = [arena_bot(GAME, "hard" if s & 1 == side else "heuristic", seeds[s], None)
                for s in range(4)]
        won.append(finish(x, side, bots))
    return won[0], won[1]


def paired_task(task: tuple[int, dict[str, Any], Settings, Settings]) -> tuple[int, int] | None:
    i, pos, settings, defaults = task
    a = decide(pos, {}, defaults, 5000 + i)
    b = decide(pos, settings, defaults, 5000 + i)
    if a == b:
        return None
    return play_on(pos, a, 777 + i), play_on(pos, b, 777 + i)


def reading_task(task: tuple[int, dict[str, Any], Settings, Settings, int, bool]
                 ) -> Reading | None:
    """The hand reading at one position (``Reading``); None if there is nothing to read."""
    i, pos, settings, defaults, n, uniform = task
    apply_settings({**defaults, **settings})
    rng = random.Random(99 + i)
    sampler = CourtSampler(pos["view"])
    info = sampler.info
    place = {c: s for s in sampler.others for c in sampler.unknown if pos["hands"][s] >> c & 1}
    if uniform:
        drawn = [sampler.hands(rng) for _ in range(n)]
        samples = [h for h in drawn if h is not None]
    else:
        chain = CourtChain(sampler, hard.COURT_EPS, rng, burn=hard.BURN, thin=hard.THIN)
        samples = [chain.next(rng) for _ in range(n)] if chain.ok else []
    apply_settings(defaults)
    if len(samples) < 2 or not place:
        return None
    partner = (info.seat + 2) % 4
    right = {c: sum(h[s] >> c & 1 for h in samples) / len(samples) for c, s in place.items()}
    mine = [right[c] for c, s in place.items() if s == partner]
    theirs = [right[c] for c, s in place.items() if s != partner]
    moved = sum(sum((a[s] ^ b[s]).bit_count() for s in sampler.others) / 2
                for a, b in itertools.pairwise(samples)) / (len(samples) - 1)
    stage = 0 if len(info.history) < 14 else 1 if len(info.history) < 30 else 2
    return (stage, sum(right.values()) / len(right),
            sum(mine) / len(mine) if mine else None,
            sum(theirs) / len(theirs) if theirs else None, moved)


def mean_of(values: list[float | None]) -> float:
    """The mean of the values given (None: nothing to measure at that position)."""
    got = [v for v in values if v is not None]
    return sum(got) / len(got) if got else float("nan")


def report_reading(res: list[Reading], what: str) -> None:
    print(f"hand reading, {what}: share of the unseen cards placed in the right hand "
          f"(partner's, opponents'), cards moved between consecutive samples")
    for name, rows in (("all", res), ("early", [r for r in res if r[0] == 0]),
                       ("middle", [r for r in res if r[0] == 1]),
                       ("late", [r for r in res if r[0] == 2])):
        if rows:
            right, mine, theirs, moved = (mean_of([r[j] for r in rows]) for j in range(1, 5))
            print(f"  {name:7s}{len(rows):5d} positions  right {right:.1%} ({mine:.1%}, "
                  f"{theirs:.1%})  moved {moved:.2f}")


def parse_settings(items: list[str]) -> Settings:
    out: Settings = {}
    for item in items:
        name, eq, text = item.partition("=")
        if not eq or not name.isupper() or not any(hasattr(m, name) for m in TUNABLE):
            raise SystemExit(f"--set {item!r}: expected NAME=VALUE with NAME a constant of "
                             f"taash.bots.hard or taash.bots.pimc")
        try:
            out[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise SystemExit(f"--set {item!r}: {text!r} is not a Python literal") from None
    return out


def load(path: str, every: int) -> list[dict[str, Any]]:
    try:
        lines = Path(path).read_text().splitlines()
        return [json.loads(line) for line in lines[::every] if line.strip()]
    except (OSError, ValueError) as e:
        raise SystemExit(f"cannot read positions from {path}: {e}") from None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--boards", type=int, default=200)
    c.add_argument("--first", type=int, default=0)
    c.add_argument("--out", required=True)
    t = sub.add_parser("calls")
    t.add_argument("--boards", type=int, default=600)
    t.add_argument("--first", type=int, default=0)
    for name in ("errors", "paired", "reading"):
        p = sub.add_parser(name)
        p.add_argument("positions")
        p.add_argument("--set", nargs="*", default=[], metavar="NAME=VALUE")
        p.add_argument("--every", type=int, default=1, help="use every k-th position")
    sub.choices["reading"].add_argument("--samples", type=int, default=40)
    sub.choices["reading"].add_argument("--uniform", action="store_true",
                                        help="deals drawn uniformly, not from the chain")
    for p in sub.choices.values():
        p.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not dd.available():
        raise SystemExit("the double-dummy solver is not available (endplay is not installed)")
    with Pool(args.jobs) as pool:
        if args.cmd == "collect":
            boards = range(args.first, args.first + args.boards)
            got = pool.map(collect_board, boards, chunksize=1)
            with open(args.out, "w") as f:
                for rows in got:
                    for row in rows:
                        f.write(json.dumps(row) + "\n")
            print(f"{sum(map(len, got))} positions from {len(boards)} boards -> {args.out}")
            return
        if args.cmd == "calls":
            boards = range(args.first, args.first + args.boards)
            res = [r for r in pool.map(calls_task, boards, chunksize=4) if r is not None]
            print(f"{len(res)} of {len(boards)} boards where hard's trump call differs from the "
                  f"rules of thumb's; deals won with hard's call {sum(a for a, _ in res)}, "
                  f"with the rules' call {sum(b for _, b in res)} (only with hard's "
                  f"{sum(a > b for a, b in res)}, only with the rules' "
                  f"{sum(b > a for a, b in res)})")
            return
        settings = parse_settings(args.set)
        defaults = {name: getattr(next(m for m in TUNABLE if hasattr(m, name)), name)
                    for name in settings}
        positions = load(args.positions, max(1, args.every))
        if args.cmd == "reading":
            n = max(2, args.samples)
            asks = [(i, p, settings, defaults, n, args.uniform) for i, p in enumerate(positions)]
            read = [r for r in pool.map(reading_task, asks, chunksize=4) if r is not None]
            what = (f"{n} chain samples, settings {settings or 'default'}"
                    if not args.uniform else "uniform deals")
            report_reading(read, what)
            return
        if args.cmd == "errors":
            known = [(p, truth(p)) for p in positions]
            matter = [(p, w) for p, w in known if len(set(w.values())) > 1]
            work = [(i, p, w, settings, defaults) for i, (p, w) in enumerate(matter)]
            res = pool.map(errors_task, work, chunksize=4)
            print(f"{len(matter)} of {len(positions)} positions where the card decides the deal "
                  f"(double dummy); losing cards played: hard {sum(r[0] for r in res)}, "
                  f"rules of thumb {sum(r[1] for r in res)}; settings {settings or 'default'}")
            return
        tasks = [(i, p, settings, defaults) for i, p in enumerate(positions)]
        out = [r for r in pool.map(paired_task, tasks, chunksize=4) if r is not None]
        base = sum(1 for a, b in out if a > b)
        other = sum(1 for a, b in out if b > a)
        print(f"{len(positions)} positions, {len(out)} decided differently by {settings}; "
              f"deals won only with the default card: {base}, only with the other: {other}")


if __name__ == "__main__":
    main()
