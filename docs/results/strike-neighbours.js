// Twenty-ninth session (docs/results/wire-crossings-plan.txt, follow-up): for given val seeds of one scenario and
// condition, flies the shipped pair (student-r2 + harness-gap, clip 8) ON and OFF with the wire crossings recorded
// (src/harness/eval/wireCrossings.ts) and prints, for every wire strike, the same flight's conductor crossings in the
// 5 s before it: did the drone pass another conductor of the line just before, and was it climbing or descending?
// Usage, from the repository root after npm run build:
//   node docs/results/strike-neighbours.js <scenario.yaml> <nominal|perturbed> seed...
const { loadScenarioFile } = require("../../dist/sim");
const { runHarnessRowJob } = require("../../dist/src/harness/data/node/harnessRowsParallel");
const { FULL_CONFIG } = require("../../dist/src/harness/training/trainConfig");

const [scenarioFile, condition, ...seedArgs] = process.argv.slice(2);
if (!["nominal", "perturbed"].includes(condition) || seedArgs.length === 0) throw new Error("usage: node docs/results/strike-neighbours.js <scenario.yaml> <nominal|perturbed> seed...");
const seeds = seedArgs.map(Number);
const scenario = loadScenarioFile(scenarioFile);
const arm = (name, apply) => ({ name, detectorDir: "models/coevo/student-r2", harnessDir: "models/coevo/harness-gap", apply, options: { regionClip: 8 } });
const f2 = (x) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
(async () => {
  for (const [name, apply] of [["ON", true], ["OFF", false]]) {
    const part = await runHarnessRowJob({ scenario, split: "val", controlPeriod_s: FULL_CONFIG.controlPeriod_s, seeds, condition, arm: arm(name, apply), apEvery: 4, wireCrossings: true });
    for (const f of part.flights) {
      const s = (f.crossings ?? []).find((c) => c.struck === true);
      if (s === undefined) {
        console.log(`${name} seed ${f.outcome.seed}: ${f.outcome.type}${f.outcome.obstacle ? ` (${f.outcome.obstacle})` : ""}, no wire strike`);
        continue;
      }
      const before = f.crossings.filter((c) => c.struck !== true && c.time_s >= s.time_s - 5);
      console.log(`${name} seed ${f.outcome.seed}: wire strike on conductor ${s.object} at ${s.time_s.toFixed(2)} s, dz ${f2(s.dz_m)} m, vz ${f2(s.vz_m_s)} m/s, ${s.speed_m_s.toFixed(2)} m/s; crossings in the 5 s before: ${before.length === 0 ? "none" : before.map((c) => `conductor ${c.object} ${(s.time_s - c.time_s).toFixed(2)} s before, dz ${f2(c.dz_m)} m, vz ${f2(c.vz_m_s)} m/s`).join("; ")}`);
    }
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
