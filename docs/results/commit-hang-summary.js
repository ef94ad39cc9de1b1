#!/usr/bin/env node
// Summarises `eval --harness --json` outputs (docs/results/commit-hang-s34.sh): per condition, the outcomes, and for
// every flight the stalls, stretches where the goal distance (StepTrace.goal_m) did not fall by PROGRESS_M below
// where the stretch began; turned decisions of the vertical commitment counted by how long the drone had stalled.
//   node docs/results/commit-hang-summary.js A.json [B.json]
"use strict";
const fs = require("fs");
const PROGRESS_M = 1;
const STALLS_S = [2, 3, 4, 6, 10];
const ACTIONS = ["cruise", "slow", "hover", "climb", "descend", "yaw_left", "yaw_right"];

function flightStats(f) {
  let ref = Infinity, tRef = 0, maxStall = 0;
  const turnedAt = STALLS_S.map(() => 0);
  let turned = 0;
  for (const s of f.trace) {
    if (s.goal_m < ref - PROGRESS_M || ref === Infinity) { ref = s.goal_m; tRef = s.time_s; }
    const stall = s.time_s - tRef;
    maxStall = Math.max(maxStall, stall);
    if (s.turned === 1) {
      turned++;
      STALLS_S.forEach((S, i) => { if (stall > S) turnedAt[i]++; });
    }
  }
  const last = f.trace.slice(-80); // the last 20 s at 4 Hz
  const mix = ACTIONS.map(() => 0);
  for (const s of last) mix[s.action]++;
  const end = f.trace[f.trace.length - 1];
  return { seed: f.outcome.seed, type: f.outcome.type === "collision" ? `collision:${f.outcome.obstacle}` : f.outcome.type, maxStall, turned, turnedAt, goal_m: end ? end.goal_m : NaN, mix };
}

const files = process.argv.slice(2);
if (files.length === 0) { console.error("usage: commit-hang-summary.js A.json [B.json]"); process.exit(2); }
const reports = files.map((p) => ({ path: p, r: JSON.parse(fs.readFileSync(p, "utf8")) }));
const fmtMix = (m) => ACTIONS.map((a, i) => (m[i] ? `${a} ${m[i]}` : "")).filter(Boolean).join(", ");
const byCond = new Map();
for (const { path, r } of reports) {
  for (const c of r.conditions) {
    const row = c.rows[0];
    const stats = row.flights.map(flightStats);
    (byCond.get(c.condition) ?? byCond.set(c.condition, []).get(c.condition)).push({ path, stats });
    const n = stats.length;
    const count = (t) => stats.filter((s) => s.type === t).length;
    console.log(`${c.condition}, ${path}: ${n} flights: goal ${count("goal")}, timeout ${count("timeout")}, wire ${count("collision:wire")}, branch ${count("collision:branch")}, other collisions ${stats.filter((s) => s.type.startsWith("collision:") && !/wire|branch/.test(s.type)).length}`);
    for (const t of ["goal", "timeout", "collision:wire"]) {
      const g = stats.filter((s) => s.type === t);
      if (g.length === 0) continue;
      const ms = g.map((s) => s.maxStall).sort((a, b) => a - b);
      console.log(`  ${t}: longest stall (no ${PROGRESS_M} m of progress) median ${ms[Math.floor(ms.length / 2)].toFixed(1)} s, max ${ms[ms.length - 1].toFixed(1)} s; turned decisions ${g.reduce((a, s) => a + s.turned, 0)}, of them after a stall longer than ${STALLS_S.map((S, i) => `${S} s: ${g.reduce((a, s) => a + s.turnedAt[i], 0)} (${g.filter((s) => s.turnedAt[i] > 0).length} flights)`).join(", ")}`);
    }
    for (const s of stats.filter((s) => s.type === "timeout")) console.log(`  - timeout seed ${s.seed}: ${s.goal_m.toFixed(1)} m from the goal, longest stall ${s.maxStall.toFixed(1)} s, turned ${s.turned} (after a stall > 4 s: ${s.turnedAt[2]}); last 20 s: ${fmtMix(s.mix)}`);
  }
}
for (const [cond, runs] of byCond) {
  if (runs.length !== 2) continue;
  const [a, b] = runs;
  const bySeed = new Map(b.stats.map((s) => [s.seed, s]));
  const diff = a.stats.filter((s) => bySeed.get(s.seed) && bySeed.get(s.seed).type !== s.type);
  console.log(`${cond}, paired ${a.path} vs ${b.path}: ${diff.length} seeds differ`);
  for (const s of diff) { const o = bySeed.get(s.seed); console.log(`  seed ${s.seed}: ${s.type} (stall ${s.maxStall.toFixed(1)} s, turned ${s.turned}) vs ${o.type} (stall ${o.maxStall.toFixed(1)} s)`); }
}
