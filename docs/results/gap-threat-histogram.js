// Sixteenth session, analysis for the next step of issue 13 (no choice is made on it): on the first 20 val seeds from
// 6000 (nominal), student-r2 with harness-gap at clip 8 ON and OFF, every decision's near wire cells (the truth's visible
// wire pixels within the threat horizon, CellLabels.nearClassCells) binned by the near-threat probability the planner
// read. The wire-gap cells are those under 0.5; how far under tells how large a push would complete them.
// Run from the repository root after npm run build: node docs/results/gap-threat-histogram.js
// Seventeenth session: `node docs/results/gap-threat-histogram.js --aim 0.1,0.5 --clip X` flies only the harness-ON arm
// with the aimed correction (SpatialHarnessOptions.aim) at region clip X.
const path = require("node:path");
const dist = (p) => require(path.resolve("dist/src", p));
const { loadScenarioFile } = require(path.resolve("dist/sim"));
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
const { splitOfSeed } = require(path.resolve("dist/sim"));
const { DETECTION_CLASSES } = dist("harness/actions");

const EDGES = [0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 1.0001];
(async () => {
  await initBackend({ warn: () => undefined });
  const scenario = loadScenarioFile("sim/scenarios/default.yaml");
  const detector = (await loadTeacher("models/coevo/student-r2")).model;
  const model = (await loadSpatialHarness("models/coevo/harness-gap")).model;
  const seeds = harnessEvalSeeds({ split: "val", splitOf: splitOfSeed, flights: 20, firstSeed: 6000 });
  const factory = simEnvironmentFactory(scenario, "val", { controlPeriod_s: FULL_CONFIG.controlPeriod_s });
  const wire = DETECTION_CLASSES.indexOf("wire");
  const args = process.argv.slice(2);
  const opt = (flag) => (args.indexOf(flag) >= 0 ? args[args.indexOf(flag) + 1] : undefined);
  const aimArg = opt("--aim");
  const aim = aimArg === undefined ? undefined : { low: Number(aimArg.split(",")[0]), high: Number(aimArg.split(",")[1]) };
  const clip = Number(opt("--clip") ?? 8);
  for (const apply of aim === undefined ? [false, true] : [true]) {
    const options = { regionClip: clip, ...(aim === undefined ? {} : { aim }) };
    const inner = new PlannerPilot({ type: "detector", detector, harness: { model, apply, options } });
    const counts = new Array(EDGES.length - 1).fill(0);
    let scratch = new Uint8Array(0);
    let near = new Uint8Array(0);
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
        for (let c = 0; c < near.length; c++) {
          if (near[c] !== 1) continue;
          const t = threat[c];
          for (let b = 0; b < counts.length; b++) if (t >= EDGES[b] && t < EDGES[b + 1]) counts[b]++;
        }
        return a;
      },
    };
    let collisions = 0;
    for (const seed of seeds) {
      const r = flyClosedLoop(factory(seed, { perturbed: false }), pilot, STATE_DIM);
      if (r.outcome.type === "collision") collisions++;
    }
    const total = counts.reduce((x, y) => x + y, 0);
    const arm = apply ? `ON${aim === undefined ? "" : `, aimed [${aim.low}, ${aim.high}), clip ${clip}`} ` : "OFF";
    console.log(`harness ${arm} (${seeds.length} val seeds from 6000, nominal; ${collisions} collisions): ${total} near wire cells over all decisions`);
    counts.forEach((c, b) => console.log(`  threat in [${EDGES[b].toFixed(2)}, ${Math.min(1, EDGES[b + 1]).toFixed(2)}${b === counts.length - 1 ? "]" : ")"}: ${c} (${((100 * c) / total).toFixed(1)} %)`));
  }
  detector.dispose();
})();
