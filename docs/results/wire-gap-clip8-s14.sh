#!/usr/bin/env bash
# Fourteenth session: docs/results/wire-gap-clip8-decision-rule.txt: the wire-gap harness and its perfect-risk bound at
# region clip 8, 60 val seeds from 6000. Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 --attribute-strikes > docs/results/eval-harness-gap-clip8-val-60.txt 2> out/wire-gap-s14-clip8.log
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_gap_oracle --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 > docs/results/eval-gap-oracle-clip8-val-60.txt 2> out/gap-oracle-s14-clip8.log
