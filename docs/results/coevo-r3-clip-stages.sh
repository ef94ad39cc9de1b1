#!/bin/bash
# Re-choose the round-3 pair's clip on validation (issue 13); rule in docs/results/coevo-r3-clip-decision-rule.txt
set -e
cd /work/main
S=sim/scenarios/default.yaml
echo "start $(date -u +%T)" > out/logs/r3clip-stages.log
for C in 0.5 1; do
node bin/drone-harness.js eval --harness --scenario $S --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r3 --coevo-harness models/coevo/harness-r3 --region-clip $C --workers 2 > out/logs/r3clip-$C-eval-val.log 2>&1
echo "eval val clip $C done $(date -u +%T)" >> out/logs/r3clip-stages.log
done
