#!/usr/bin/env bash
# Thirty-sixth session, docs/results/fresh-confirm-plan.txt: BC, OFF and ON with the nodes' planner options on never-flown
# test seeds from 100000 (default 300 ~55 min, trees_only and urban 100 each ~20 min). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for fam in default:300 trees_only:100 urban:100; do
  name=${fam%%:*} flights=${fam##*:}
  OUT=eval-fresh-rows-$name-test-$flights-from-100000.txt
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$name.yaml" --split test --first-seed 100000 --flights "$flights" \
    --rows bc_student,coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --workers 2 --arrival 6,guarded --vertical-commit 0.3,12,each --attribute-strikes \
    > "docs/results/$OUT" 2> "out/${OUT%.txt}.log"
  echo "$name done $(date -u +%H:%M)"
done
