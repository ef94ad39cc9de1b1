// Thirty-seventh session: what the student's false alarms are in a scenario family. Flies the co-evolved student with
// its harness OFF (the planner reads its uncorrected grid) and the nodes' planner options (--arrival 6,guarded
// --vertical-commit 0.3,12,each) on val seeds, and at every decision sorts the cells it flags (threat >= 0.5) against
// the near-threat truth the oracle flies (src/harness/eval/CellLabels.ts nearThreatCells: an obstacle pixel under
// 12 m, or under 3 s at the forward speed): the flagged cells that are not near threats, by the true depth of the
// nearest obstacle pixel in the cell (none: no obstacle pixel at all), and by image row band.
//   node docs/results/woods-false-alarms.js [scenario] [flights] [first-seed] [student dir]
//   (default trees_only 12 0 models/coevo/student-r2; after npm run build; the student dir since the thirty-eighth session)
const path = require("path");
const D = path.join(__dirname, "../../dist");
const { loadScenarioFile, splitOfSeed } = require(`${D}/sim`);
const { simEnvironmentFactory } = require(`${D}/src/harness/data/simEnvironment`);
const { SeedSource } = require(`${D}/src/harness/data/SeedSplit`);
const { PlannerPilot } = require(`${D}/src/harness/eval/PlannerPilot`);
const { flyClosedLoop } = require(`${D}/src/harness/eval/flyClosedLoop`);
const { FULL_CONFIG } = require(`${D}/src/harness/training/trainConfig`);
const { STATE_DIM } = require(`${D}/src/harness/models/stateVector`);
const { loadTeacher } = require(`${D}/src/harness/modelfile/modelFiles`);
const { nearThreatCells } = require(`${D}/src/harness/eval/CellLabels`);
const { initBackend } = require(`${D}/src/harness/backend/initBackend`);

const [scenario = "trees_only", flightsArg = "12", firstArg = "0", studentDir = "models/coevo/student-r2"] = process.argv.slice(2);
const flights = Number(flightsArg), first = Number(firstArg);
if (!(Number.isInteger(flights) && flights > 0 && Number.isInteger(first) && first >= 0)) throw new Error(`flights=${flightsArg}, first-seed=${firstArg}: expected whole numbers (flights >= 1)`);
const CELL = 8;
const BANDS = [["none", Infinity], ["under 12 m (pixels the label does not count as visible)", 12], ["12-16 m", 16], ["16-24 m", 24], ["24-40 m", 40], ["40 m and beyond", Infinity]];

(async () => {
  await initBackend();
  const student = (await loadTeacher(path.resolve(__dirname, "../..", studentDir))).model;
  const inner = new PlannerPilot({ type: "detector", detector: student }, { arrivalRadius_m: 6, arrivalGuarded: true, verticalCommit: 0.3, verticalCommitWireCells: 12 });
  const count = { decisions: 0, flagged: 0, near: 0, nearFlagged: 0, falseAlarms: 0 };
  const byDepth = new Array(BANDS.length).fill(0);
  const byRow = new Array(6).fill(0);
  const pilot = {
    needsImage: true,
    needsTruth: true,
    reset: () => inner.reset(),
    get forward_m_s() { return inner.forward_m_s; },
    act(rgb, state, env, truth) {
      const action = inner.act(rgb, state, env, truth);
      const threat = inner.threat, W = env.width, H = env.height, cols = W / CELL, rows = H / CELL;
      const near = nearThreatCells(truth.visibleMask, truth.depth, { width: W, height: H, cell_px: CELL }, inner.nav.forwardSpeed_m_s);
      count.decisions++;
      for (let i = 0; i < rows * cols; i++) {
        const flagged = threat[i] >= 0.5;
        count.flagged += flagged ? 1 : 0;
        count.near += near[i];
        if (near[i] === 1) { count.nearFlagged += flagged ? 1 : 0; continue; }
        if (!flagged) continue;
        count.falseAlarms++;
        const r = Math.floor(i / cols), c = i % cols;
        byRow[Math.min(byRow.length - 1, Math.floor((byRow.length * r) / rows))]++;
        let nearest = Infinity;
        for (let y = r * CELL; y < (r + 1) * CELL; y++) for (let x = c * CELL; x < (c + 1) * CELL; x++) {
          const p = y * W + x;
          if (truth.mask[p] !== 0 && truth.depth[p] > 0) nearest = Math.min(nearest, truth.depth[p]);
        }
        byDepth[nearest === Infinity ? 0 : BANDS.findIndex(([, upTo], k) => k > 0 && nearest < upTo)]++;
      }
      return action;
    },
  };
  const source = new SeedSource("val", splitOfSeed);
  const factory = simEnvironmentFactory(loadScenarioFile(path.join(__dirname, `../../sim/scenarios/${scenario}.yaml`)), "val", { controlPeriod_s: FULL_CONFIG.controlPeriod_s });
  const outcomes = {};
  const seeds = source.seeds(flights, first);
  for (const seed of seeds) {
    const r = flyClosedLoop(factory(source.require(seed), { perturbed: false }), pilot, STATE_DIM);
    outcomes[r.outcome.type] = (outcomes[r.outcome.type] ?? 0) + 1;
  }
  const pct = (n, of) => `${((100 * n) / of).toFixed(1)} %`;
  console.log(`${scenario}, ${seeds.length} val seeds from ${first} (nominal), coevo_student_off with the nodes' planner options: ${Object.entries(outcomes).map(([k, n]) => `${k} ${n}`).join(", ")}; ${count.decisions} decisions`);
  console.log(`cells flagged (threat >= 0.5): ${count.flagged}; near threats: ${count.near}, flagged ${count.nearFlagged} (${pct(count.nearFlagged, count.near)}); flagged but not near (false alarms): ${count.falseAlarms} (${pct(count.falseAlarms, count.flagged)} of the flagged)`);
  console.log(`false alarms by the nearest obstacle pixel in the cell: ${BANDS.map(([name], k) => `${name} ${byDepth[k]} (${pct(byDepth[k], count.falseAlarms)})`).join(", ")}`);
  console.log(`false alarms by image row band, top to bottom: ${byRow.map((n) => pct(n, count.falseAlarms)).join(", ")}`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
