// The shared part of the diagnostics for issue 13 on the shipped pair's own flights (parallax-cue-s24.js,
// memory-cue-s25.js, line-cue-s25.js, risk-floor-s25.js): the shipped pair (student-r2 + harness-gap, region clip 8, the runtime's alarm at 0.6) flies train
// seeds (fit-harness's rollout seeds), nominal, and every decision is handed to onFrame with the student's own
// (uncorrected) near-threat grid, the harness runtime (risk, delta, grey frame, camera) and from the truth the near wire
// cells, the near cells of any class and the wire gaps (a near wire cell the student leaves under 0.5: fit-harness
// --risk-target wire-gap). Region q of the R x C regions of 4 x 4 cells covers the cells regionCells(q).
// Run the scripts from the repository root after npm run build.
const path = require("node:path");
const dist = (p) => require(path.resolve("dist/src", p));
const { loadScenarioFile, splitOfSeed } = require(path.resolve("dist/sim"));
const { initBackend } = dist("harness/backend");
const { loadTeacher, loadSpatialHarness } = dist("harness/modelfile");
const { PlannerPilot } = dist("harness/eval/PlannerPilot");
const { flyClosedLoop } = dist("harness/eval/flyClosedLoop");
const { makeNavigation } = dist("harness/data/DroneEnvironment");
const { nearClassCells, nearThreatCells, wireGapCells } = dist("harness/eval/CellLabels");
const { simEnvironmentFactory } = dist("harness/data/simEnvironment");
const { SeedSource } = dist("harness/data/SeedSplit");
const { FULL_CONFIG } = dist("harness/training/trainConfig");
const { STATE_DIM } = dist("harness/models/stateVector");
const { DETECTION_CLASSES } = dist("harness/actions");
const { FAR_DEPTH_M: FAR } = dist("harness/spatial/warp");

/** Average precision of scores against 0/1 labels (ranked, ties in input order). */
function ap(scores, labels) {
  const idx = scores.map((s, i) => i).sort((i, j) => scores[j] - scores[i]);
  let tp = 0, sum = 0; const P = labels.reduce((a, b) => a + b, 0);
  idx.forEach((i, r) => { if (labels[i]) { tp++; sum += tp / (r + 1); } });
  return P ? sum / P : NaN;
}

/**
 * Backward warp by the flat-ground model of warp.ts, climb included (a point at depth Z moves f h / Z px): out(q) =
 * prev(p(q)) on a W x H grid with the camera in that grid's units; m = {d forward m, a yaw left rad, b pitch nose-down
 * rad, h climb m, alt altitude m, bodyPitch rad}. The parallax cue warps frames with it, the memory cue cell grids.
 */
function flatGroundWarp(prev, W, H, cam, m, out) {
  const tilt = cam.pitchDown_rad + m.bodyPitch;
  for (let y = 0; y < H; y++) {
    const e = tilt + Math.atan((y + 0.5 - cam.cy) / cam.f_px);
    const z = e > 1e-3 ? Math.min(FAR, Math.max(0.5, m.alt) / Math.sin(e)) : FAR;
    const k = Math.max(0.2, (z - m.d) / z);
    let vy = (y + 0.5 - cam.cy) * k + cam.cy - 0.5 + cam.f_px * m.b - cam.f_px * m.h / z;
    vy = Math.min(H - 1, Math.max(0, vy));
    const sy0 = Math.floor(vy), sy1 = Math.min(H - 1, sy0 + 1), ay = vy - sy0;
    for (let x = 0; x < W; x++) {
      let vx = (x + 0.5 - cam.cx) * k + cam.cx - 0.5 - cam.f_px * m.a;
      vx = Math.min(W - 1, Math.max(0, vx));
      const sx0 = Math.floor(vx), sx1 = Math.min(W - 1, sx0 + 1), ax = vx - sx0;
      const t = prev[sy0 * W + sx0] * (1 - ax) + prev[sy0 * W + sx1] * ax;
      const b = prev[sy1 * W + sx0] * (1 - ax) + prev[sy1 * W + sx1] * ax;
      out[y * W + x] = t * (1 - ay) + b * ay;
    }
  }
}

/** The cell indices of region q on a grid of `cols` cell columns (C = cols / 4 regions per row). */
function regionCells(q, cols) {
  const C = cols / 4, rr = Math.floor(q / C), rc = q % C, out = [];
  for (let cy = rr * 4; cy < rr * 4 + 4; cy++) for (let cx = rc * 4; cx < rc * 4 + 4; cx++) out.push(cy * cols + cx);
  return out;
}

/** Flies `flights` train seeds from `first`; onFrame(frame) on every decision, onFlight() before each flight. */
async function flyShippedPair(flights, first, onFrame, onFlight = () => undefined) {
  await initBackend({ warn: () => undefined });
  const scenario = loadScenarioFile("sim/scenarios/default.yaml");
  const detector = (await loadTeacher("models/coevo/student-r2")).model;
  const model = (await loadSpatialHarness("models/coevo/harness-gap")).model;
  const seeds = new SeedSource("train", splitOfSeed).seeds(flights, first);
  const factory = simEnvironmentFactory(scenario, "train", { controlPeriod_s: FULL_CONFIG.controlPeriod_s });
  const wire = DETECTION_CLASSES.indexOf("wire");
  const inner = new PlannerPilot({ type: "detector", detector, harness: { model, apply: true, options: { regionClip: 8 } } });
  let scratch, nearWire, nearAny, gap;
  const pilot = {
    needsImage: true, needsTruth: true,
    reset: () => { inner.reset(); onFlight(); },
    act: (rgb, state, env, truth) => {
      const nav = env.navigation(makeNavigation());
      const a = inner.act(rgb, state, env, truth);
      const W = env.width, H = env.height, cols = W / 8, rows = H / 8;
      if (!gap) { scratch = new Uint8Array(W * H); nearWire = new Uint8Array(rows * cols); nearAny = new Uint8Array(rows * cols); gap = new Uint8Array(rows * cols); }
      const threat = inner.detectorRuntime.threat;
      const grid = { width: W, height: H, cell_px: 8 };
      nearClassCells(truth.visibleMask, wire, truth.depth, grid, nav.forwardSpeed_m_s, scratch, nearWire);
      nearThreatCells(truth.visibleMask, truth.depth, grid, nav.forwardSpeed_m_s, undefined, nearAny);
      wireGapCells(nearWire, threat, gap);
      onFrame({ env, nav, W, H, rows, cols, R: rows / 4, C: cols / 4, threat, hr: inner.harnessRuntime, nearWire, nearAny, gap });
      return a;
    },
  };
  let collisions = 0;
  for (const seed of seeds) if (flyClosedLoop(factory(seed, { perturbed: false }), pilot, STATE_DIM).outcome.type === "collision") collisions++;
  detector.dispose();
  return { seeds, collisions };
}

module.exports = { dist, ap, regionCells, flatGroundWarp, flyShippedPair };
