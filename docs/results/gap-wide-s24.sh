#!/usr/bin/env bash
# Twenty-fourth session: docs/results/gap-wide-decision-rule.txt. A fresh wire-gap harness of widths 12 / 7 (315 weights) on the
# more-data probe's 270 rollouts, 6000 steps, then the 60 val seeds from 6000 at clip 8. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js fit-harness --detector models/coevo/student-r2 --harness models/coevo/harness-r2 --region-clip 2 \
  --scenario sim/scenarios/default.yaml --risk-target wire-gap --flights 270 --first-seed 5500 --val-flights 20 \
  --val-first-seed 3500 --out out/gap-wide --steps 6000 --hidden1 12 --hidden2 7 --workers 2 2> docs/results/fit-harness-gap-wide.txt
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness out/gap-wide \
  --region-clip 8 --workers 2 > docs/results/eval-gap-wide-val-60.txt 2> out/gap-wide-val.log
