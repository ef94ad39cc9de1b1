#!/bin/bash
# Round-3 pair at the clip chosen on validation (1), 100 test seeds (rule: docs/results/coevo-r3-clip-decision-rule.txt)
cd /work/main
while pgrep -f r2more.sh > /dev/null; do sleep 10; done
echo "start $(date -u +%T)" > out/logs/r3test-stages.log
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 100 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r3 --coevo-harness models/coevo/harness-r3 --region-clip 1 --workers 2 > out/logs/r3test-eval-test.log 2>&1
echo "eval done $(date -u +%T) rc $?" >> out/logs/r3test-stages.log
