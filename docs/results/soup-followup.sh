#!/bin/bash
# The soup photo model measured with the old one's commands (plan: soup-followup-plan.txt). Run from the repository root.
# (Seed 1 first ran without --curve all, the whole learning curve: transfer-real-soup-curve-s1.txt.)
echo "start $(date -u +%H:%M:%S)"
for s in 1 2 3 4 5; do
  node bin/drone-harness.js transfer --real ../shared/fixtures/real/pld-dev --model photo --folds 5 --curve all --steps 400 --scope all --flip --schedule cosine --tta flip --seed $s > out/transfer-soup-all-s$s.txt 2>&1
  echo "transfer seed $s done $(date -u +%H:%M:%S)"
done
node bin/drone-harness.js eval --planner --detectors models/photo --scenario default --split test --planner-rows planner_student --flights 1 --ap-seeds 20 > out/eval-photo-soup-sim-test.txt 2>&1
echo "all done $(date -u +%H:%M:%S)"
