#!/bin/bash
set -e
cd /work/main
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js fit-harness-ppo --detector models/coevo/student-r2 --harness models/coevo/harness-contact --scenario sim/scenarios/default.yaml --out out/ppo-r2 --iterations 8 --flights 40 --first-seed 20000 --region-clip 2 --workers 2 --lr 3e-3
echo "fit done $(date -u +%H:%M:%S)"
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 100 --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness out/ppo-r2 --region-clip 2 --workers 2 > out/eval-ppo-r2-test-100.txt
echo "eval 100 done $(date -u +%H:%M:%S)"
