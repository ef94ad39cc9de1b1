#!/bin/bash
# WiSE-FT rows (rule: docs/results/wise-decision-rule.txt). Run from the repository root.
run() { node bin/drone-harness.js transfer --real ../shared/fixtures/real/pld-dev --model photo --folds 5 --curve all --steps 400 --scope all --flip --schedule cosine --tta flip --wise 0.5,0.75 --seed $1 > out/transfer-wise-s$1.txt 2>&1; echo "seed $1 done $(date -u +%H:%M:%S)"; }
echo "start $(date -u +%H:%M:%S)"
run 1 & run 2 & wait
run 3 & run 4 & wait
run 5
echo "all done $(date -u +%H:%M:%S)"
