#!/usr/bin/env bash
# Thirteenth session: the test flights of docs/results/linegate-decision-rule.txt (met on the val seeds:
# 1 + 3 collisions of 120 against OFF's 6 + 10, success 88.3 / 85.0 % against 90.0 / 83.3 %).
# The OFF row on these seeds is in docs/results/eval-linefill2-r2-test-100.txt and, strike by strike, in
# docs/results/eval-strikes-r2-test-100.txt; --attribute-strikes lists this row's strikes by seed for the pairing.
set -euo pipefail
cd "$(dirname "$0")/../.."
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 100 \
  --rows coevo_student_linegate --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-r2 \
  --region-clip 2 --workers 2 --attribute-strikes > docs/results/eval-linegate-r2-test-100.txt 2> out/linegate-test-s13.log
