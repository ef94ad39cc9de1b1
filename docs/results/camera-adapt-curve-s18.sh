#!/usr/bin/env bash
# Eighteenth session: the learning curve (10, 20, 40 and all 68 training photos of each fold) of the recipe shipped as
# models/photo/adapted (soup photo model + --augment camera, 400 steps, scope all, flip + cosine), one pass, seeds 1
# and 2 side by side. A measurement for issue 14 item 3; no choice depends on it.
# Run after npm run build, with ../shared beside the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
common=(--real ../shared/fixtures/real/pld-dev --model photo --folds 5 --curve 10,20,40,all --steps 400 --scope all --flip --schedule cosine --augment camera)
for seed in 1 2; do
  node bin/drone-harness.js transfer "${common[@]}" --seed "$seed" > "docs/results/transfer-real-camera-soup-curve-s$seed.txt" 2> "out/camera-soup-curve-s$seed.log" &
done
wait
