#!/bin/bash
# Rule: docs/results/composite-urban-decision-rule.txt. Run from the repository root with the caches of
# docs/results/data-s19.sh, the textures of docs/results/flightgear-textures.sh and the rows of
# docs/results/composite-soup-s19.sh (out/composite-s19/TS-s2).
set -e
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --views composite --textures cache/textures/flightgear --flights 200 --views-per-world 24 --cache cache/composite-urban-train --composite-thick-share 0.3 --composite-paving 0.3
echo "composites done $(date -u +%H:%M:%S)"
mkdir -p out/composite-urban-s20
row() { # name seed augment
  node bin/drone-harness.js fit --data cache/default-train,cache/default-train-planner,cache/views-train,cache/composite-urban-train --val cache/default-val --size student --init models/pipeline/student --out out/composite-urban-s20/$1 --steps 2500 --lr 1e-3 --eval-every 500 --augment $3 --seed $2 > out/composite-urban-s20/$1.fit.log 2>&1
  echo "$1 fit done $(date -u +%H:%M:%S)"
}
for seed in 1 2; do
  row U-s$seed $seed camera &
  row UH-s$seed $seed camera,foliage &
  wait
  node bin/drone-harness.js soup --models out/composite-urban-s20/U-s$seed/student,out/composite-urban-s20/UH-s$seed/student --out out/composite-urban-s20/US-s$seed/student
done
node bin/drone-harness.js eval-real --real ../shared/fixtures/real/pld-dev --model models/photo/student,out/composite-s19/TS-s2/student,out/composite-urban-s20/U-s1/student,out/composite-urban-s20/U-s2/student,out/composite-urban-s20/UH-s1/student,out/composite-urban-s20/UH-s2/student,out/composite-urban-s20/US-s1/student,out/composite-urban-s20/US-s2/student 2>/dev/null > out/composite-urban-s20/eval-real.txt
echo "eval-real done $(date -u +%H:%M:%S)"
for n in out/composite-urban-s20/U-s1/student out/composite-urban-s20/U-s2/student out/composite-urban-s20/US-s1/student out/composite-urban-s20/US-s2/student; do
  echo "== $n default-val" >> out/composite-urban-s20/val.txt
  node bin/drone-harness.js fit --evaluate $n --val cache/default-val 2>/dev/null >> out/composite-urban-s20/val.txt
done
echo "all done $(date -u +%H:%M:%S)"
