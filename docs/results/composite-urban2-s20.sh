#!/bin/bash
# Rule: docs/results/composite-urban2-decision-rule.txt. Run from the repository root after
# docs/results/composite-urban-s20.sh (and composite-s19.sh, composite-soup-s19.sh for T and TH).
set -e
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --views composite --textures cache/textures/flightgear --flights 200 --views-per-world 24 --cache cache/composite-urban-train2 --composite-thick-share 0.3 --composite-paving 0.3 --rng-seed 2
echo "composites done $(date -u +%H:%M:%S)"
O=out/composite-urban2-s20
mkdir -p $O
row() { # name seed augment
  node bin/drone-harness.js fit --data cache/default-train,cache/default-train-planner,cache/views-train,cache/composite-urban-train,cache/composite-urban-train2 --val cache/default-val --size student --init models/pipeline/student --out $O/$1 --steps 2500 --lr 1e-3 --eval-every 500 --augment $3 --seed $2 > $O/$1.fit.log 2>&1
  echo "$1 fit done $(date -u +%H:%M:%S)"
}
for s in 1 2; do
  node bin/drone-harness.js soup --models out/composite-s19/T-s$s/student,out/composite-s19/TH-s$s/student,out/composite-urban-s20/U-s$s/student,out/composite-urban-s20/UH-s$s/student --out $O/W-s$s/student
done
for s in 1 2; do
  row V-s$s $s camera &
  row VH-s$s $s camera,foliage &
  wait
  node bin/drone-harness.js soup --models $O/V-s$s/student,$O/VH-s$s/student --out $O/VS-s$s/student
done
node bin/drone-harness.js eval-real --real ../shared/fixtures/real/pld-dev --model out/composite-urban-s20/US-s1/student,out/composite-urban-s20/US-s2/student,$O/VS-s1/student,$O/VS-s2/student,$O/W-s1/student,$O/W-s2/student,$O/V-s1/student,$O/VH-s1/student --edge-gate 2>/dev/null > $O/eval-real.txt
echo "eval-real done $(date -u +%H:%M:%S)"
for n in $O/VS-s1/student $O/VS-s2/student $O/W-s1/student $O/W-s2/student; do
  echo "== $n default-val" >> $O/val.txt
  node bin/drone-harness.js fit --evaluate $n --val cache/default-val 2>/dev/null >> $O/val.txt
done
echo "all done $(date -u +%H:%M:%S)"
