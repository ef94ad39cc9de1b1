#!/bin/bash
# Rule: docs/results/composite-decision-rule.txt. Run from the repository root after docs/results/data-s19.sh
# and docs/results/flightgear-textures.sh.
set -e
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --views composite --textures cache/textures/flightgear --flights 200 --views-per-world 24 --cache cache/composite-train
echo "composites done $(date -u +%H:%M:%S)"
until grep -q "all done" out/data-s19.log; do sleep 10; done
mkdir -p out/composite-s19
row() { # name seed extra-data
  node bin/drone-harness.js fit --data cache/default-train,cache/default-train-planner,cache/views-train$3 --val cache/default-val --size student --init models/pipeline/student --out out/composite-s19/$1 --steps 2500 --lr 1e-3 --eval-every 500 --augment camera --seed $2 > out/composite-s19/$1.fit.log 2>&1
  echo "$1 fit done $(date -u +%H:%M:%S)"
}
for seed in 1 2; do
  row D-s$seed $seed "" &
  row T-s$seed $seed ",cache/composite-train" &
  wait
done
echo "fits done $(date -u +%H:%M:%S)"
node bin/drone-harness.js eval-real --real ../shared/fixtures/real/pld-dev --model out/composite-s19/D-s1/student,out/composite-s19/T-s1/student,out/composite-s19/D-s2/student,out/composite-s19/T-s2/student > out/composite-s19/eval-real.txt 2>&1
echo "all done $(date -u +%H:%M:%S)"
