#!/usr/bin/env bash
# Thirty-eighth session, docs/results/fresh-climb-plan.txt: BC, OFF and ON with the nodes' planner options (now with the
# scan and the climb when stuck) on never-flown test seeds from 200000, then trees_only's ON row without the scan and
# the climb on the same seeds. About 100 min with 2 workers. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
common=(--split test --first-seed 200000 --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap
  --region-clip 8 --workers 2 --arrival 6,guarded --vertical-commit 0.3,12,each --attribute-strikes)
for fam in trees_only:100 urban:100 default:300; do
  name=${fam%%:*} flights=${fam##*:}
  OUT=eval-fresh-climb-rows-$name-test-$flights-from-200000.txt
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$name.yaml" --flights "$flights" "${common[@]}" \
    --rows bc_student,coevo_student_off,coevo_student_harness --scan-when-stuck 10 --stuck-climb 8,6 \
    > "docs/results/$OUT" 2> "out/${OUT%.txt}.log"
  echo "$name done $(date -u +%H:%M)"
done
OUT=eval-fresh-noclimb-on-trees_only-test-100-from-200000.txt
node bin/drone-harness.js eval --harness --scenario sim/scenarios/trees_only.yaml --flights 100 "${common[@]}" \
  --rows coevo_student_harness > "docs/results/$OUT" 2> "out/${OUT%.txt}.log"
echo "trees_only without the climb done $(date -u +%H:%M)"
