"""Run the arena measurements behind the bots' strength targets and print each with its command.

    .venv/bin/python bench/arena_targets.py --deals 400 --jobs 2 [--only NAME ...]

Each line is one ``taash arena`` run (the real command line, in a subprocess); the figures are
its JSON.  These runs are long on a small machine (the hard level searches every move), so
pick targets with ``--only`` and mind the machine's other users.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

TARGETS: dict[str, tuple[str, str | None, str, str, float]] = {
    # name: (game, options, team0, team1, required team-0 win rate)
    "cp-heuristic-random": ("court-piece", None, "heuristic", "random", 0.85),
    "cp-hard-heuristic": ("court-piece", None, "hard", "heuristic", 0.65),
    "cp2-hard-heuristic": ("court-piece", '{"sar": "double"}', "hard", "heuristic", 0.65),
    "cp-hard-ismcts": ("court-piece", None, "hard", "openspiel-ismcts", 0.60),
    "cp2-hard-ismcts": ("court-piece", '{"sar": "double"}', "hard", "openspiel-ismcts", 0.60),
    "2p-hard-heuristic": ("court-piece-2p", None, "hard", "heuristic", 0.60),
    "goat-hard-heuristic": ("goat", None, "hard", "heuristic", 0.60),
    "goat-heuristic-random": ("goat", None, "heuristic", "random", 0.0),
    "2p-heuristic-random": ("court-piece-2p", None, "heuristic", "random", 0.0),
}
# OpenSpiel's ISMCTS is given at least the hard level's median time a move (the README's rows).
EXTRA: dict[str, list[str]] = {
    "cp-hard-ismcts": ["--ismcts-ms", "34"],
    "cp2-hard-ismcts": ["--ismcts-ms", "40"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-ms", type=float, default=None)
    ap.add_argument("--only", nargs="*", choices=sorted(TARGETS), default=None)
    args = ap.parse_args()
    for name in args.only or list(TARGETS):
        game, options, t0, t1, need = TARGETS[name]
        cmd = ["taash", "arena", "--game", game, "--team0", t0, "--team1", t1,
               "--deals", str(args.deals), "--seed", str(args.seed), "--jobs", str(args.jobs),
               "--json", "--quiet"]
        if options:
            cmd[4:4] = ["--options", options]
        if args.budget_ms is not None:
            cmd += ["--budget-ms", str(args.budget_ms)]
        else:
            cmd += EXTRA.get(name, [])
        start = time.time()
        r = subprocess.run([sys.executable, "-m", "taash", *cmd[1:]],
                           capture_output=True, text=True)
        took = time.time() - start
        shown = " ".join(c if " " not in c else f"'{c}'" for c in cmd)
        if r.returncode != 0:
            print(f"{name}: FAILED ({r.stderr.strip()})  [{shown}]", flush=True)
            continue
        out = json.loads(r.stdout)
        lo, hi = out["ci95"]
        verdict = "" if not need else (" meets" if out["win_rate"] >= need else " BELOW") + \
            f" target {need:.0%}"
        print(f"{name}: win rate {out['win_rate']:.1%} (95% CI {lo:.1%}..{hi:.1%}),"
              f"{verdict}; ms/move {out['ms_per_move']} p95 {out['ms_p95']}; {took:.0f}s  "
              f"[{shown}]", flush=True)


if __name__ == "__main__":
    main()
