// Seventeenth session, analysis for the next step of issue 13 (no choice is made on it): on the 60 val seeds from 6000,
// student-r2 with harness-gap at clip 8 (the shipped pair; `--aim low,high` adds the aimed correction), the near wire cells
// of the last 12 decisions (3 s) before every wire strike, binned by the near-threat probability the planner read,
// beside the same bins over every decision of the flights that did not strike a wire. Cells under 0.1 are ones the
// student barely sees: a correction that only strengthens what the student half-flags cannot reach them.
// Run from the repository root after npm run build:
//   node docs/results/struck-wire-threat.js --condition nominal|perturbed [--aim 0.1,0.5]
const path = require("node:path");
const dist = (p) => require(path.resolve("dist/src", p));
const { loadScenarioFile, splitOfSeed } = require(path.resolve("dist/sim"));
const { initBackend } = dist("harness/backend");
const { loadTeacher, loadSpatialHarness } = dist("harness/modelfile");
const { PlannerPilot } = dist("harness/eval/PlannerPilot");
const { flyClosedLoop } = dist("harness/eval/flyClosedLoop");
const { makeNavigation } = dist("harness/data/DroneEnvironment");
const { nearClassCells } = dist("harness/eval/CellLabels");
const { simEnvironmentFactory } = dist("harness/data/simEnvironment");
const { harnessEvalSeeds } = dist("harness/eval/harnessRows");
const { FULL_CONFIG } = dist("harness/training/trainConfig");
const { STATE_DIM } = dist("harness/models/stateVector");
const { DETECTION_CLASSES } = dist("harness/actions");

const EDGES = [0, 0.1, 0.5, 1.0001];
const LAST = 12;
const args = process.argv.slice(2);
const opt = (flag) => (args.indexOf(flag) >= 0 ? args[args.indexOf(flag) + 1] : undefined);
const condition = opt("--condition") ?? "nominal";
if (condition !== "nominal" && condition !== "perturbed") throw new Error(`--condition ${condition}: expected nominal or perturbed`);
const aimArg = opt("--aim");
const aim = aimArg === undefined ? undefined : { low: Number(aimArg.split(",")[0]), high: Number(aimArg.split(",")[1]) };

(async () => {
  await initBackend({ warn: () => undefined });
  const scenario = loadScenarioFile("sim/scenarios/default.yaml");
  const detector = (await loadTeacher("models/coevo/student-r2")).model;
  const model = (await loadSpatialHarness("models/coevo/harness-gap")).model;
  const seeds = harnessEvalSeeds({ split: "val", splitOf: splitOfSeed, flights: 60, firstSeed: 6000 });
  const factory = simEnvironmentFactory(scenario, "val", { controlPeriod_s: FULL_CONFIG.controlPeriod_s });
  const wire = DETECTION_CLASSES.indexOf("wire");
  const inner = new PlannerPilot({ type: "detector", detector, harness: { model, apply: true, options: { regionClip: 8, ...(aim === undefined ? {} : { aim }) } } });
  let scratch = new Uint8Array(0);
  let near = new Uint8Array(0);
  let ring = [];
  const pilot = {
    needsImage: true,
    needsTruth: true,
    reset: () => inner.reset(),
    act: (rgb, state, env, truth) => {
      const a = inner.act(rgb, state, env, truth);
      const threat = inner.lastThreat;
      if (scratch.length !== truth.visibleMask.length) scratch = new Uint8Array(truth.visibleMask.length);
      if (near.length !== threat.length) near = new Uint8Array(threat.length);
      const nav = env.navigation(makeNavigation());
      nearClassCells(truth.visibleMask, wire, truth.depth, { width: env.width, height: env.height, cell_px: 8 }, nav.forwardSpeed_m_s, scratch, near);
      const counts = new Array(EDGES.length - 1).fill(0);
      for (let c = 0; c < near.length; c++) {
        if (near[c] !== 1) continue;
        for (let b = 0; b < counts.length; b++) if (threat[c] >= EDGES[b] && threat[c] < EDGES[b + 1]) counts[b]++;
      }
      ring.push(counts);
      return a;
    },
  };
  const struck = new Array(EDGES.length - 1).fill(0);
  const others = new Array(EDGES.length - 1).fill(0);
  const perStrike = [];
  for (const seed of seeds) {
    ring = [];
    const r = flyClosedLoop(factory(seed, { perturbed: condition === "perturbed" }), pilot, STATE_DIM);
    if (r.outcome.type === "collision" && r.outcome.obstacle === "wire") {
      const last = ring.slice(-LAST);
      const sum = last.reduce((s, c) => s.map((x, b) => x + c[b]), new Array(EDGES.length - 1).fill(0));
      sum.forEach((x, b) => (struck[b] += x));
      perStrike.push(`  seed ${seed}: ${sum.join(" / ")} near wire cells under 0.1 / 0.1-0.5 / flagged over its last ${last.length} decisions`);
    } else if (!(r.outcome.type === "collision" && r.outcome.obstacle === "branch")) {
      for (const c of ring) c.forEach((x, b) => (others[b] += x));
    }
  }
  const line = (name, counts) => {
    const total = counts.reduce((x, y) => x + y, 0);
    const share = counts.map((c) => `${((100 * c) / Math.max(1, total)).toFixed(1)} %`).join(" / ");
    return `${name}: ${total} near wire cells; under 0.1 / 0.1-0.5 / flagged (>= 0.5): ${share}`;
  };
  console.log(`harness-gap, clip 8${aim === undefined ? "" : `, aimed [${aim.low}, ${aim.high})`}, 60 val seeds from 6000, ${condition}: ${perStrike.length} wire strikes`);
  console.log(line(`last ${LAST} decisions before the wire strikes`, struck));
  perStrike.forEach((s) => console.log(s));
  console.log(line("every decision of the flights without a wire or branch strike", others));
  detector.dispose();
})();
