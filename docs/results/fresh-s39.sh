#!/usr/bin/env bash
# Thirty-ninth session, docs/results/fresh-300000-plan.txt: BC, OFF and ON with the nodes' planner options (the scan and
# the climb when stuck included) on never-flown test seeds from 300000; default first. About 85 min with 2 workers.
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for fam in default:300 urban:100 trees_only:100; do
  name=${fam%%:*} flights=${fam##*:}
  OUT=eval-fresh-climb-rows-$name-test-$flights-from-300000.txt
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$name.yaml" --flights "$flights" --split test \
    --first-seed 300000 --rows bc_student,coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 \
    --coevo-harness models/coevo/harness-gap --region-clip 8 --workers 2 --arrival 6,guarded \
    --vertical-commit 0.3,12,each --scan-when-stuck 10 --stuck-climb 8,6 --attribute-strikes \
    > "docs/results/$OUT" 2> "out/${OUT%.txt}.log"
  echo "$name done $(date -u +%H:%M)"
done
