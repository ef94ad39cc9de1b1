#!/usr/bin/env bash
# Thirty-eighth session, docs/results/woods-round-plan.txt: a student phase on default and trees_only on-policy frames.
#   bash docs/results/woods-round-s38.sh data   # on-policy caches (120 train seeds from 50000 per family), val caches
#   bash docs/results/woods-round-s38.sh fit    # fine-tune student-r2 on them (at most 40 min), evaluate on default val
#   bash docs/results/woods-round-s38.sh harness  # the round's harness phase for student-w3 (woods-round-harness-plan.txt)
# WORKERS (default 1) sets the dataset's worker threads. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${WORKERS:-1}
case "${1:?usage: woods-round-s38.sh data|fit|harness}" in
  data)
    for fam in trees_only default; do
      node bin/drone-harness.js dataset --scenario "sim/scenarios/$fam.yaml" --split train --flights 120 --first-seed 50000 \
        --cache "cache/w3-$fam-pair" --workers "$W" --pilot-detector models/coevo/student-r2 \
        --pilot-harness models/coevo/harness-gap --region-clip 8 --explore 0
      node bin/drone-harness.js dataset --scenario "sim/scenarios/$fam.yaml" --split val --flights 20 --first-seed 40000 \
        --cache "cache/w3-$fam-val" --workers "$W"
      echo "$fam data done $(date -u +%H:%M)"
    done ;;
  fit)
    node bin/drone-harness.js fit --data cache/w3-trees_only-pair,cache/w3-default-pair --val cache/w3-trees_only-val \
      --size student --init models/coevo/student-r2 --out out/woods-r3 --minutes 40 --steps 3000 --lr 5e-4 \
      --eval-every 500 --checkpoint-every 500
    node bin/drone-harness.js fit --evaluate out/woods-r3/student --val cache/w3-default-val
    node bin/drone-harness.js fit --evaluate models/coevo/student-r2 --val cache/w3-default-val
    node bin/drone-harness.js fit --evaluate models/coevo/student-r2 --val cache/w3-trees_only-val
    echo "fit done $(date -u +%H:%M)" ;;
  harness)
    node bin/drone-harness.js fit-harness --detector models/coevo/student-w3 --harness models/coevo/harness-gap --region-clip 8 \
      --scenario sim/scenarios/default.yaml --risk-target wire-gap --flights 90 --first-seed 5500 --val-flights 20 \
      --val-first-seed 3500 --out out/w3-harness --steps 1500 --workers "$W"
    echo "harness done $(date -u +%H:%M)" ;;
  *) echo "woods-round-s38.sh: unknown stage $1 (data, fit or harness)" >&2; exit 2 ;;
esac
