#!/usr/bin/env bash
# Twenty-seventh session: docs/results/trees-test-plan.txt. Issue 13's rows (BC, OFF, shipped pair at alarm 0.6) on
# trees_only's 100 test seeds, nominal and perturbed. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/trees_only.yaml --split test --flights 100 \
  --rows bc_student,coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 \
  --coevo-harness models/coevo/harness-gap --region-clip 8 --workers 2 --attribute-strikes \
  > docs/results/eval-trees-test-100.txt 2> out/trees-test-100.log
