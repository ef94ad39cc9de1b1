/**
 * harness: camera/image_raw + imu/data + gps/fix + gps/vel + harness/student_output ->
 *   imagined rollout, S, r, delta (the Corrector: src/harness, src/vision) ->
 *   harness/obstacles   (vision_msgs/Detection2DArray from the corrected cell probabilities),
 *   harness/policy      (drone_harness_msgs/StudentOutput, corrected = true, for the controller),
 *   harness/correction  (drone_harness_msgs/HarnessCorrection: r, lambda, delta norms, top features).
 *
 * With `imagined_rollout`, camera/camera_info (sensor-data QoS) supplies the intrinsics K that
 * the rollout needs to remove the gyro-measured rotation from the optical flow; until the first
 * valid CameraInfo the rollout runs uncompensated and /diagnostics says so (level WARN). The
 * gyro goes to the camera's optical frame with parameter `camera_pitch_rad` (default: the
 * embedded simulator's camera, 5 deg).
 *
 * Parameter `correction_enabled` (default true): when false the same pipeline runs (the
 * correction is still computed and reported, with correction_enabled = false) but delta = 0 is
 * applied, for A/B runs on the same seeds.
 *
 * Texture rule (seed 4.2, `texture_rule_enabled`, default true): the Corrector's texture gain for
 * the student's Sobel channel is published on harness/texture_gain (std_msgs/Float32, for the
 * next frame; perception applies it). It is 1 when the rule is off or the correction is off (the
 * A/B switch: gain 1, delta 0); the computed value is in /diagnostics either way.
 *
 * The student output is matched to its camera image by header stamp (a short ring of recent
 * images, StudentImageMatcher), so perception and harness work the same in one process or across
 * processes. The IMU, fix and velocity inputs and their parameters are perception's
 * (SensorInputs). Lifecycle, QoS, relative names, header copies and bad-input handling as in
 * perception.ts.
 */
import { performance } from "node:perf_hooks";

import { CellsToDetections, type ScoreMode } from "../src/control/cellsToDetections";
import type { Detection2DArray } from "../src/control/visionTypes";
import { ACTIONS } from "../src/harness/actions";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import { QOS_DEFAULT, QOS_SENSOR_DATA, type Clock, type LifecycleRosNode, type Logger, type Parameter, type Publisher, type RosGraph, type RosNode, type SetParametersResult, type Subscription } from "../src/ros/graph/types";
import { CorrectionApplier } from "./common/models/applyCorrection";
import { declareBool, declareDouble, declareInt, declareString, declareStringArray } from "./common/ros/declareParams";
import { InputHealth } from "./common/ros/InputHealth";
import { INPUT_OK, checkCameraInfo, checkImageAgainstCalibration, type ImageExpectation, type InputCheck } from "./common/sensors/inputValidation";
import type { CorrectorParams } from "./common/models/ModelProvider";
import type { Correction, Corrector, StudentOutputs } from "./common/models/models";
import { DIAG_OK, DIAG_WARN, NodeDiagnostics, type DiagnosticTaskResult } from "./common/ros/NodeDiagnostics";
import { RateStats } from "./common/ros/RateStats";
import { SENSOR_TOPICS, SensorInputs, declareSensorStateParams } from "./common/sensors/SensorInputs";
import type { CameraInfo, Image } from "./common/sensors/sensorTypes";
import { StampGuard, stampToNs, type StampVerdict } from "./common/ros/StampGuard";
import { StudentImageMatcher } from "./common/sensors/StudentImageMatcher";
import type { CameraIntrinsics } from "../src/vision/flowModel";
import {
  DETECTION_ARRAY_TYPE,
  HARNESS_CORRECTION_TYPE,
  IMAGE_TYPE,
  STUDENT_OUTPUT_TYPE,
  copyHeader,
  studentOutputProblem,
  studentOutputsView,
  toStudentOutputMsg,
  type HarnessCorrectionMsg,
  type StudentOutputMsg,
} from "./common/models/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/ros/wireLifecycle";
import { loadSpatialCorrector, type SpatialCorrection, type SpatialCorrector } from "./common/models/SpatialCorrector";
import { alarmLevelOf, DELTA_NORM_MAX, DELTA_RUNAWAY } from "../src/harness/correction/constants";
import { DEFAULT_PLANNER_OPTIONS } from "../src/control/LocalPlanner";

export const HARNESS_TOPICS = {
  image: "camera/image_raw",
  cameraInfo: "camera/camera_info",
  imu: SENSOR_TOPICS.imu,
  fix: SENSOR_TOPICS.fix,
  vel: SENSOR_TOPICS.vel,
  studentOutput: "harness/student_output",
  obstacles: "harness/obstacles",
  policy: "harness/policy",
  correction: "harness/correction",
  textureGain: "harness/texture_gain",
} as const;

export type HarnessDeps = {
  /** Creates the Harness at configure time (tests inject a deterministic fake). */
  createCorrector: (params: CorrectorParams) => Corrector | Promise<Corrector>;
};

const ACTION_NAMES: string[] = [...ACTIONS];
const CAMERA_INFO_TYPE = "sensor_msgs/msg/CameraInfo";
export const FLOAT32_TYPE = "std_msgs/msg/Float32";
/** The embedded simulator's camera pitch (5 deg, sim/Scenario.ts; the planner's default too), rad. */
const SIM_CAMERA_PITCH_RAD = DEFAULT_PLANNER_OPTIONS.cameraPitch_rad;

function l2(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! ** 2;
  return Math.sqrt(s);
}

function maxAbs(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]!);
    if (!(a <= m)) m = a; // NaN propagates as NaN (reported, and trips the safety watchdog)
  }
  return m;
}

function declareHarnessParams(node: RosNode) {
  return {
    correctionEnabled: declareBool(node, "correction_enabled", true, "Apply delta (false: compute and report it, apply 0) for A/B runs"),
    textureRuleEnabled: declareBool(node, "texture_rule_enabled", true, "Seed 4.2 texture rule: publish the computed Sobel gain on harness/texture_gain (false: publish 1)"),
    width: declareInt(node, "expected_width", 0, "Expected image width in px (0 = any, the size of camera/camera_info when one arrived); other sizes are dropped", { from: 0, to: 8192 }),
    height: declareInt(node, "expected_height", 0, "Expected image height in px (0 = any, as expected_width)", { from: 0, to: 8192 }),
    encodings: declareStringArray(node, "encodings", ["rgb8", "bgr8"], "Accepted image encodings"),
    scoreThreshold: declareDouble(node, "score_threshold", 0.5, "Cell probability threshold for a detection", { from: 0, to: 1 }),
    connectivity: declareInt(node, "connectivity", 8, "Cell connectivity of a detection (4 or 8)", { from: 4, to: 8, step: 4 }),
    scoreMode: declareString<ScoreMode>(node, "score_mode", "max", "Detection score: max or mean cell probability", ["max", "mean"]),
    imageBuffer: declareInt(node, "image_buffer", 8, "Recent images kept to match student outputs by stamp", { from: 1, to: 64 }),
    modelDir: declareString(node, "model_dir", "models", "Folder with harness.model.json + harness.weights.bin (relative to the working directory)"),
    spatialDir: declareString(node, "spatial_harness_dir", "models/coevo/harness", "Folder with spatial_harness.model.json: the harness of the pipeline detector's cells (issue 13); missing: its cells pass through uncorrected"),
    regionClip: declareDouble(node, "region_clip", DELTA_NORM_MAX, "Bound on ||delta||_2 per region of 4x4 cells (spatial harness)", { from: 0.001, to: 100 }),
    lambdaAlarmDelta: declareDouble(node, "lambda_alarm_delta", DELTA_RUNAWAY, "Runtime runaway alarm of the spatial harness: max|delta| above this for 3 steps halves lambda (0 = no alarm)", { from: 0, to: 100 }),
    imaginedRollout: declareBool(node, "imagined_rollout", false, "Fill the harness's rollout channels with optical-flow warps of the camera frame (src/vision); false: zero padding, as in training"),
    cameraPitchRad: declareDouble(node, "camera_pitch_rad", SIM_CAMERA_PITCH_RAD, "Downward pitch of the camera's optical axis from the body x axis, rad (gyro -> optical frame for the rollout's rotation compensation)", { from: -Math.PI / 2, to: Math.PI / 2 }),
    ...declareSensorStateParams(node),
  };
}

type HarnessParams = ReturnType<typeof declareHarnessParams>;

type HarnessPublishers = {
  obstacles: Publisher<Detection2DArray>;
  policy: Publisher<StudentOutputMsg>;
  correction: Publisher<HarnessCorrectionMsg>;
  textureGain: Publisher<{ data: number }>;
};

/** What the last frame did, for /diagnostics. */
type FrameReport = {
  mode: string;
  risk: number;
  maxDelta: number;
  /** The gain published on harness/texture_gain, and the one the corrector computed. */
  textureGain: number;
  textureGainComputed: number;
  /** The last imagined rollout's state. */
  rolloutStatus: string;
  rotationCompensated: boolean;
};

/** The policy-head Harness's correction as drone_harness_msgs/HarnessCorrection. */
function policyCorrectionMsg(msg: StudentOutputMsg, corr: Correction, maxDelta: number, applied: boolean, textureGain: number): HarnessCorrectionMsg {
  return {
    header: copyHeader(msg.header),
    risk: corr.risk,
    lambda_gain: corr.lambda,
    delta_norm_detection: l2(corr.cellDelta),
    delta_norm_action: l2(corr.actionDelta),
    max_abs_delta: maxDelta,
    correction_enabled: applied,
    top_features: corr.topFeatures,
    top_sensitivities: Float32Array.from(corr.topSensitivities),
    action_names: ACTION_NAMES,
    action_delta: Float32Array.from(corr.actionDelta),
    texture_gain: textureGain,
    rollout_length: corr.rolloutLength,
  };
}

/** A correction of the pipeline detector's cells (no action delta, no features) as drone_harness_msgs/HarnessCorrection. */
function cellCorrectionMsg(msg: StudentOutputMsg, c: { risk: number; lambda: number; deltaNorm: number; maxAbsDelta: number; applied: boolean; textureGain: number; rolloutLength: number }): HarnessCorrectionMsg {
  return {
    header: copyHeader(msg.header),
    risk: c.risk,
    lambda_gain: c.lambda,
    delta_norm_detection: c.deltaNorm,
    delta_norm_action: 0,
    max_abs_delta: c.maxAbsDelta,
    correction_enabled: c.applied,
    top_features: [],
    top_sensitivities: new Float32Array(0),
    action_names: ACTION_NAMES,
    action_delta: new Float32Array(ACTION_NAMES.length),
    texture_gain: c.textureGain,
    rollout_length: c.rolloutLength,
  };
}

/**
 * The harness node (a lifecycle node, as ros2/demos lifecycle_talker): parameters and state at
 * construction; the Harness, the spatial harness, publishers and subscriptions in configure;
 * callbacks that hand each student output and its image to the correctors, then publish.
 */
class HarnessNode {
  private readonly p: HarnessParams;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly health: InputHealth;
  private readonly stats = new RateStats();
  /** Time of the image side computed ahead (onImage), not in `stats`. */
  private readonly prepareStats = new RateStats();
  private readonly guards = { image: new StampGuard(), student: new StampGuard() };
  private readonly diagnostics: NodeDiagnostics;
  private readonly applier = new CorrectionApplier();
  private readonly matcher: StudentImageMatcher;
  private readonly inputs: SensorInputs;
  private readonly expectation: ImageExpectation;
  private correctionEnabled: boolean;
  private textureRuleEnabled: boolean;
  private readonly report: FrameReport;
  // Camera intrinsics (from camera/camera_info), for the corrector and /diagnostics.
  private readonly intrinsics: CameraIntrinsics = { fx: 0, fy: 0, cx: 0, cy: 0 };
  private readonly infoScratch: CameraIntrinsics = { fx: 0, fy: 0, cx: 0, cy: 0 };
  private cameraInfoReceived = false;
  // The image size of the last valid camera/camera_info (undefined until one arrives): K is in its pixels.
  private calibrated: { width: number; height: number } | undefined;
  private active = false;
  private corrector: Corrector | undefined;
  private spatial: SpatialCorrector | undefined;
  private cells: CellsToDetections | undefined;
  private cellsShape = "";
  private pubs: HarnessPublishers | undefined;
  private readonly subs: Subscription[] = [];

  constructor(private readonly node: LifecycleRosNode, private readonly deps: HarnessDeps) {
    this.p = declareHarnessParams(node);
    this.logger = node.getLogger();
    this.clock = node.getClock();
    this.health = new InputHealth(this.logger);
    this.diagnostics = new NodeDiagnostics(node, { hardwareId: "harness" });
    this.matcher = new StudentImageMatcher(this.p.imageBuffer);
    this.inputs = new SensorInputs(node, this.p, this.p.modelDir);
    this.expectation = { width: this.p.width, height: this.p.height, encodings: this.p.encodings };
    this.correctionEnabled = this.p.correctionEnabled;
    this.textureRuleEnabled = this.p.textureRuleEnabled;
    this.report = { mode: "no frame yet", risk: Number.NaN, maxDelta: Number.NaN, textureGain: 1, textureGainComputed: Number.NaN, rolloutStatus: this.p.imaginedRollout ? "none yet" : "off", rotationCompensated: false };
    node.addOnSetParametersCallback((params) => this.onSetParameters(params));
    this.diagnostics.add("harness", () => this.status());
  }

  launch(): LaunchedNode {
    return wireLifecycle(this.node, {
      logger: this.logger,
      configure: () => this.configure(),
      activate: () => {
        this.active = true;
      },
      deactivate: () => {
        this.active = false;
        this.resetGuards();
        this.clearHistories();
      },
      release: () => this.release(),
      resetOnCleanup: () => this.resetGuards(),
    });
  }

  private async configure(): Promise<void> {
    const { node, p } = this;
    this.corrector = await this.deps.createCorrector({
      modelDir: p.modelDir,
      imaginedRollout: p.imaginedRollout,
      width: p.width,
      height: p.height,
      cameraPitchRad: p.cameraPitchRad,
    });
    this.spatial = await loadSpatialCorrector(p.spatialDir, { regionClip: p.regionClip, runawayDelta: alarmLevelOf(p.lambdaAlarmDelta), cameraPitch_rad: p.cameraPitchRad }, this.logger);
    this.cameraInfoReceived = false;
    this.pubs = {
      obstacles: node.createPublisher<Detection2DArray>(DETECTION_ARRAY_TYPE, HARNESS_TOPICS.obstacles, { qos: QOS_DEFAULT }),
      policy: node.createPublisher<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, HARNESS_TOPICS.policy, { qos: QOS_DEFAULT }),
      correction: node.createPublisher<HarnessCorrectionMsg>(HARNESS_CORRECTION_TYPE, HARNESS_TOPICS.correction, { qos: QOS_DEFAULT }),
      textureGain: node.createPublisher<{ data: number }>(FLOAT32_TYPE, HARNESS_TOPICS.textureGain, { qos: QOS_DEFAULT }),
    };
    const T = HARNESS_TOPICS;
    this.subs.push(
      node.createSubscription<Image>(IMAGE_TYPE, T.image, { qos: QOS_SENSOR_DATA }, this.guarded(T.image, (m: Image) => this.onImage(m))),
      node.createSubscription<CameraInfo>(CAMERA_INFO_TYPE, T.cameraInfo, { qos: QOS_SENSOR_DATA }, this.guarded(T.cameraInfo, (m: CameraInfo) => this.onCameraInfo(m))),
      ...this.inputs.subscribe(node, { health: this.health, isActive: () => this.active, onJumpBack: () => this.clearHistories() }),
      node.createSubscription<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, T.studentOutput, { qos: QOS_DEFAULT }, this.guarded(T.studentOutput, (m: StudentOutputMsg) => this.onStudent(m))),
    );
    this.diagnostics.start();
  }

  private release(): void {
    this.active = false;
    for (const s of this.subs) this.node.destroySubscription(s);
    this.subs.length = 0;
    if (this.pubs !== undefined) for (const pub of [this.pubs.obstacles, this.pubs.policy, this.pubs.correction, this.pubs.textureGain]) this.node.destroyPublisher(pub);
    this.pubs = undefined;
    this.diagnostics.stop();
    this.corrector?.dispose?.();
    this.corrector = undefined;
    this.spatial?.dispose();
    this.spatial = undefined;
  }

  private resetGuards(): void {
    for (const g of Object.values(this.guards)) g.reset();
    this.inputs.resetGuards();
  }

  private clearHistories(): void {
    this.matcher.clear();
    this.inputs.sensors.reset();
    this.corrector?.reset();
    this.spatial?.reset();
  }

  private onSetParameters(params: Parameter[]): SetParametersResult {
    for (const q of params) {
      if (q.name === "correction_enabled") {
        if (typeof q.value !== "boolean") return { successful: false, reason: `correction_enabled=${String(q.value)}, expected a bool` };
        this.correctionEnabled = q.value;
        this.logger.info(`correction_enabled set to ${q.value}`);
      } else if (q.name === "texture_rule_enabled") {
        if (typeof q.value !== "boolean") return { successful: false, reason: `texture_rule_enabled=${String(q.value)}, expected a bool` };
        this.textureRuleEnabled = q.value;
        this.logger.info(`texture_rule_enabled set to ${q.value}`);
      }
    }
    return { successful: true, reason: "" };
  }

  private status(): DiagnosticTaskResult {
    const { node, p, report, intrinsics } = this;
    const s = this.stats.summary(this.clock.nowNs());
    const uncompensated = p.imaginedRollout && !this.cameraInfoReceived;
    return {
      level: node.state === "active" && s.rate_hz > 0 && !uncompensated ? DIAG_OK : DIAG_WARN,
      message:
        `${node.state}, correction ${this.correctionEnabled ? "on" : "off"}, ${s.rate_hz.toFixed(1)} Hz` +
        (uncompensated ? `, imagined rollout without rotation compensation: no ${HARNESS_TOPICS.cameraInfo} yet` : ""),
      values: [
        { key: "imagined_rollout", value: String(p.imaginedRollout) },
        { key: "camera_info", value: this.cameraInfoReceived ? `fx=${intrinsics.fx} fy=${intrinsics.fy} cx=${intrinsics.cx} cy=${intrinsics.cy}` : "none yet" },
        { key: "rollout_status", value: report.rolloutStatus },
        { key: "rotation_compensated", value: String(report.rotationCompensated) },
        { key: "state", value: node.state },
        { key: "correction_enabled", value: String(this.correctionEnabled) },
        { key: "texture_rule_enabled", value: String(this.textureRuleEnabled) },
        { key: "texture_gain", value: report.textureGain.toFixed(4) },
        { key: "texture_gain_computed", value: report.textureGainComputed.toFixed(4) },
        { key: "frames", value: String(s.count) },
        { key: "rate_hz", value: s.rate_hz.toFixed(2) },
        { key: "latency_p50_ms", value: s.latencyP50_ms.toFixed(2) },
        { key: "latency_p99_ms", value: s.latencyP99_ms.toFixed(2) },
        { key: "mode", value: report.mode },
        { key: "risk", value: report.risk.toFixed(3) },
        { key: "max_abs_delta", value: report.maxDelta.toFixed(3) },
        { key: "image_side_prepared_ahead", value: this.spatial === undefined ? "no spatial harness" : `${this.spatial.preparedSteps.reused} of ${this.spatial.preparedSteps.steps} frames` },
        // Not in latency_p50_ms: the image side done when the frame arrived (off the camera -> /cmd_vel path only when perception runs in another process).
        { key: "image_side_p50_ms", value: this.prepareStats.summary(this.clock.nowNs()).latencyP50_ms.toFixed(2) },
        ...this.health.keyValues(),
      ],
    };
  }

  /** Shared gate for the image, camera-info and student subscriptions: content check, stamp check. */
  private admit(topic: string, check: InputCheck, verdict: () => StampVerdict): boolean {
    return this.health.admit(topic, check, verdict, () => this.clearHistories());
  }

  /** A subscription callback that runs only while active and never throws into the executor. */
  private guarded<T>(topic: string, fn: (msg: T) => void): (msg: T) => void {
    return (msg: T): void => {
      if (!this.active) return;
      try {
        fn(msg);
      } catch (err) {
        this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
      }
    };
  }

  private onImage(msg: Image): void {
    if (!this.admit(HARNESS_TOPICS.image, checkImageAgainstCalibration(msg, this.expectation, this.calibrated), () => this.guards.image.check(msg.header.stamp, this.clock.nowNs()))) return;
    const waiting = this.matcher.addImage(msg);
    if (waiting !== undefined) this.processFrame(waiting.msg, msg, waiting.stampNs, this.clock.nowNs());
    // The frame came before its detections: compute the harness's image side now, while the
    // perception node (another process, another core) runs the detector.
    else if (this.active && this.spatial !== undefined) {
      const t0 = performance.now();
      this.spatial.prepare(msg, this.inputs.sensors.state, Number(stampToNs(msg.header.stamp)) / 1e9);
      this.prepareStats.record(this.clock.nowNs(), performance.now() - t0);
    }
  }

  private onCameraInfo(msg: CameraInfo): void {
    const { infoScratch: k, intrinsics } = this;
    // No stamp check: the intrinsics are state, not a time series (a repeated stamp is fine).
    if (!this.admit(HARNESS_TOPICS.cameraInfo, checkCameraInfo(msg, { width: this.p.width, height: this.p.height }, k), () => ({ type: "ok" }))) return;
    if (this.calibrated?.width !== msg.width || this.calibrated.height !== msg.height) this.calibrated = { width: msg.width, height: msg.height };
    const changed = !this.cameraInfoReceived || k.fx !== intrinsics.fx || k.fy !== intrinsics.fy || k.cx !== intrinsics.cx || k.cy !== intrinsics.cy;
    if (!changed) return;
    this.corrector?.setCameraIntrinsics?.(k);
    if (!this.cameraInfoReceived) this.logger.info(`camera intrinsics from ${HARNESS_TOPICS.cameraInfo}: fx=${k.fx} fy=${k.fy} cx=${k.cx} cy=${k.cy}`);
    Object.assign(intrinsics, k);
    this.cameraInfoReceived = true;
  }

  private onStudent(msg: StudentOutputMsg): void {
    if (this.corrector === undefined) return;
    const topic = HARNESS_TOPICS.studentOutput;
    const problem = studentOutputProblem(msg);
    const check: InputCheck = problem === undefined ? INPUT_OK : { type: "reject", reason: "bad_content", detail: problem };
    const nowNs = this.clock.nowNs();
    if (!this.admit(topic, check, () => this.guards.student.check(msg.header.stamp, nowNs))) return;
    const stampNs = stampToNs(msg.header.stamp);
    const match = this.matcher.imageFor(msg, stampNs);
    switch (match.type) {
      case "matched":
        this.processFrame(msg, match.image, stampNs, nowNs);
        return;
      case "waiting":
        return;
      case "dropped": {
        const st = match.oldest.header.stamp;
        this.health.drop(topic, "unmatched", `no camera image with stamp ${st.sec}.${st.nanosec} arrived (kept ${this.matcher.pendingMax} waiting outputs)`);
        return;
      }
    }
  }

  private processFrame(msg: StudentOutputMsg, image: Image, stampNs: bigint, nowNs: bigint): void {
    if (this.corrector === undefined) return;
    const t0 = performance.now();
    const student = studentOutputsView(msg);
    if (msg.threat_probs.length > 0) {
      const { spatial } = this;
      const problem = spatial === undefined ? `no spatial harness in ${this.p.spatialDir}` : spatial.problem(image, student);
      if (spatial === undefined || problem !== undefined) this.passThrough(msg, student, nowNs, t0, problem ?? "");
      else this.correctCells(spatial.correct(image, student, this.inputs.sensors.onFrame(stampNs), Number(stampNs) / 1e9), msg, student, nowNs, t0);
      return;
    }
    this.correctPolicy(this.corrector.correct(image, student, this.inputs.sensors.onFrame(stampNs)), msg, student, nowNs, t0);
  }

  /** The policy-head student's output: the Harness's delta on the action logits and cell probabilities. */
  private correctPolicy(corr: Correction, msg: StudentOutputMsg, student: StudentOutputs, nowNs: bigint, t0: number): void {
    const { report } = this;
    const apply = this.correctionEnabled;
    const logits = this.applier.actionLogits(student.actionLogits, apply ? corr.actionDelta : undefined);
    const probs = this.applier.cellProbs(student.cellProbs, apply ? corr.cellDelta : undefined, student.numClasses);
    this.publishCells(msg, student, probs);
    this.pubs?.policy.publish(
      toStudentOutputMsg(msg.header, { ...student, actionLogits: logits, cellProbs: probs }, { width: msg.image_width, height: msg.image_height }, true),
    );
    const maxDelta = Math.max(maxAbs(corr.actionDelta), maxAbs(corr.cellDelta));
    report.mode = "correcting";
    report.risk = corr.risk;
    report.maxDelta = maxDelta;
    report.textureGainComputed = corr.textureGain ?? 1;
    report.textureGain = apply && this.textureRuleEnabled ? report.textureGainComputed : 1;
    this.pubs?.textureGain.publish({ data: report.textureGain });
    if (corr.rollout !== undefined) {
      report.rolloutStatus = corr.rollout.status;
      report.rotationCompensated = corr.rollout.rotationCompensated;
    }
    this.pubs?.correction.publish(policyCorrectionMsg(msg, corr, maxDelta, apply, report.textureGain));
    this.stats.record(nowNs, performance.now() - t0);
  }

  /** The spatial harness on the pipeline detector's cells (issue 13): corrected class and near-threat cells. */
  private correctCells(r: SpatialCorrection, msg: StudentOutputMsg, student: StudentOutputs, nowNs: bigint, t0: number): void {
    const { report } = this;
    const apply = this.correctionEnabled;
    const out = apply ? { ...student, cellProbs: r.classProbs, threatProbs: r.threat } : student;
    this.publishCells(msg, student, out.cellProbs);
    this.pubs?.policy.publish(toStudentOutputMsg(msg.header, out, { width: msg.image_width, height: msg.image_height }, apply));
    report.mode = `spatial harness (${r.info.activeRegions} regions with a delta${r.info.rejected ? ", non-finite output rejected" : ""})`;
    report.risk = r.info.maxRisk;
    report.maxDelta = r.info.maxAbs;
    report.textureGainComputed = r.info.textureGain;
    report.textureGain = apply && this.textureRuleEnabled ? report.textureGainComputed : 1;
    this.pubs?.textureGain.publish({ data: report.textureGain });
    this.pubs?.correction.publish(cellCorrectionMsg(msg, { risk: r.info.maxRisk, lambda: r.info.lambda, deltaNorm: r.info.maxRegionNorm, maxAbsDelta: r.info.maxAbs, applied: apply, textureGain: report.textureGain, rolloutLength: 1 }));
    this.stats.record(nowNs, performance.now() - t0);
  }

  /**
   * The pipeline detector's output (threat cells, no action logits) without a spatial harness, or
   * a frame it cannot correct: the policy-head Harness has no correction for these cells, so its
   * detections and threat cells go to the controller unchanged, with corrected = false, texture
   * gain 1 and the pass-through named in /diagnostics.
   */
  private passThrough(msg: StudentOutputMsg, student: StudentOutputs, nowNs: bigint, t0: number, why: string): void {
    const { report } = this;
    this.publishCells(msg, student, student.cellProbs);
    this.pubs?.policy.publish(toStudentOutputMsg(msg.header, student, { width: msg.image_width, height: msg.image_height }, false));
    report.mode = `pass-through (${why})`;
    report.risk = 0;
    report.maxDelta = 0;
    report.textureGain = 1;
    this.pubs?.textureGain.publish({ data: 1 });
    // Reported like a correction that was not applied: r = 0, delta = 0, correction_enabled false.
    this.pubs?.correction.publish(cellCorrectionMsg(msg, { risk: 0, lambda: 0, deltaNorm: 0, maxAbsDelta: 0, applied: false, textureGain: 1, rolloutLength: 0 }));
    this.stats.record(nowNs, performance.now() - t0);
  }

  /** Publishes harness/obstacles: the detections of cell probabilities `probs` on the student's grid. */
  private publishCells(msg: StudentOutputMsg, student: StudentOutputs, probs: Float32Array): void {
    const detections = this.cellsFor(student, msg.class_names).run(probs, msg.image_width, msg.image_height, msg.header, []);
    this.pubs?.obstacles.publish({ header: copyHeader(msg.header), detections });
  }

  /** The cells-to-boxes step for the student's grid, made again when the grid changes. */
  private cellsFor(student: { gridRows: number; gridCols: number; numClasses: number }, classNames: string[]): CellsToDetections {
    const shape = `${student.gridRows}x${student.gridCols}x${student.numClasses}`;
    if (this.cells === undefined || shape !== this.cellsShape) {
      this.cells = new CellsToDetections({
        rows: student.gridRows,
        cols: student.gridCols,
        numClasses: student.numClasses,
        classNames,
        connectivity: this.p.connectivity === 4 ? 4 : 8,
        scoreThreshold: this.p.scoreThreshold,
        scoreMode: this.p.scoreMode,
      });
      this.cellsShape = shape;
    }
    return this.cells;
  }
}

export function createHarnessNode(deps: HarnessDeps): NodeFactory {
  return async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> =>
    new HarnessNode(createLaunchedLifecycleNode(graph, options), deps).launch();
}
