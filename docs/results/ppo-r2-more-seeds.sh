#!/bin/bash


echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --first-seed 659 --flights 200 --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness out/ppo-r2 --region-clip 2 --workers 2 > out/eval-ppo-r2-test-200-more.txt
echo "eval 200 done $(date -u +%H:%M:%S)"
