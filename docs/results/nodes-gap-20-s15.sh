#!/usr/bin/env bash
# Fifteenth session: docs/results/nodes-gap-20-plan.txt: 20 test seeds from 2200 through the nodes (main job), both
# arms, with the shipped config (harness-gap, clip 8, hover level 4.7). Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
{ date -u; node bin/drone-harness.js sim --flights 20 --seed-start 2200 --bag-flights 0 --out out/nodes-gap-20 2>&1; } > docs/results/nodes-gap-test-2200-20.txt
