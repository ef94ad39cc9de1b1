#!/usr/bin/env bash
# Fourteenth session: the wire-gap harness at clip 8 pooled over 300 test seeds (docs/results/wire-gap-more-test-seeds-plan.txt):
# counts from eval-harness-gap-clip8-test-100.txt (seeds 1..658) and eval-harness-gap-clip8-test-200-more.txt (659..1999), beside
# the round-2 rows pooled on the same seeds (docs/results/pool-r2-300.txt; success from eval-harness-r2-clip2-test-100.txt and
# eval-harness-r2-clip2-test-200-more.txt). Intervals from the repo's wilsonInterval. Run from the repository root after npm run build.
set -euo pipefail
node -e '
const { wilsonInterval } = require("./dist/src/harness/eval/FlightMetrics");
const rows = [
  // [name, collisions first 100, collisions next 200, goals first 100, goals next 200]
  ["BC nominal", 16, 31, 84, 168], ["OFF nominal", 9, 22, 91, 175], ["harness-r2 nominal", 4, 20, 96, 176], ["wire-gap clip 8 nominal", 7, 14, 89, 178],
  ["BC perturbed", 20, 42, 80, 158], ["OFF perturbed", 11, 31, 89, 168], ["harness-r2 perturbed", 11, 17, 89, 179], ["wire-gap clip 8 perturbed", 2, 14, 93, 184],
];
const f = (k) => { const w = wilsonInterval(k, 300); return `${k}/300 ${(100 * k / 300).toFixed(1)} % [${w.map((x) => (100 * x).toFixed(1)).join(", ")}]`; };
for (const [n, a, b, g, h] of rows) console.log(`${n}: collisions ${f(a + b)}; success ${f(g + h)}`);'
