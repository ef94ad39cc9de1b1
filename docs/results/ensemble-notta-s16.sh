#!/usr/bin/env bash
# Sixteenth session: docs/results/ensemble-notta-plan.txt (two seeds at a time). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { node bin/drone-harness.js transfer --real ../shared/fixtures/real/pld-dev --model photo --partner models/photo/student-rowD --folds 5 --curve all --steps 400 --scope all --flip --schedule cosine --seed $1 > docs/results/transfer-real-partner-notta-s$1.txt 2> out/partner-notta-s$1.log; }
date -u; run 1 & run 2 & wait; date -u; run 3 & run 4 & wait; date -u; run 5; date -u
