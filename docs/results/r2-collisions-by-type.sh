#!/usr/bin/env bash
# Twelfth session, exploratory (after the fact, no rule): the round-2 pair's paired ON/OFF flights on
# the 300 test seeds, the flights whose outcome differs split by what was hit. Reads the committed
# eval outputs only; run from the repository root after npm run build. Other eval --harness outputs
# (two rows ON/OFF, two conditions) can be given as arguments, e.g. the PPO harness's.
set -euo pipefail
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(docs/results/eval-harness-r2-clip2-test-100.txt docs/results/eval-harness-r2-clip2-test-200-more.txt)
counts=$(for f in "${files[@]}"; do
  awk -v file="$f" '/^paired coevo_student_harness \(ON\) vs coevo_student_off/{n++}
       /^- seed/ { c = (n == 1 ? "nominal" : "perturbed");
                   if ($0 ~ /ON collision \(wire\)/) print file, c, "ON", "wire"; else if ($0 ~ /ON collision \(branch\)/) print file, c, "ON", "branch";
                   if ($0 ~ /OFF collision \(wire\)/) print file, c, "OFF", "wire"; else if ($0 ~ /OFF collision \(branch\)/) print file, c, "OFF", "branch" }' "$f"
done)
echo "$counts" | sort | uniq -c | sed 's/^/  /'
echo "$counts" | node -e '
const {mcnemarExactP}=require("./dist/src/harness/eval/harnessRows");
const lines=require("fs").readFileSync(0,"utf8").trim().split("\n").map((l)=>l.split(" "));
for (const cond of ["nominal","perturbed",undefined]) for (const what of ["branch","wire"]) {
  const n=(arm)=>lines.filter(([,c,a,w])=>(cond===undefined||c===cond)&&a===arm&&w===what).length;
  console.log(`${what}, ${cond ?? "both conditions"}: only ON ${n("ON")}, only OFF ${n("OFF")}, McNemar exact p = ${mcnemarExactP(n("ON"),n("OFF")).toFixed(4)}`);
}'
