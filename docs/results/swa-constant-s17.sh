#!/usr/bin/env bash
# Seventeenth session: docs/results/swa-constant-decision-rule.txt. A' and B' of each seed side by side.
# Run after npm run build, with ../shared beside the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
common=(--real ../shared/fixtures/real/pld-dev --model models/photo/student-rowD --folds 5 --curve all --steps 400 --scope all --flip)
for seed in 1 2 3 4 5; do
  node bin/drone-harness.js transfer "${common[@]}" --seed "$seed" > "docs/results/transfer-real-swa-constA-s$seed.txt" 2> "out/swa-constA-s$seed.log" &
  node bin/drone-harness.js transfer "${common[@]}" --swa 0.5 --seed "$seed" > "docs/results/transfer-real-swa-constB-s$seed.txt" 2> "out/swa-constB-s$seed.log" &
  wait
done
