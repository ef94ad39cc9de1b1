#!/bin/bash
set -e
echo "start $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split val --flights 40 --cache cache/default-val --rng-seed 2
echo "val done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 200 --cache cache/default-train
echo "train done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split train --flights 200 --cache cache/views-train --views overhead --views-per-world 24
echo "views done $(date -u +%H:%M:%S)"
node bin/drone-harness.js dataset --scenario default --split val --flights 40 --views overhead --views-per-world 24 --rng-seed 2 --cache cache/views-val
echo "views-val done $(date -u +%H:%M:%S)"
