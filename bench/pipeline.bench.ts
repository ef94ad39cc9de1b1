/**
 * Pipeline benchmarks (issue 12 "What it must show"):
 *  - per-frame decision time of the student-size detector + local planner at 256x256 (the
 *    PlannerPilot path eval flies: image -> near-threat grid -> planner logits), p50 / p99 over
 *    a flight's worth of frames; target p50 < 15 ms; the teacher-size detector in the same run;
 *  - the spatial harness's overhead (issue 13): student + harness + planner against student +
 *    planner on the same frames, interleaved, p50 ratio; targets <= 20 % overhead, <= 15 ms p50;
 *    once all in one thread, once with the harness's image side prepared ahead (what the harness
 *    node does when it runs in its own process: only the rest is on the camera -> /cmd_vel path);
 *  - worker speed-up of frame generation: the same 24 expert flights recorded into two fresh caches
 *    by `drone-harness dataset` in a fresh process with 1 and with 2 worker threads; target >= 1.7x
 *    on 2 cores. Run it on an idle
 *    machine: a busy core (e.g. a training run) caps the speed-up near 1. Next to it, what two
 *    threads give on this machine for a fixed kernel (parallelCeiling.ts), in the same run.
 * The detectors are the committed ones in models/pipeline/ when present, else freshly initialised
 * networks of the same size (same cost: the time does not depend on the weights).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_SCENARIO, seedsOfSplit } from "../sim";
import { initBackend } from "../src/harness/backend";
import { SimEnvironment } from "../src/harness/data/simEnvironment";
import { PlannerPilot } from "../src/harness/eval/PlannerPilot";
import { makeNavigation } from "../src/control/navigation";
import { parallelCeiling } from "./parallelCeiling";
import { summarizeLatency } from "../src/harness/eval/Percentiles";
import { loadSpatialHarness, loadTeacher } from "../src/harness/modelfile";
import { SpatialHarness } from "../src/harness/spatial/SpatialHarness";
import { Teacher } from "../src/harness/models/Teacher";
import { STATE_DIM } from "../src/harness/models/stateVector";
import { DETECTOR_SIZES } from "../src/harness/training/detectorStage";
import { configuredPair, configuredPlanner } from "../src/app/loadModels";
import { alarmLevelOf } from "../src/harness/correction/constants";

async function detector(size: "teacher" | "student"): Promise<{ model: Teacher; from: string }> {
  const dir = path.join("models", "pipeline", size);
  if (fs.existsSync(path.join(dir, "teacher.model.json"))) return { model: (await loadTeacher(dir)).model, from: dir };
  return { model: new Teacher(DETECTOR_SIZES[size]), from: "untrained, same size" };
}

/**
 * Harness overhead (issue 13): the same frames through the student + planner with and without the
 * spatial harness, interleaved frame by frame so both see the same machine load.
 */
async function harnessOverhead(print: (line: string) => void, frames: readonly Uint8Array[], state: Float32Array, env: SimEnvironment): Promise<void> {
  // The pair and clip the nodes fly (config/, as test/app/nodesModelConfig.test.ts checks them); the
  // BC student's folder when the co-evolved one is missing.
  const pair = configuredPair("config");
  const coevo = fs.existsSync(path.join(pair.detectorDir, "teacher.model.json"));
  const { model } = coevo ? { model: (await loadTeacher(pair.detectorDir)).model } : await detector("student");
  const hdir = pair.harnessDir;
  const harness = fs.existsSync(path.join(hdir, "spatial_harness.model.json")) ? (await loadSpatialHarness(hdir)).model : new SpatialHarness();
  const options = { regionClip: pair.regionClip, runawayDelta: alarmLevelOf(pair.lambdaAlarmDelta) };
  // The controller node's planner options (config/controller.yaml): the vertical commitment, the final approach, the scan and climb when stuck.
  const planner = configuredPlanner("config");
  const po = planner.options;
  const side = planner.commitSide === undefined ? {} : { commitSide: planner.commitSide };
  print(`harness overhead: detector ${coevo ? pair.detectorDir : "models/pipeline/student"}, harness ${hdir}, region clip ${options.regionClip}, lambda alarm ${options.runawayDelta}`);
  print(`planner as config/controller.yaml: vertical commitment ${po.verticalCommit > 0 ? `${po.verticalCommit},${po.verticalCommitWireCells},${planner.commitSide ?? "held"}` : "off"}, final approach ${po.arrivalRadius_m > 0 ? `${po.arrivalRadius_m} m guarded` : "off"}, scan when stuck ${po.scanWhenStuck_s > 0 ? `${po.scanWhenStuck_s} s` : "off"}, climb when stuck ${po.stuckClimb_m > 0 ? `${po.stuckClimb_m} m until ${po.stuckClimbRelease_m} m` : "off"} (every arm)`);
  const off = new PlannerPilot({ type: "detector", detector: model, ...side }, po);
  const on = new PlannerPilot({ type: "detector", detector: model, harness: { model: harness, options, apply: true }, ...side }, po);
  // The multi-process layout: the harness node computes the image side (grey, imagined frame,
  // gradient statistics) when the camera frame arrives, while the perception node runs the
  // detector in its own process on the other core (nodes/harness.ts onImage); only the rest is
  // on the camera -> /cmd_vel path. Here that arm's prepare() runs untimed before each frame.
  const ahead = new PlannerPilot({ type: "detector", detector: model, harness: { model: harness, options, apply: true }, ...side }, po);
  const nav = makeNavigation();
  env.navigation(nav);
  for (let w = 0; w < 5; w++) for (const p of [off, on, ahead]) p.act(frames[w % frames.length] as Uint8Array, state, env);
  const msOff: number[] = [];
  const msOn: number[] = [];
  const msAhead: number[] = [];
  const msPrepare: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const f of frames) {
      for (const [p, ms] of [[off, msOff], [on, msOn], [ahead, msAhead]] as const) {
        if (p === ahead) {
          const tp = performance.now();
          ahead.harnessRuntime?.prepare(f, nav, env.time_s);
          msPrepare.push(performance.now() - tp);
        }
        const t0 = performance.now();
        p.act(f, state, env);
        ms.push(performance.now() - t0);
      }
    }
  }
  const a = summarizeLatency(msOff);
  const b = summarizeLatency(msOn);
  const c = summarizeLatency(msAhead);
  const reused = ahead.harnessRuntime?.preparedSteps;
  print(`| student + spatial harness (${harness.parameterCount()} weights, ${fs.existsSync(path.join(hdir, "spatial_harness.model.json")) ? hdir : "untrained"}) + planner | ${b.p50_ms.toFixed(2)} | ${b.p99_ms.toFixed(2)} | student + planner, interleaved | ${a.p50_ms.toFixed(2)} | ${a.p99_ms.toFixed(2)} |`);
  print(`harness overhead, one thread (p50 ratio - 1, same run, interleaved): ${(100 * (b.p50_ms / a.p50_ms - 1)).toFixed(1)} % (target <= 20 %); student + harness + planner p50 ${b.p50_ms.toFixed(2)} ms (target <= 15 ms)`);
  print(`harness overhead on the camera -> decision path with the image side prepared ahead (harness node in its own process): p50 ${c.p50_ms.toFixed(2)} ms, ${(100 * (c.p50_ms / a.p50_ms - 1)).toFixed(1)} % (target <= 20 %); the image side itself p50 ${summarizeLatency(msPrepare).p50_ms.toFixed(2)} ms off that path; ${reused?.reused ?? 0} of ${reused?.steps ?? 0} steps reused it`);
}

/** One `drone-harness dataset` run in a fresh process: the generator's own seconds and the process's wall clock. */
async function datasetRun(cli: string, flights: number, workers: number): Promise<{ gen_s: number; wall_s: number; line: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `dh-bench-frames-${workers}-`));
  try {
    const args = [cli, "dataset", "--scenario", DEFAULT_SCENARIO.name, "--split", "train", "--flights", String(flights), "--cache", path.join(dir, "cache"), "--workers", String(workers)];
    args.push("--record-every", "4", "--frames-per-flight", "20", "--explore", "0.2", "--rng-seed", "1", "--pre-collision", "3", "--control-period", "0.25");
    const t0 = performance.now();
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout, stderr) => (err ? reject(new Error(`dataset --workers ${workers}: ${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    const wall_s = (performance.now() - t0) / 1000;
    const m = /flew (\d+) flights .*?, (\d+) frames in ([\d.]+) s/.exec(out);
    if (m === null) throw new Error(`dataset --workers ${workers}: no "frames in X s" line in its output:\n${out}`);
    return { gen_s: Number(m[3]), wall_s, line: `${m[1]} flights, ${m[2]} frames in ${m[3]} s (process ${wall_s.toFixed(2)} s)` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Worker speed-up of data generation as a user gets it: `drone-harness dataset` with --workers 1
 * and with --workers 2, each in a fresh process (both start cold: module loading, JIT warm-up and,
 * for 2, the worker threads' start-up are in the times), the same flights into fresh caches.
 * This machine's speed drifts by 10-30 % within minutes (another tenant's load), so one pair of
 * runs is not enough: `rounds` pairs, the order alternating (1-2, 2-1, ...), each pair's ratio of
 * the generators' own times, and the median of those ratios.
 */
async function frameGenerationSpeedup(print: (line: string) => void, flights: number, rounds: number): Promise<void> {
  const cli = path.join(__dirname, "..", "..", "bin", "drone-harness.js");
  if (!fs.existsSync(cli)) throw new Error(`${cli} not found: run "npm run build" first`);
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [1, 2] : [2, 1];
    const t = new Map<number, { gen_s: number; wall_s: number; line: string }>();
    for (const workers of order) t.set(workers, await datasetRun(cli, flights, workers));
    const one = t.get(1)!;
    const two = t.get(2)!;
    ratios.push(one.gen_s / two.gen_s);
    print(`frame generation, pair ${round + 1}: 1 worker ${one.line}; 2 workers ${two.line}: ${(one.gen_s / two.gen_s).toFixed(2)}x (process wall clock ${(one.wall_s / two.wall_s).toFixed(2)}x)`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  print(`worker speed-up (1 -> 2 workers), median of ${rounds} pairs: ${median.toFixed(2)}x (pairs ${ratios.map((r) => r.toFixed(2)).join(", ")}; target >= 1.7x on an idle 2-core machine)`);
}

export async function run(print: (line: string) => void): Promise<void> {
  const backend = await initBackend();
  print(`backend ${backend.name}${backend.simd ? " (simd)" : ""}, ${os.availableParallelism()} cores`);
  const seed = seedsOfSplit("test", 1)[0] ?? 1;
  const env = new SimEnvironment(DEFAULT_SCENARIO, seed, "test", false, { controlPeriod_s: 0.25 });
  const rgb = new Uint8Array(env.width * env.height * 3);
  const state = new Float32Array(STATE_DIM);
  const frames: Uint8Array[] = [];
  for (let i = 0; i < 40; i++) {
    env.render(rgb);
    frames.push(rgb.slice());
    if (env.step(0).type !== "running") break;
  }
  print(`| detector + planner, 256x256 | parameters | p50 ms | p99 ms | frames | weights |`);
  print(`|---|---|---|---|---|---|`);
  for (const size of ["student", "teacher"] as const) {
    const { model, from } = await detector(size);
    const pilot = new PlannerPilot({ type: "detector", detector: model });
    for (let w = 0; w < 5; w++) pilot.act(frames[w % frames.length] as Uint8Array, state, env);
    const ms: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const f of frames) {
        const t0 = performance.now();
        pilot.act(f, state, env);
        ms.push(performance.now() - t0);
      }
    }
    const l = summarizeLatency(ms);
    print(`| ${size} | ${model.parameterCount()} | ${l.p50_ms.toFixed(2)} | ${l.p99_ms.toFixed(2)} | ${ms.length} | ${from} |`);
  }

  await harnessOverhead(print, frames, state, env);

  // 48 flights, 24 per worker: the wait for the last flight at the end (about half a flight, 0.25 s)
  // is under 2 % of the run, as in a data stage of 150+ flights; with 24 it was about 4 %.
  await frameGenerationSpeedup(print, 48, 3);
  for (const c of await parallelCeiling()) {
    print(`machine ceiling, ${c.kind} kernel: one thread ${c.alone_ms.toFixed(0)} ms, two at once ${c.pair_ms.toFixed(0)} ms for twice the work: ${c.speedup.toFixed(2)}x`);
  }
}
