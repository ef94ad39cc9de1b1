#!/usr/bin/env bash
# Sixteenth session: the five runs of docs/results/soup-balance-decision-rule.txt (two seeds at a time).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { node bin/drone-harness.js transfer --real ../shared/fixtures/real/pld-dev --model photo --folds 5 --curve all --steps 400 --scope all --flip --schedule cosine --tta flip --balance-sets --seed $1 > docs/results/transfer-real-soup-balance-s$1.txt 2> out/soup-balance-s$1.log; }
date -u; run 1 & run 2 & wait; date -u; run 3 & run 4 & wait; date -u; run 5; date -u
