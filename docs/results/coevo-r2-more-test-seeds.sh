#!/bin/bash
# 200 more test seeds for the round-2 pair (issue 13); plan in docs/results/coevo-r2-more-test-seeds-plan.txt
cd /work/main
while pgrep -f r3clip.sh > /dev/null; do sleep 10; done
echo "start $(date -u +%T)" > out/logs/r2more-stages.log
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --first-seed 659 --flights 200 \
  --rows bc_student,coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-r2 --region-clip 2 --workers 2 > out/logs/r2more-eval-test.log 2>&1
echo "eval done $(date -u +%T) rc $?" >> out/logs/r2more-stages.log
