#!/bin/bash
# Model-soup rows (rule: docs/results/soup-decision-rule.txt). Run from the repository root after
# docs/results/clutter-ablate-s10.sh and foliage-ablate-s10.sh (the D and H fits in out/ablate-s10/).
set -e
for s in 1 2; do
  node bin/drone-harness.js soup --models out/ablate-s10/D-s$s/student,out/ablate-s10/H-s$s/student --out out/ablate-s11/S-s$s/student
done
node bin/drone-harness.js eval-real --real ../shared/fixtures/real/pld-dev --model out/ablate-s11/S-s1/student,out/ablate-s11/S-s2/student 2>/dev/null > out/ablate-s11/eval-real-S.txt
for n in ablate-s11/S-s1 ablate-s11/S-s2 ablate-s10/D-s1 ablate-s10/D-s2 ablate-s10/H-s1 ablate-s10/H-s2; do
  for v in default-val views-val; do
    echo "== $n $v" >> out/ablate-s11/val-S.txt
    node bin/drone-harness.js fit --evaluate out/$n/student --val cache/$v 2>/dev/null >> out/ablate-s11/val-S.txt
  done
done
echo "all done $(date -u +%H:%M:%S)"
