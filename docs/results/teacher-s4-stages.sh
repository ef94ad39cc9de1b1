#!/bin/bash
cd /work/main
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js fit --data cache/default-train,cache/default-train-2 --val cache/default-val-perturbed --size teacher --init models/pipeline/teacher --augment camera --out out/teacher-s4 --minutes 38 --steps 2000 --lr 3e-4 --eval-every 500 --curve-frames 300 --checkpoint-every 250
echo "fit done $(date -u +%H:%M:%S)"
