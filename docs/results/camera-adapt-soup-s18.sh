#!/usr/bin/env bash
# Eighteenth session: docs/results/camera-adapt-soup-decision-rule.txt. D (one pass) and E (--tta flip) of each seed side by side.
# Run after npm run build, with ../shared beside the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
common=(--real ../shared/fixtures/real/pld-dev --model photo --folds 5 --curve all --steps 400 --scope all --flip --schedule cosine --augment camera)
for seed in 1 2 3 4 5; do
  node bin/drone-harness.js transfer "${common[@]}" --seed "$seed" > "docs/results/transfer-real-camera-soup-D-s$seed.txt" 2> "out/camera-soup-D-s$seed.log" &
  node bin/drone-harness.js transfer "${common[@]}" --tta flip --seed "$seed" > "docs/results/transfer-real-camera-soup-E-s$seed.txt" 2> "out/camera-soup-E-s$seed.log" &
  wait
  echo "seed $seed done $(date -u +%H:%M:%S)"
done
