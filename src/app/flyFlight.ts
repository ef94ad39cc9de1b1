/**
 * One closed-loop flight of the main job: the nodes of launch/sim.launch.xml (sim, perception,
 * harness, controller, safety) started from the launch plan on a fresh embedded graph, the
 * simulator in lock-step (mode "lockstep": one physics tick, then the graph is spun until idle,
 * so every camera frame's command is computed before the simulation moves on, however slow the
 * CPU), the networks shared in memory. Observers on the graph collect, per camera frame: the
 * latency camera -> /cmd_vel, the corrected and student cell probabilities against the
 * simulator's ground-truth mask, r and max|delta|, the drone's position, and a few frames with
 * their detections for the report.
 *
 * Latency: t0 is when the image is handed to the first subscriber of camera/image_raw (ours,
 * created before the nodes; the graph delivers in publish order), t1 when /cmd_vel with the same
 * header stamp is delivered to our subscriber; wall clock (process.hrtime).
 */
import type { SimLaunchedNode } from "../../nodes/sim";
import type {
  drone_harness_msgs__msg__GroundTruth as GroundTruthMsg,
  drone_harness_msgs__msg__HarnessCorrection as CorrectionMsg,
  drone_harness_msgs__msg__StudentOutput as StudentOutputMsg,
  geometry_msgs__msg__TwistStamped as TwistStampedMsg,
  sensor_msgs__msg__Image as ImageMsg,
  vision_msgs__msg__Detection2DArray as DetectionsMsg,
} from "../ros/msgs/generated";
import { cellLabelsFromMask } from "../harness/eval/CellLabels";
import { NUM_DETECTION_CLASSES } from "../harness/actions";
import { EmbeddedGraph } from "../ros/graph";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../ros/graph/types";
import { stampToNs as stampNs } from "../util/time";
import { DecisionCheck } from "./decisionChange";
import { factoryOptions } from "../ros/launch/Launcher";
import type { LaunchPlan } from "../ros/launch/LaunchPlan";
import { activateIfLifecycle, type LaunchedNode, type NodeRegistry } from "../ros/launch/NodeFactory";
import type { CellScoreAccumulator } from "./CellScoreAccumulator";
import type { Arm, Box, FlightRecord, FrameSample, WorldSketch } from "./types";
import { worldSketch } from "./worldSketch";

export type FlightOptions = {
  arm: Arm;
  seed: number;
  /** The evaluated launch/sim.launch.xml for this seed and arm. */
  plan: LaunchPlan;
  registry: NodeRegistry;
  /** Simulated seconds to fly at most (the flight also ends at a collision, the goal or the scenario's time limit). */
  duration_s: number;
  /** AP accumulators of this arm: the cell probabilities the controller used (harness/policy) and the student's. */
  policyScores: CellScoreAccumulator;
  studentScores: CellScoreAccumulator;
  /** Camera frames to keep for the report (the ones with the most wire/branch pixels, spread out). */
  keepSamples: number;
  /** Called once the nodes run, before the first tick (the bag recorder subscribes here); its result is awaited after the flight. */
  onStarted?: (graph: EmbeddedGraph) => Promise<() => Promise<void>>;
  /** Called once the nodes run, before onStarted and the first tick (e.g. a live viewer attaches). */
  onGraph?: (graph: EmbeddedGraph) => Promise<void>;
  /** Sim seconds after which the recorder started by onStarted is stopped. Default: the whole flight. */
  bagSeconds?: number;
  /** Called after every camera frame (progress). */
  onFrame?: (simTime_s: number) => void;
  /** Awaited every `yieldEvery` camera frames so asynchronous work (bag writes) can run. Default 1. */
  yieldEvery?: number;
};

/** Frames per flight kept where the correction changed the planner's manoeuvre. */
const MAX_CHANGED_FRAMES = 4;

function boxesOf(m: DetectionsMsg | undefined): Box[] {
  if (m === undefined) return [];
  return m.detections.map((d) => {
    const h = d.results[0]?.hypothesis;
    const cx = d.bbox.center.position.x, cy = d.bbox.center.position.y;
    return { classId: h?.class_id ?? "?", score: h?.score ?? 0, x0: cx - d.bbox.size_x / 2, y0: cy - d.bbox.size_y / 2, x1: cx + d.bbox.size_x / 2, y1: cy + d.bbox.size_y / 2 };
  });
}

function truthBoxes(g: GroundTruthMsg): Box[] {
  const out: Box[] = [];
  for (let i = 0; i < g.box_class.length; i++) {
    const c = g.box_class[i]!;
    if (c !== 1 && c !== 2) continue;
    out.push({ classId: c === 1 ? "wire" : "branch", score: 1, x0: g.box_x_min[i]!, y0: g.box_y_min[i]!, x1: g.box_x_max[i]!, y1: g.box_y_max[i]! });
  }
  return out;
}

/** Keeps the `k` frames with the most thin-structure pixels, at least `gap` frames apart. */
function offerSample(samples: FrameSample[], k: number, gap: number, frame: number, thinPixels: number, make: () => FrameSample): void {
  if (k <= 0 || thinPixels <= 0) return;
  const near = samples.findIndex((s) => Math.abs(s.frame - frame) < gap);
  if (near >= 0) {
    if (samples[near]!.thinPixels < thinPixels) samples[near] = make();
    return;
  }
  if (samples.length < k) {
    samples.push(make());
    return;
  }
  let worst = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i]!.thinPixels < samples[worst]!.thinPixels) worst = i;
  if (samples[worst]!.thinPixels < thinPixels) samples[worst] = make();
}

export async function flyFlight(o: FlightOptions): Promise<{ record: FlightRecord; world: WorldSketch }> {
  const t0Flight = Date.now();
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  const obs = graph.createNode("main_job_observer");
  const hr = (): bigint => process.hrtime.bigint();

  // Observers first, so ours is the first delivery of every camera image.
  let cam: { stamp: bigint; t0: bigint; msg: ImageMsg } | undefined;
  let cmdAt: bigint | undefined;
  const currentCamera = (): typeof cam => cam;
  let cmd: { vx: number; vz: number; wz: number } | undefined;
  const currentCommand = (): typeof cmd => cmd;
  let truth: GroundTruthMsg | undefined;
  let policy: StudentOutputMsg | undefined;
  let student: StudentOutputMsg | undefined;
  let correction: CorrectionMsg | undefined;
  let raw: DetectionsMsg | undefined;
  let corrected: DetectionsMsg | undefined;
  const reliable = { qos: { ...QOS_DEFAULT, depth: 50 } };
  obs.createSubscription<ImageMsg>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA }, (m) => {
    cam = { stamp: stampNs(m.header.stamp), t0: hr(), msg: m };
    cmdAt = undefined;
    cmd = undefined;
  });
  obs.createSubscription<TwistStampedMsg>("geometry_msgs/msg/TwistStamped", "/cmd_vel", reliable, (m) => {
    if (cam !== undefined && cmdAt === undefined && stampNs(m.header.stamp) === cam.stamp) {
      cmdAt = hr();
      cmd = { vx: m.twist.linear.x, vz: m.twist.linear.z, wz: m.twist.angular.z };
    }
  });
  obs.createSubscription<GroundTruthMsg>("drone_harness_msgs/msg/GroundTruth", "/sim/ground_truth", reliable, (m) => (truth = m));
  obs.createSubscription<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/policy", reliable, (m) => (policy = m));
  obs.createSubscription<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/student_output", reliable, (m) => (student = m));
  obs.createSubscription<CorrectionMsg>("drone_harness_msgs/msg/HarnessCorrection", "/harness/correction", reliable, (m) => (correction = m));
  obs.createSubscription<DetectionsMsg>("vision_msgs/msg/Detection2DArray", "/harness/obstacles_raw", reliable, (m) => (raw = m));
  obs.createSubscription<DetectionsMsg>("vision_msgs/msg/Detection2DArray", "/harness/obstacles", reliable, (m) => (corrected = m));

  const launched: LaunchedNode[] = [];
  let simNode: SimLaunchedNode | undefined;
  let finish: (() => Promise<void>) | undefined;
  try {
    for (const d of o.plan.nodes) {
      const factory = o.registry[d.executable];
      if (factory === undefined) throw new Error(`${d.source.file}:${d.source.line}: no node executable "${d.executable}" in the registry`);
      const options = factoryOptions(d);
      if (d.executable === "sim") options.parameterOverrides = { ...options.parameterOverrides, mode: "lockstep", publish_ground_truth: true };
      const l = await factory(graph, options);
      launched.push(l);
      await activateIfLifecycle(l);
      if (d.executable === "sim") simNode = l as SimLaunchedNode;
    }
    if (simNode === undefined) throw new Error("the launch plan has no sim node (launch/sim.launch.xml starts one)");
    const ctl = simNode.controller;
    const sim = ctl.sim;
    const world = worldSketch(sim.world);
    await o.onGraph?.(graph);
    finish = await o.onStarted?.(graph);
    graph.spinUntilIdle();

    // Cell labels of the current frame, reused (sized on the first frame from the grid).
    let labelBuf = new Uint8Array(0);
    let minClearance = { clearance_m: Number.POSITIVE_INFINITY, time_s: Number.NaN };
    const series: FlightRecord["series"] = { time_s: [], x: [], y: [], z: [], risk: [], maxAbsDelta: [], cmdVx: [], cmdVz: [], cmdYawRate: [] };
    const latencyMs: number[] = [];
    const samples: FrameSample[] = [];
    let lastFrame: (() => FrameSample) | undefined;
    const decisions = new DecisionCheck();
    let decisionsChanged = 0;
    const changedFrames: FrameSample[] = [];
    let framesWithoutCommand = 0;
    const withoutAt: number[] = [];
    let framesIncomplete = 0;
    let frames = 0;
    let distance = 0;
    const p = sim.drone.position;
    let px = p[0]!, py = p[1]!, pz = p[2]!;
    const yieldEvery = o.yieldEvery ?? 1;
    const maxTicks = Math.ceil(o.duration_s / ctl.tick_s);
    for (let tick = 0; tick < maxTicks && sim.status === "flying"; tick++) {
      cam = undefined;
      ctl.tick();
      graph.spinUntilIdle();
      distance += Math.hypot(p[0]! - px, p[1]! - py, p[2]! - pz);
      px = p[0]!;
      py = p[1]!;
      pz = p[2]!;
      // Read through a function: the subscription callbacks assigned it during the spin.
      const c = currentCamera();
      if (c === undefined) continue;
      frames++;
      const t = Number(c.stamp) / 1e9;
      if (cmdAt === undefined) {
        framesWithoutCommand++;
        if (withoutAt.length < 20) withoutAt.push(t);
      } else latencyMs.push(Number(cmdAt - c.t0) / 1e6);
      series.time_s.push(t);
      series.x.push(px);
      series.y.push(py);
      series.z.push(pz);
      const corr = correction !== undefined && stampNs(correction.header.stamp) === c.stamp ? correction : undefined;
      series.risk.push(corr?.risk ?? Number.NaN);
      series.maxAbsDelta.push(corr?.max_abs_delta ?? Number.NaN);
      const clearance = sim.clearance_m();
      if (clearance < minClearance.clearance_m) minClearance = { clearance_m: clearance, time_s: t };
      const answer = currentCommand();
      series.cmdVx.push(answer?.vx ?? Number.NaN);
      series.cmdVz.push(answer?.vz ?? Number.NaN);
      series.cmdYawRate.push(answer?.wz ?? Number.NaN);
      const gt = truth !== undefined && stampNs(truth.header.stamp) === c.stamp ? truth : undefined;
      const pol = policy !== undefined && stampNs(policy.header.stamp) === c.stamp ? policy : undefined;
      const stu = student !== undefined && stampNs(student.header.stamp) === c.stamp ? student : undefined;
      if (gt === undefined || pol === undefined || stu === undefined || corr === undefined) framesIncomplete++;
      // Both box sets of this frame, as one report sample (the boxes are copied only when a sample is kept).
      const rawNow = raw !== undefined && stampNs(raw.header.stamp) === c.stamp ? raw : undefined;
      const corNow = corrected !== undefined && stampNs(corrected.header.stamp) === c.stamp ? corrected : undefined;
      const frame = frames - 1;
      const sampleOf = (extra: Partial<FrameSample>): FrameSample => ({
        frame, time_s: t, width: c.msg.width, height: c.msg.height, rgb: Uint8Array.from(c.msg.data), thinPixels: 0,
        raw: boxesOf(rawNow), corrected: boxesOf(corNow), truth: gt === undefined ? [] : truthBoxes(gt), ...extra,
      });
      // Only a corrected policy can change the manoeuvre (the OFF arm's policy is the student's cells).
      const change = pol !== undefined && pol.corrected && stu !== undefined ? decisions.compare(stu, pol, sim) : undefined;
      if (change !== undefined) {
        decisionsChanged++;
        // The first few such frames are kept for the report (both box sets).
        if (changedFrames.length < MAX_CHANGED_FRAMES) changedFrames.push(sampleOf({ decisionChange: change }));
      }
      if (gt !== undefined && pol !== undefined) {
        const grid = { width: gt.width, height: gt.height, cell_px: gt.width / pol.grid_cols };
        const n = pol.grid_rows * pol.grid_cols * NUM_DETECTION_CLASSES;
        if (labelBuf.length !== n) labelBuf = new Uint8Array(n);
        cellLabelsFromMask(gt.mask instanceof Uint8Array ? gt.mask : Uint8Array.from(gt.mask), grid, labelBuf);
        o.policyScores.add(pol.cell_probs, labelBuf, pol.class_names.length);
        if (stu !== undefined) o.studentScores.add(stu.cell_probs, labelBuf, stu.class_names.length);
        // The frame before a collision is kept whatever keepSamples says (the report shows it).
        lastFrame = () => sampleOf({ beforeCollision: true });
        if (o.keepSamples > 0) {
          let thin = 0;
          for (let i = 0; i < gt.mask.length; i++) {
            const v = gt.mask[i]!;
            if (v === 1 || v === 2) thin++;
          }
          offerSample(samples, o.keepSamples, 45, frame, thin, () => sampleOf({ thinPixels: thin }));
        }
      }
      o.onFrame?.(t);
      if (finish !== undefined && o.bagSeconds !== undefined && t >= o.bagSeconds) {
        const f = finish;
        finish = undefined;
        await f();
      }
      if (frames % yieldEvery === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const col = sim.collision;
    const record: FlightRecord = {
      arm: o.arm,
      seed: o.seed,
      status: sim.status,
      simTime_s: sim.time_s,
      cameraFrames: frames,
      distance_m: distance,
      collision: col === undefined ? undefined : { time_s: col.time_s, x: col.position[0], y: col.position[1], z: col.position[2], cls: col.cls },
      latencyMs,
      framesWithoutCommand,
      framesWithoutCommandAt_s: withoutAt,
      framesIncomplete,
      series,
      minClearance,
      samples: [...samples, ...changedFrames, ...(sim.collision !== undefined && lastFrame !== undefined ? [lastFrame()] : [])].sort((a, b) => a.frame - b.frame),
      decisionsChanged,
      wallTime_ms: 0,
      callbackErrors: graph.callbackErrors,
      recorded: o.onStarted !== undefined,
    };
    if (finish !== undefined) {
      const f = finish;
      finish = undefined;
      await f();
    }
    record.wallTime_ms = Date.now() - t0Flight;
    return { record, world };
  } finally {
    if (finish !== undefined) await finish();
    for (const l of [...launched].reverse()) await l.stop();
    await graph.shutdown();
  }
}
