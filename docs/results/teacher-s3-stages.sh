#!/bin/bash
set -e
cd /work/main
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split val --flights 40 --cache cache/default-val --rng-seed 2
echo "val done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 200 --cache cache/default-train
echo "train done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 300 --first-seed 2000 --cache cache/default-train-2
echo "train-2 done $(date -u +%H:%M:%S)"
node bin/drone-harness.js fit --data cache/default-train,cache/default-train-2 --val cache/default-val --size teacher --init models/pipeline/teacher --out out/teacher-s3 --minutes 80 --steps 4000 --lr 5e-4 --eval-every 500 --curve-frames 300 --checkpoint-every 250
echo "fit done $(date -u +%H:%M:%S)"
