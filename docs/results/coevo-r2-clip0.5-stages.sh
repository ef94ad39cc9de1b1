#!/bin/bash
# Round-2 pair at clip 0.5 (rule: docs/results/coevo-r2-clip0.5-decision-rule.txt)
cd /work/main
S=sim/scenarios/default.yaml
echo "start $(date -u +%T)" > out/logs/r2c05-stages.log
node bin/drone-harness.js eval --harness --scenario $S --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-r2 --region-clip 0.5 --workers 2 > out/logs/r2c05-eval-val.log 2>&1
echo "eval val done $(date -u +%T)" >> out/logs/r2c05-stages.log
