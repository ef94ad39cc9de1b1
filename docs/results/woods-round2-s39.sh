#!/usr/bin/env bash
# Thirty-ninth session, docs/results/woods-round2-plan.txt: the woods round keeping round 2's frames.
#   bash docs/results/woods-round2-s39.sh data   # round 2's caches and the thirty-eighth session's, rebuilt (two lanes)
#   bash docs/results/woods-round2-s39.sh fit    # fine-tune student-r2 on all six (round 2's settings), then evaluate
#   bash docs/results/woods-round2-s39.sh val    # woods-round2-rule.txt's val flights (960, ~55 min); then
#                                                #   bash docs/results/arrival-val-check.sh w4
# Run after npm run build. A cache directory that exists is kept (delete a partial one before re-running).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p cache
run() { local dir=$1; shift; [ -d "$dir" ] || node bin/drone-harness.js dataset --cache "$dir" "$@"; echo "$dir done $(date -u +%H:%M)"; }
R2="cache/default-train,cache/default-train-planner,cache/r1-student-flights,cache/r2-pair-flights"
W3="cache/w3-trees_only-pair,cache/w3-default-pair"
case "${1:?usage: woods-round2-s39.sh data|fit|val}" in
  data)
    # lane 1: the teacher-planner's flights (docs/pipeline.md), then the thirty-eighth session's woods-round caches
    # (woods-round-s38.sh data; the dataset skips flights already in a cache)
    ( run cache/default-train-planner --scenario default --split train --flights 100 --first-seed 1000 --workers 1 \
        --pilot-detector models/pipeline/planner-flights-teacher --explore 0
      WORKERS=1 bash docs/results/woods-round-s38.sh data
    ) &
    # lane 2: the expert's (docs/pipeline.md), round 1's and round 2's flights (docs/coevolution.md)
    ( run cache/default-train --scenario default --split train --flights 200 --workers 1
      run cache/default-val --scenario default --split val --flights 40 --rng-seed 2 --workers 1
      run cache/r1-student-flights --scenario sim/scenarios/default.yaml --split train --flights 120 --first-seed 2000 \
        --workers 1 --pilot-detector models/pipeline/student --explore 0
      run cache/r2-pair-flights --scenario sim/scenarios/default.yaml --split train --flights 120 --first-seed 5000 \
        --workers 1 --pilot-detector models/coevo/student --pilot-harness models/coevo/harness-contact --region-clip 2 --explore 0
    ) &
    wait ;;
  fit)
    node bin/drone-harness.js fit --data "$R2,$W3" --val cache/w3-trees_only-val --size student --init models/coevo/student-r2 \
      --out out/woods-r4 --minutes 45 --steps 4000 --lr 5e-4 --eval-every 500 --checkpoint-every 500
    for v in cache/default-val cache/w3-default-val cache/w3-trees_only-val; do
      for m in out/woods-r4/student models/coevo/student-r2; do
        echo "== fit --evaluate $m --val $v"; node bin/drone-harness.js fit --evaluate "$m" --val "$v"
      done
    done
    echo "fit done $(date -u +%H:%M)" ;;
  val)
    mkdir -p out
    source docs/results/pair-run.sh
    both() { run "$@" --arrival 6,guarded --vertical-commit 0.3,12,each --scan-when-stuck 10 --stuck-climb 8,6 --coevo models/coevo/student-w4; }
    families val w4-scan-10-climb-8,6-arrival-6-guarded-commit-0.3,12,each
    echo "val done $(date -u +%H:%M)" ;;
  *) echo "woods-round2-s39.sh: unknown stage $1 (data, fit or val)" >&2; exit 2 ;;
esac
