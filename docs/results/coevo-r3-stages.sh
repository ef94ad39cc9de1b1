#!/bin/bash
# Co-evolution round 3 (same recipe as round 2) (issue 13). Logs in out/logs/r3-*.log
set -e
cd /work/main
S=sim/scenarios/default.yaml
echo "start $(date -u +%T)" > out/logs/r3-stages.log
node bin/drone-harness.js dataset --scenario $S --split train --flights 120 --first-seed 7000 --cache cache/r3-pair-flights --workers 2 \
  --pilot-detector models/coevo/student-r2 --pilot-harness models/coevo/harness-r2 --region-clip 2 --explore 0 > out/logs/r3-dataset.log 2>&1
echo "dataset done $(date -u +%T)" >> out/logs/r3-stages.log
node bin/drone-harness.js fit --data cache/default-train,cache/default-train-planner,cache/r1-student-flights,cache/r2-pair-flights,cache/r3-pair-flights \
  --val cache/default-val --size student --init models/coevo/student-r2 --out out/coevo-r3 \
  --minutes 45 --steps 4000 --lr 5e-4 --eval-every 500 --checkpoint-every 500 > out/logs/r3-fit.log 2>&1
echo "fit done $(date -u +%T)" >> out/logs/r3-stages.log
node bin/drone-harness.js fit-harness --detector out/coevo-r3/student --harness models/coevo/harness-r2 --region-clip 2 \
  --scenario $S --risk-target contact --flights 90 --first-seed 7500 --val-flights 20 --val-first-seed 3500 \
  --out out/coevo-r3-harness --steps 1500 --workers 2 > out/logs/r3-fit-harness.log 2>&1
echo "fit-harness done $(date -u +%T)" >> out/logs/r3-stages.log
node bin/drone-harness.js eval --harness --scenario $S --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_off,coevo_student_harness --coevo out/coevo-r3/student --coevo-harness out/coevo-r3-harness --region-clip 2 --workers 2 > out/logs/r3-eval-val.log 2>&1
echo "eval val done $(date -u +%T)" >> out/logs/r3-stages.log
