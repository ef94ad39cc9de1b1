#!/bin/bash
# Teacher fifth stage (rule: teacher-s5-decision-rule.txt). Run from the repository root.
set -e
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split val --flights 40 --cache cache/default-val --rng-seed 2
node bin/drone-harness.js dataset --scenario default --split val --flights 40 --cache cache/default-val-perturbed --rng-seed 2 --perturbed
echo "val done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 200 --cache cache/default-train
node bin/drone-harness.js dataset --scenario default --split train --flights 300 --first-seed 2000 --cache cache/default-train-2
node bin/drone-harness.js dataset --scenario default --split train --flights 500 --first-seed 10000 --cache cache/default-train-3
echo "train done $(date -u +%H:%M:%S)"
node bin/drone-harness.js fit --data cache/default-train,cache/default-train-2,cache/default-train-3 --val cache/default-val --size teacher --init models/pipeline/teacher --out out/teacher-s5 --minutes 85 --steps 5000 --lr 5e-4 --eval-every 500 --curve-frames 300 --checkpoint-every 250
echo "fit done $(date -u +%H:%M:%S)"
for d in models/pipeline/teacher out/teacher-s5/teacher; do
  node bin/drone-harness.js fit --evaluate $d --val cache/default-val
  node bin/drone-harness.js fit --evaluate $d --val cache/default-val-perturbed
done
echo "validation done $(date -u +%H:%M:%S)"
