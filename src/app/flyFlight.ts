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
  diagnostic_msgs__msg__DiagnosticArray as DiagnosticArrayMsg,
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
import type { Simulation } from "../../sim/Simulation";

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

/** One camera frame as the observers saw it after a spin: the image and the messages with its stamp. */
type ObservedFrame = {
  time_s: number;
  image: ImageMsg;
  /** Wall ms from the image reaching the graph to the /cmd_vel of its stamp; undefined when none came. */
  latencyMs: number | undefined;
  command: { vx: number; vz: number; wz: number } | undefined;
  /** The controller's command of the same stamp (/cmd_vel_raw), before the safety node. */
  rawCommand: { vx: number; vz: number; wz: number } | undefined;
  /** The safety node's last override reason on /diagnostics (undefined while it passes commands). */
  safetyReason: string | undefined;
  truth: GroundTruthMsg | undefined;
  policy: StudentOutputMsg | undefined;
  student: StudentOutputMsg | undefined;
  correction: CorrectionMsg | undefined;
  raw: DetectionsMsg | undefined;
  corrected: DetectionsMsg | undefined;
};

type Stamped = { header: { stamp: Parameters<typeof stampNs>[0] } };

/**
 * The flight's observers: the latest message of each topic, and when the /cmd_vel answering the
 * current camera image came. Created before the nodes, so its camera subscription is the first
 * delivery of every image (the latency's t0).
 */
class FlightObserver {
  private cam: { stamp: bigint; t0: bigint; msg: ImageMsg } | undefined;
  private cmdAt: bigint | undefined;
  private cmd: { vx: number; vz: number; wz: number } | undefined;
  private rawCmd: { stamp: bigint; vx: number; vz: number; wz: number } | undefined;
  private safetyReason: string | undefined;
  private truth: GroundTruthMsg | undefined;
  private policy: StudentOutputMsg | undefined;
  private student: StudentOutputMsg | undefined;
  private correction: CorrectionMsg | undefined;
  private raw: DetectionsMsg | undefined;
  private corrected: DetectionsMsg | undefined;

  constructor(graph: EmbeddedGraph) {
    const obs = graph.createNode("main_job_observer");
    const hr = (): bigint => process.hrtime.bigint();
    const reliable = { qos: { ...QOS_DEFAULT, depth: 50 } };
    obs.createSubscription<ImageMsg>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA }, (m) => {
      this.cam = { stamp: stampNs(m.header.stamp), t0: hr(), msg: m };
      this.cmdAt = undefined;
      this.cmd = undefined;
    });
    obs.createSubscription<TwistStampedMsg>("geometry_msgs/msg/TwistStamped", "/cmd_vel", reliable, (m) => {
      if (this.cam !== undefined && this.cmdAt === undefined && stampNs(m.header.stamp) === this.cam.stamp) {
        this.cmdAt = hr();
        this.cmd = { vx: m.twist.linear.x, vz: m.twist.linear.z, wz: m.twist.angular.z };
      }
    });
    obs.createSubscription<TwistStampedMsg>("geometry_msgs/msg/TwistStamped", "/cmd_vel_raw", reliable, (m) => {
      this.rawCmd = { stamp: stampNs(m.header.stamp), vx: m.twist.linear.x, vz: m.twist.linear.z, wz: m.twist.angular.z };
    });
    obs.createSubscription<DiagnosticArrayMsg>("diagnostic_msgs/msg/DiagnosticArray", "/diagnostics", reliable, (m) => {
      for (const st of m.status) {
        if (st.hardware_id !== "safety") continue;
        const value = (key: string): string | undefined => st.values.find((v) => v.key === key)?.value;
        if (value("override") !== undefined) this.safetyReason = value("override") === "true" ? value("reason") ?? "" : undefined;
      }
    });
    obs.createSubscription<GroundTruthMsg>("drone_harness_msgs/msg/GroundTruth", "/sim/ground_truth", reliable, (m) => (this.truth = m));
    obs.createSubscription<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/policy", reliable, (m) => (this.policy = m));
    obs.createSubscription<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/student_output", reliable, (m) => (this.student = m));
    obs.createSubscription<CorrectionMsg>("drone_harness_msgs/msg/HarnessCorrection", "/harness/correction", reliable, (m) => (this.correction = m));
    obs.createSubscription<DetectionsMsg>("vision_msgs/msg/Detection2DArray", "/harness/obstacles_raw", reliable, (m) => (this.raw = m));
    obs.createSubscription<DetectionsMsg>("vision_msgs/msg/Detection2DArray", "/harness/obstacles", reliable, (m) => (this.corrected = m));
  }

  /** Forgets the camera image before a tick: a tick that publishes none is not a camera frame. */
  clearCamera(): void {
    this.cam = undefined;
  }

  /** The camera frame delivered during the last spin (undefined when none was), with the messages of its stamp. */
  frame(): ObservedFrame | undefined {
    const c = this.cam;
    if (c === undefined) return undefined;
    const same = <T extends Stamped>(m: T | undefined): T | undefined => (m !== undefined && stampNs(m.header.stamp) === c.stamp ? m : undefined);
    return {
      time_s: Number(c.stamp) / 1e9,
      image: c.msg,
      latencyMs: this.cmdAt === undefined ? undefined : Number(this.cmdAt - c.t0) / 1e6,
      command: this.cmd,
      rawCommand: this.rawCmd !== undefined && this.rawCmd.stamp === c.stamp ? { vx: this.rawCmd.vx, vz: this.rawCmd.vz, wz: this.rawCmd.wz } : undefined,
      safetyReason: this.safetyReason,
      truth: same(this.truth),
      policy: same(this.policy),
      student: same(this.student),
      correction: same(this.correction),
      raw: same(this.raw),
      corrected: same(this.corrected),
    };
  }
}

/**
 * Starts the plan's nodes on `graph` (the sim in lock-step, publishing ground truth), each added to
 * `launched` as it starts so that the caller stops them whatever happens; returns the sim node.
 */
async function launchFlightNodes(graph: EmbeddedGraph, plan: LaunchPlan, registry: NodeRegistry, launched: LaunchedNode[]): Promise<SimLaunchedNode> {
  let simNode: SimLaunchedNode | undefined;
  for (const d of plan.nodes) {
    const factory = registry[d.executable];
    if (factory === undefined) throw new Error(`${d.source.file}:${d.source.line}: no node executable "${d.executable}" in the registry`);
    const options = factoryOptions(d);
    if (d.executable === "sim") options.parameterOverrides = { ...options.parameterOverrides, mode: "lockstep", publish_ground_truth: true };
    const l = await factory(graph, options);
    launched.push(l);
    await activateIfLifecycle(l);
    if (d.executable === "sim") simNode = l as SimLaunchedNode;
  }
  if (simNode === undefined) throw new Error("the launch plan has no sim node (launch/sim.launch.xml starts one)");
  return simNode;
}

/** What a flight accumulates camera frame by camera frame for its FlightRecord. */
class FlightLog {
  frames = 0;
  private distance = 0;
  private px: number;
  private py: number;
  private pz: number;
  private readonly series: FlightRecord["series"] = { time_s: [], x: [], y: [], z: [], risk: [], maxAbsDelta: [], cmdVx: [], cmdVz: [], cmdYawRate: [] };
  private readonly latencyMs: number[] = [];
  private framesWithoutCommand = 0;
  private readonly withoutAt: number[] = [];
  private framesIncomplete = 0;
  private minClearance = { clearance_m: Number.POSITIVE_INFINITY, time_s: Number.NaN };
  private readonly samples: FrameSample[] = [];
  private lastFrame: (() => FrameSample) | undefined;
  private readonly decisions = new DecisionCheck();
  private decisionsChanged = 0;
  private readonly safetyOverrides: FlightRecord["safetyOverrides"] = { frames: 0, byCause: {} };
  private readonly changedFrames: FrameSample[] = [];
  // Cell labels of the current frame, reused (sized on the first frame from the grid).
  private labelBuf = new Uint8Array(0);

  /** `position`: the drone's position array, read after every tick. */
  constructor(private readonly position: Float64Array) {
    this.px = position[0]!;
    this.py = position[1]!;
    this.pz = position[2]!;
  }

  /** After every tick: the distance flown since the last one. */
  move(): void {
    const p = this.position;
    this.distance += Math.hypot(p[0]! - this.px, p[1]! - this.py, p[2]! - this.pz);
    this.px = p[0]!;
    this.py = p[1]!;
    this.pz = p[2]!;
  }

  addFrame(f: ObservedFrame, sim: Simulation, o: FlightOptions): void {
    this.frames++;
    const t = f.time_s;
    if (f.latencyMs === undefined) {
      this.framesWithoutCommand++;
      if (this.withoutAt.length < 20) this.withoutAt.push(t);
    } else this.latencyMs.push(f.latencyMs);
    this.addSeries(f, sim);
    this.countOverride(f);
    const { truth: gt, policy: pol, student: stu } = f;
    if (gt === undefined || pol === undefined || stu === undefined || f.correction === undefined) this.framesIncomplete++;
    const frame = this.frames - 1;
    const sampleOf = frameSampler(f, frame);
    // Only a corrected policy can change the manoeuvre (the OFF arm's policy is the student's cells).
    const change = pol !== undefined && pol.corrected && stu !== undefined ? this.decisions.compare(stu, pol, sim) : undefined;
    if (change !== undefined) {
      this.decisionsChanged++;
      // The first few such frames are kept for the report (both box sets).
      if (this.changedFrames.length < MAX_CHANGED_FRAMES) this.changedFrames.push(sampleOf({ decisionChange: change }));
    }
    if (gt !== undefined && pol !== undefined) {
      this.scoreCells(gt, pol, stu, o);
      // The frame before a collision is kept whatever keepSamples says (the report shows it).
      this.lastFrame = () => sampleOf({ beforeCollision: true });
      if (o.keepSamples > 0) {
        const thin = thinPixels(gt.mask);
        offerSample(this.samples, o.keepSamples, 45, frame, thin, () => sampleOf({ thinPixels: thin }));
      }
    }
  }

  /** A frame whose /cmd_vel is not the controller's command of its stamp: the safety node overrode it. */
  private countOverride(f: ObservedFrame): void {
    const c = f.command, r = f.rawCommand;
    if (c === undefined || r === undefined || (c.vx === r.vx && c.vz === r.vz && c.wz === r.wz)) return;
    const cause = safetyCause(f.safetyReason);
    this.safetyOverrides.frames++;
    this.safetyOverrides.byCause[cause] = (this.safetyOverrides.byCause[cause] ?? 0) + 1;
  }

  private addSeries(f: ObservedFrame, sim: Simulation): void {
    const t = f.time_s;
    const s = this.series;
    s.time_s.push(t);
    s.x.push(this.px);
    s.y.push(this.py);
    s.z.push(this.pz);
    s.risk.push(f.correction?.risk ?? Number.NaN);
    s.maxAbsDelta.push(f.correction?.max_abs_delta ?? Number.NaN);
    const clearance = sim.clearance_m();
    if (clearance < this.minClearance.clearance_m) this.minClearance = { clearance_m: clearance, time_s: t };
    s.cmdVx.push(f.command?.vx ?? Number.NaN);
    s.cmdVz.push(f.command?.vz ?? Number.NaN);
    s.cmdYawRate.push(f.command?.wz ?? Number.NaN);
  }

  /** Adds the frame's policy and student cells, labelled from the ground-truth mask, to the arm's AP accumulators. */
  private scoreCells(gt: GroundTruthMsg, pol: StudentOutputMsg, stu: StudentOutputMsg | undefined, o: FlightOptions): void {
    const grid = { width: gt.width, height: gt.height, cell_px: gt.width / pol.grid_cols };
    const n = pol.grid_rows * pol.grid_cols * NUM_DETECTION_CLASSES;
    if (this.labelBuf.length !== n) this.labelBuf = new Uint8Array(n);
    cellLabelsFromMask(gt.mask instanceof Uint8Array ? gt.mask : Uint8Array.from(gt.mask), grid, this.labelBuf);
    o.policyScores.add(pol.cell_probs, this.labelBuf, pol.class_names.length);
    if (stu !== undefined) o.studentScores.add(stu.cell_probs, this.labelBuf, stu.class_names.length);
  }

  /** The flight's record; wallTime_ms is left 0 for the caller. */
  record(o: FlightOptions, sim: Simulation, callbackErrors: number): FlightRecord {
    const col = sim.collision;
    return {
      arm: o.arm,
      seed: o.seed,
      status: sim.status,
      simTime_s: sim.time_s,
      cameraFrames: this.frames,
      distance_m: this.distance,
      collision: col === undefined ? undefined : { time_s: col.time_s, x: col.position[0], y: col.position[1], z: col.position[2], cls: col.cls },
      latencyMs: this.latencyMs,
      framesWithoutCommand: this.framesWithoutCommand,
      framesWithoutCommandAt_s: this.withoutAt,
      framesIncomplete: this.framesIncomplete,
      series: this.series,
      minClearance: this.minClearance,
      samples: [...this.samples, ...this.changedFrames, ...(sim.collision !== undefined && this.lastFrame !== undefined ? [this.lastFrame()] : [])].sort((a, b) => a.frame - b.frame),
      decisionsChanged: this.decisionsChanged,
      safetyOverrides: this.safetyOverrides,
      wallTime_ms: 0,
      callbackErrors,
      recorded: o.onStarted !== undefined,
    };
  }
}

/** Both box sets of a frame, as one report sample (the image and boxes are copied only when a sample is kept). */
function frameSampler(f: ObservedFrame, frame: number): (extra: Partial<FrameSample>) => FrameSample {
  const { image, truth, raw, corrected } = f;
  return (extra) => ({
    frame, time_s: f.time_s, width: image.width, height: image.height, rgb: Uint8Array.from(image.data), thinPixels: 0,
    raw: boxesOf(raw), corrected: boxesOf(corrected), truth: truth === undefined ? [] : truthBoxes(truth), ...extra,
  });
}

/** The cause of a safety override: its /diagnostics reason up to the first ':' ("harness", "gps", ...). */
export function safetyCause(reason: string | undefined): string {
  if (reason === undefined || reason === "") return "unknown";
  const k = reason.indexOf(":");
  return k > 0 ? reason.slice(0, k) : reason;
}

/** Wire and branch pixels of a ground-truth mask. */
function thinPixels(mask: ArrayLike<number>): number {
  let thin = 0;
  for (let i = 0; i < mask.length; i++) {
    const v = mask[i]!;
    if (v === 1 || v === 2) thin++;
  }
  return thin;
}

export async function flyFlight(o: FlightOptions): Promise<{ record: FlightRecord; world: WorldSketch }> {
  const t0Flight = Date.now();
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  // Observers first, so ours is the first delivery of every camera image.
  const observer = new FlightObserver(graph);
  const launched: LaunchedNode[] = [];
  let finish: (() => Promise<void>) | undefined;
  try {
    const ctl = (await launchFlightNodes(graph, o.plan, o.registry, launched)).controller;
    const sim = ctl.sim;
    const world = worldSketch(sim.world);
    await o.onGraph?.(graph);
    finish = await o.onStarted?.(graph);
    graph.spinUntilIdle();
    const log = new FlightLog(sim.drone.position);
    const yieldEvery = o.yieldEvery ?? 1;
    const maxTicks = Math.ceil(o.duration_s / ctl.tick_s);
    for (let tick = 0; tick < maxTicks && sim.status === "flying"; tick++) {
      observer.clearCamera();
      ctl.tick();
      graph.spinUntilIdle();
      log.move();
      const frame = observer.frame();
      if (frame === undefined) continue;
      log.addFrame(frame, sim, o);
      o.onFrame?.(frame.time_s);
      if (finish !== undefined && o.bagSeconds !== undefined && frame.time_s >= o.bagSeconds) {
        const f = finish;
        finish = undefined;
        await f();
      }
      if (log.frames % yieldEvery === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const record = log.record(o, sim, graph.callbackErrors);
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
