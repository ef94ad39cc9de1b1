#!/bin/bash
# Foliage ablation (rule: docs/results/foliage-decision-rule.txt). Run from the repository root.
set -e
until grep -q "all done" out/clutter-ablate.log; do sleep 10; done
echo "start $(date -u +%H:%M:%S)"
row() { # name seed augment
  node bin/drone-harness.js fit --data cache/default-train,cache/default-train-planner,cache/views-train --val cache/default-val --size student --init models/pipeline/student --out out/ablate-s10/$1 --steps 2500 --lr 1e-3 --eval-every 500 --augment $3 --seed $2 > out/ablate-s10/$1.fit.log 2>&1
  echo "$1 fit done $(date -u +%H:%M:%S)"
}
for seed in 1 2; do
  row H-s$seed $seed camera,foliage &
  row I-s$seed $seed camera,clutter,foliage &
  wait
done
echo "fits done $(date -u +%H:%M:%S)"
node bin/drone-harness.js eval-real --real ../shared/fixtures/real/pld-dev --model out/ablate-s10/H-s1/student,out/ablate-s10/I-s1/student,out/ablate-s10/H-s2/student,out/ablate-s10/I-s2/student > out/ablate-s10/eval-real-HI.txt 2>&1
echo "eval-real done $(date -u +%H:%M:%S)"
for n in H-s1 I-s1 H-s2 I-s2; do
  echo "== $n" >> out/ablate-s10/views-val-HI.txt
  node bin/drone-harness.js fit --evaluate out/ablate-s10/$n/student --val cache/views-val >> out/ablate-s10/views-val-HI.txt 2>&1
done
echo "all done $(date -u +%H:%M:%S)"
