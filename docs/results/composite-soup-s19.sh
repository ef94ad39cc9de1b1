#!/bin/bash
# Rule: docs/results/composite-soup-decision-rule.txt. Run from the repository root after composite-s19.sh.
set -e
until grep -q "all done" out/composite-s19.log; do sleep 10; done
echo "start $(date -u +%H:%M:%S)"
row() { # name seed
  node bin/drone-harness.js fit --data cache/default-train,cache/default-train-planner,cache/views-train,cache/composite-train --val cache/default-val --size student --init models/pipeline/student --out out/composite-s19/$1 --steps 2500 --lr 1e-3 --eval-every 500 --augment camera,foliage --seed $2 > out/composite-s19/$1.fit.log 2>&1
  echo "$1 fit done $(date -u +%H:%M:%S)"
}
row TH-s1 1 &
row TH-s2 2 &
wait
for s in 1 2; do
  node bin/drone-harness.js soup --models out/composite-s19/T-s$s/student,out/composite-s19/TH-s$s/student --out out/composite-s19/TS-s$s/student
done
node bin/drone-harness.js eval-real --real ../shared/fixtures/real/pld-dev --model models/photo/student,out/composite-s19/T-s1/student,out/composite-s19/T-s2/student,out/composite-s19/TH-s1/student,out/composite-s19/TH-s2/student,out/composite-s19/TS-s1/student,out/composite-s19/TS-s2/student 2>/dev/null > out/composite-s19/eval-real-soup.txt
echo "eval-real done $(date -u +%H:%M:%S)"
for n in models/photo/student out/composite-s19/D-s1/student out/composite-s19/D-s2/student out/composite-s19/T-s1/student out/composite-s19/T-s2/student out/composite-s19/TS-s1/student out/composite-s19/TS-s2/student; do
  echo "== $n default-val" >> out/composite-s19/val.txt
  node bin/drone-harness.js fit --evaluate $n --val cache/default-val 2>/dev/null >> out/composite-s19/val.txt
done
echo "all done $(date -u +%H:%M:%S)"
