#!/bin/bash
# The pieces behind bench/RESULTS.md's fair-play ROC (2026-12-06): bench/fairplay.py collect, one
# table a line, each piece under a 240 s timeout.  Usage: bash bench/fairplay_collect.sh CACHE ROUND...
# (rounds 1-2 were played without the helped tables, 3-8 with them).
set -u
cd "$(dirname "$0")/.."
CACHE=$1; shift
B="timeout 240 .venv/bin/python bench/fairplay.py collect --cache $CACHE"
D='--options {"sar":"double"}'
for round in "$@"; do
 $B --game court-piece-2p --table hard,hard~0.1 --deals 6 --seed $round
 $B --game court-piece --table hard,hard~0.1,easy,hard --deals 5 --seed $round
 $B --game court-piece-2p --table hard~0.1,hard --deals 6 --seed $((100+round))
 $B --game court-piece --table hard,easy,hard~0.1,hard --deals 5 --seed $((100+round))
 $B --game court-piece-2p --table peeker:0.5,hard --deals 5 --seed $((200+round))
 $B --game court-piece --table peeker:0.5,hard,peeker:0.3,hard~0.1 --deals 5 --seed $((200+round))
 $B --game court-piece --table colluder,hard,colluder,hard~0.1 --deals 5 --seed $((300+round))
 $B --game goat --table hard,hard~0.1,easy,hard --deals 3 --seed $round
 $B --game goat --table hard,easy,hard~0.1,hard --deals 3 --seed $((100+round))
 $B --game goat --table peeker:0.5,hard,peeker:0.3,hard~0.1 --deals 3 --seed $((200+round))
 $B --game court-piece $D --table hard,hard~0.1,easy,hard --deals 3 --seed $round
 $B --game court-piece $D --table hard,easy,hard~0.1,hard --deals 3 --seed $((100+round))
 $B --game court-piece $D --table peeker:0.5,hard,peeker:0.3,hard~0.1 --deals 3 --seed $((200+round))
 $B --game court-piece $D --table colluder,hard,colluder,hard~0.1 --deals 3 --seed $((300+round))
 $B --game court-piece-2p --table peeker:0.3,hard --deals 4 --seed $((210+round))
 $B --game court-piece-2p --table peeker:0.8,hard --deals 4 --seed $((220+round))
 $B --game court-piece --table peeker:0.8,hard,hard,easy --deals 4 --seed $((220+round))
 $B --game goat --table peeker:0.8,hard,hard,easy --deals 2 --seed $((220+round))
 $B --game court-piece-2p --table helped,hard --deals 2 --seed $((240+round))
 $B --game court-piece --table helped,hard,easy,hard~0.1 --deals 2 --seed $((240+round))
done
echo DONE
