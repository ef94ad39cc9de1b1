#!/bin/bash
# Caches for the nineteenth session's photo-model fits (the tenth session's data-s10.sh, plus the planner flights).
set -e
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 200 --cache cache/views-train --views overhead --views-per-world 24
echo "views done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split val --flights 40 --cache cache/default-val --rng-seed 2
echo "val done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 200 --cache cache/default-train
echo "train done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 100 --first-seed 1000 --cache cache/default-train-planner --workers 1 --pilot-detector models/pipeline/planner-flights-teacher --explore 0
echo "all done $(date -u +%H:%M:%S)"
