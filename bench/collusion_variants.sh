#!/bin/bash
# The pieces behind bench/RESULTS.md's "helper-colreal" ROC (2026-12-07): colluders unlike the
# detector's model, against honest partnerships.  bench/collusion.py collect, one table a line,
# each under a timeout, niced.  Usage:
#   bash bench/collusion_variants.sh CACHE GAME ROUND...     (GAME: single or double)
# Per round r: the honest tables of bench/collusion_collect.sh's false-alarm pool (seeds 100 + r
# and 150 + r, every seat scanned) and colluding sides (their two seats scanned): hard looking
# at the partner's hand on a share of its decisions (colluder~0.5, 500 + r; colluder~0.25,
# 600 + r; colluder~0.1, 800 + r), in single sar the rules of thumb told the partner's hand
# (colluder:easy, 700 + r), and in odd rounds the detector's own model (colluder, 300 + r: the
# first deals of collusion_collect.sh's colluder pieces).  The honest rates are the shipped
# reference's (bench/collusion.py roc --reference), so no reference tables (seeds 1-99) are
# played.
set -u
cd "$(dirname "$0")/.."
CACHE=$1; GAME=$2; shift 2
B="timeout 900 nice -n 10 .venv/bin/python bench/collusion.py collect --cache $CACHE"
case $GAME in
  single) G="--game court-piece"; N=2 ;;
  double) G="--game court-piece --options {\"sar\":\"double\"}"; N=1 ;;
esac
for r in "$@"; do
  $B $G --table hard,easy~0.1,hard~0.2,easy --deals $N --seed $((100+r))
  $B $G --table colluder~0.25,hard,colluder~0.25,hard~0.1 --seats 0,2 --deals $N --seed $((600+r))
  $B $G --table colluder~0.1,hard,colluder~0.1,hard~0.1 --seats 0,2 --deals $N --seed $((800+r))
  $B $G --table hard~0.1,hard,easy,hard --deals $N --seed $((150+r))
  $B $G --table colluder~0.5,hard,colluder~0.5,hard~0.1 --seats 0,2 --deals $N --seed $((500+r))
  [ "$GAME" = single ] && \
    $B $G --table colluder:easy,hard,colluder:easy,hard~0.1 --seats 0,2 --deals $N --seed $((700+r))
  [ $((r % 2)) = 1 ] && \
    $B $G --table colluder,hard,colluder,hard~0.1 --seats 0,2 --deals $N --seed $((300+r))
done
echo DONE
