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
# How long after the two arms' first different decision (control steps of 0.25 s) each such collision came.
node -e '
const fs=require("fs"); const rows=[];
for (const f of process.argv.slice(1)) for (const line of fs.readFileSync(f,"utf8").split("\n")) {
  const m=line.match(/^- seed (\d+): ON (\w+)(?: \((\w+)\))? at ([\d.]+) s, OFF (\w+)(?: \((\w+)\))? at ([\d.]+) s; first different decision at step (\d+)/);
  if (m) rows.push({on:m[2],onWhat:m[3],onT:+m[4],off:m[5],offWhat:m[6],offT:+m[7],step:+m[8]});
}
for (const [arm,what] of [["ON","wire"],["ON","branch"],["OFF","wire"],["OFF","branch"]]) {
  const mine=(r)=>arm==="ON"?[r.on,r.onWhat,r.onT,r.off]:[r.off,r.offWhat,r.offT,r.on];
  const g=rows.filter((r)=>{const [o,w,,other]=mine(r);return o==="collision"&&w===what&&other!=="collision";}).map((r)=>mine(r)[2]-0.25*r.step).sort((a,b)=>a-b);
  if (g.length===0) continue;
  console.log(`only ${arm}, ${what}: ${g.length} collisions, ${g[Math.floor(g.length/2)].toFixed(1)} s median after the first different decision; within 3 s: ${g.filter((x)=>x<=3).length}, over 10 s: ${g.filter((x)=>x>10).length}`);
}' "${files[@]}"
