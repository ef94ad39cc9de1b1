#!/usr/bin/env bash
# Thirteenth session: what the planner saw before each wire/branch strike (eval --harness
# --attribute-strikes) for the BC student, the round-2 student with its harness OFF and ON, on the
# first 100 test seeds of docs/results/eval-harness-r2-clip2-test-100.txt (same seeds, same
# outcomes expected: rendering the truth at every step must not change a flight).
set -euo pipefail
cd "$(dirname "$0")/../.."
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 100 \
  --rows bc_student,coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-r2 \
  --region-clip 2 --workers 2 --attribute-strikes > docs/results/eval-strikes-r2-test-100.txt 2> out/strikes-s13.log
