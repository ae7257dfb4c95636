#!/bin/bash
# The pieces behind bench/RESULTS.md's partnership ROC (2026-12-07): bench/collusion.py collect,
# one table a line, each under a timeout, niced.  Usage:
#   bash bench/collusion_collect.sh CACHE GAME ROUND...     (GAME: single, double or goat)
# Per round r: honest tables (every seat scanned) at seed r (the reference) and 100 + r (false
# alarms), a colluding partnership (its two seats scanned) at 300 + r.
set -u
cd "$(dirname "$0")/.."
CACHE=$1; GAME=$2; shift 2
B="timeout 1200 nice -n 10 .venv/bin/python bench/collusion.py collect --cache $CACHE"
case $GAME in
  single) G="--game court-piece"; N=4 ;;
  double) G="--game court-piece --options {\"sar\":\"double\"}"; N=1 ;;
  goat) G="--game goat"; N=2 ;;
esac
for r in "$@"; do
  $B $G --table hard,hard~0.1,easy,hard --deals $N --seed $r
  $B $G --table hard,easy~0.1,hard~0.2,easy --deals $N --seed $((100+r))
  $B $G --table colluder,hard,colluder,hard~0.1 --seats 0,2 --deals $N --seed $((300+r))
  $B $G --table hard~0.1,hard,easy,hard --deals $N --seed $((150+r))
  $B $G --table colluder,easy,colluder,hard --seats 0,2 --deals $N --seed $((350+r))
done
echo DONE
