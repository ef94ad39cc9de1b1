#!/usr/bin/env bash
# Twenty-third session: one co-evolution round around the wire-gap harness (issue 13), then stage 1 of
# docs/results/coevo-gap-r3-decision-rule.txt. Run after npm run build. Logs in out/logs/gr3-*.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out/logs cache
S=sim/scenarios/default.yaml
L=out/logs/gr3-stages.log
stamp() { echo "$1 $(date -u +%T)" >> $L; }
stamp start
# the caches of rounds 0-2, rebuilt from their committed commands (docs/pipeline.md, docs/coevolution.md)
[ -d cache/default-train ] || node bin/drone-harness.js dataset --scenario default --split train --flights 200 --cache cache/default-train > out/logs/gr3-d0.log 2>&1
[ -d cache/default-val ] || node bin/drone-harness.js dataset --scenario default --split val --flights 40 --cache cache/default-val --rng-seed 2 > out/logs/gr3-dv.log 2>&1
stamp expert-and-val
# two one-worker datasets side by side
[ -d cache/default-train-planner ] || node bin/drone-harness.js dataset --scenario default --split train --flights 100 --first-seed 1000 \
  --cache cache/default-train-planner --workers 1 --pilot-detector models/pipeline/planner-flights-teacher --explore 0 > out/logs/gr3-dp.log 2>&1 &
[ -d cache/r1-student-flights ] || node bin/drone-harness.js dataset --scenario $S --split train --flights 120 --first-seed 2000 \
  --cache cache/r1-student-flights --workers 1 --pilot-detector models/pipeline/student --explore 0 > out/logs/gr3-d1.log 2>&1 &
wait
stamp planner-and-r1
[ -d cache/r2-pair-flights ] || node bin/drone-harness.js dataset --scenario $S --split train --flights 120 --first-seed 5000 \
  --cache cache/r2-pair-flights --workers 2 --pilot-detector models/coevo/student \
  --pilot-harness models/coevo/harness-contact --region-clip 2 --explore 0 > out/logs/gr3-d2.log 2>&1
stamp r2
# student phase: the shipped pair flies new train seeds
[ -d cache/gr3-pair-flights ] || node bin/drone-harness.js dataset --scenario $S --split train --flights 120 --first-seed 80000 \
  --cache cache/gr3-pair-flights --workers 2 --pilot-detector models/coevo/student-r2 \
  --pilot-harness models/coevo/harness-gap --region-clip 8 --explore 0 > out/logs/gr3-d3.log 2>&1
stamp gr3-flights
node bin/drone-harness.js fit --data cache/default-train,cache/default-train-planner,cache/r1-student-flights,cache/r2-pair-flights,cache/gr3-pair-flights \
  --val cache/default-val --size student --init models/coevo/student-r2 --out out/coevo-gr3 \
  --minutes 45 --steps 4000 --lr 5e-4 --eval-every 500 --checkpoint-every 500 > out/logs/gr3-fit.log 2>&1
stamp fit
# harness phase: the new student (frozen) flies with harness-gap applied; the wire-gap risk retrained from it
node bin/drone-harness.js fit-harness --detector out/coevo-gr3/student --harness models/coevo/harness-gap --region-clip 8 \
  --scenario $S --risk-target wire-gap --flights 90 --first-seed 85000 --val-flights 20 --val-first-seed 3500 \
  --out out/coevo-gr3-harness --steps 1500 --workers 2 > out/logs/gr3-fit-harness.log 2>&1
stamp fit-harness
# stage 1: validation, ON row only
node bin/drone-harness.js eval --harness --scenario $S --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_harness --coevo out/coevo-gr3/student --coevo-harness out/coevo-gr3-harness --region-clip 8 \
  --workers 2 --attribute-strikes > docs/results/eval-coevo-gr3-val-60.txt 2> out/logs/gr3-eval-val.log
stamp eval-val
