#!/usr/bin/env bash
# Thirty-eighth session, docs/results/fresh-climb-plan.txt part 2: on trees_only's 100 never-flown test seeds from
# 200000, the ON row (coevo_student_harness) with the scan and the climb when stuck (the nodes' planner since the
# thirty-seventh session) against the same row without them: per condition success, collisions and timeouts of each,
# the seeds struck by only one, McNemar's exact p. Run after npm run build and docs/results/fresh-climb-s38.sh.
#   bash docs/results/fresh-climb-woods.sh [WITH_FILE WITHOUT_FILE]
# Any two such ON-row outputs on the same seeds pair the same way, e.g. default's (fresh-climb-default-noclimb-plan.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
node - "${1:-docs/results/eval-fresh-climb-rows-trees_only-test-100-from-200000.txt}" \
  "${2:-docs/results/eval-fresh-noclimb-on-trees_only-test-100-from-200000.txt}" <<'JS'
const { mcnemarExactP } = require("./dist/src/harness/eval/harnessRows");
const { strikeLists, rowRates } = require("./docs/results/strike-lists.js");
const ROW = "coevo_student_harness";
/** The ON row's table line per condition, and its strike list. */
function read(file) {
  const table = rowRates(file), lists = strikeLists(file)[ROW];
  const rates = {};
  for (const c of ["nominal", "perturbed"]) {
    rates[c] = table[c]?.[ROW];
    if (!rates[c] || !lists?.[c]) throw new Error(`${file}: no ${c} ${ROW} row with a strike list (--attribute-strikes)`);
  }
  return { rates, lists };
}
const [withFile, withoutFile] = process.argv.slice(2);
const w = read(withFile), wo = read(withoutFile);
for (const c of ["nominal", "perturbed"]) {
  const a = w.lists[c], b = wo.lists[c];
  if (a.seeds !== b.seeds) throw new Error(`${c}: ${a.seeds} seeds with, ${b.seeds} without`);
  const onlyW = [...a.struck].filter((s) => !b.struck.has(s)).sort((x, y) => x - y);
  const onlyWo = [...b.struck].filter((s) => !a.struck.has(s)).sort((x, y) => x - y);
  const r = (x) => `success ${x.success} %, collisions ${x.collisions} %, timeouts ${x.timeouts} %`;
  console.log(`${c} (${a.seeds} seeds): with the climb ${r(w.rates[c])}; without ${r(wo.rates[c])}`);
  console.log(`  struck only with [${onlyW.join(", ")}], only without [${onlyWo.join(", ")}]; McNemar exact p = ${mcnemarExactP(onlyW.length, onlyWo.length).toFixed(3)}`);
}
JS
