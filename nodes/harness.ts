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
 * images), so perception and harness work the same in one process or across processes.
 * Lifecycle, QoS, relative names, header copies and bad-input handling as in perception.ts.
 */
import { performance } from "node:perf_hooks";

import { CellsToDetections, type ScoreMode } from "../src/control/cellsToDetections";
import type { Detection2DArray } from "../src/control/visionTypes";
import { ACTIONS } from "../src/harness/actions";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import { QOS_DEFAULT, QOS_SENSOR_DATA, type Publisher, type RosGraph, type Subscription } from "../src/ros/graph/types";
import { CorrectionApplier } from "./common/applyCorrection";
import { declareBool, declareDouble, declareInt, declareString, declareStringArray } from "./common/declareParams";
import { InputHealth } from "./common/InputHealth";
import { INPUT_OK, checkCameraInfo, checkImage, checkImu, checkNavSatFix, checkTwistStamped, type InputCheck } from "./common/inputValidation";
import type { CorrectorParams } from "./common/ModelProvider";
import type { Corrector } from "./common/models";
import { DIAG_OK, DIAG_WARN, NodeDiagnostics } from "./common/NodeDiagnostics";
import { RateStats } from "./common/RateStats";
import { SensorState } from "./common/SensorState";
import { resolveStatePeriod } from "./common/statePeriod";
import type { CameraInfo, Image, Imu, NavSatFix, TwistStamped } from "./common/sensorTypes";
import { StampGuard, stampToNs, type StampVerdict } from "./common/StampGuard";
import type { CameraIntrinsics } from "../src/vision/flowModel";
import {
  DETECTION_ARRAY_TYPE,
  HARNESS_CORRECTION_TYPE,
  IMAGE_TYPE,
  IMU_TYPE,
  NAV_SAT_FIX_TYPE,
  STUDENT_OUTPUT_TYPE,
  TWIST_STAMPED_TYPE,
  copyHeader,
  studentOutputProblem,
  studentOutputsView,
  toStudentOutputMsg,
  type HarnessCorrectionMsg,
  type StudentOutputMsg,
} from "./common/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/wireLifecycle";
import { loadSpatialCorrector, type SpatialCorrector } from "./common/SpatialCorrector";
import { DELTA_NORM_MAX } from "../src/harness/correction/constants";
import { DEFAULT_PLANNER_OPTIONS } from "../src/control/LocalPlanner";

export const HARNESS_TOPICS = {
  image: "camera/image_raw",
  cameraInfo: "camera/camera_info",
  imu: "imu/data",
  fix: "gps/fix",
  vel: "gps/vel",
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
  for (let i = 0; i < v.length; i++) s += (v[i] as number) ** 2;
  return Math.sqrt(s);
}

function maxAbs(v: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i] as number);
    if (!(a <= m)) m = a; // NaN propagates as NaN (reported, and trips the safety watchdog)
  }
  return m;
}

export function createHarnessNode(deps: HarnessDeps): NodeFactory {
  return async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> => {
    const node = createLaunchedLifecycleNode(graph, options);
    const p = {
      correctionEnabled: declareBool(node, "correction_enabled", true, "Apply delta (false: compute and report it, apply 0) for A/B runs"),
      textureRuleEnabled: declareBool(node, "texture_rule_enabled", true, "Seed 4.2 texture rule: publish the computed Sobel gain on harness/texture_gain (false: publish 1)"),
      width: declareInt(node, "expected_width", 256, "Expected image width in px (0 = any)", { from: 0, to: 8192 }),
      height: declareInt(node, "expected_height", 256, "Expected image height in px (0 = any)", { from: 0, to: 8192 }),
      encodings: declareStringArray(node, "encodings", ["rgb8", "bgr8"], "Accepted image encodings"),
      scoreThreshold: declareDouble(node, "score_threshold", 0.5, "Cell probability threshold for a detection", { from: 0, to: 1 }),
      connectivity: declareInt(node, "connectivity", 8, "Cell connectivity of a detection (4 or 8)", { from: 4, to: 8, step: 4 }),
      scoreMode: declareString<ScoreMode>(node, "score_mode", "max", "Detection score: max or mean cell probability", ["max", "mean"]),
      imageBuffer: declareInt(node, "image_buffer", 8, "Recent images kept to match student outputs by stamp", { from: 1, to: 64 }),
      modelDir: declareString(node, "model_dir", "models", "Folder with harness.model.json + harness.weights.bin (relative to the working directory)"),
      spatialDir: declareString(node, "spatial_harness_dir", "models/coevo/harness", "Folder with spatial_harness.model.json: the harness of the pipeline detector's cells (issue 13); missing: its cells pass through uncorrected"),
      regionClip: declareDouble(node, "region_clip", DELTA_NORM_MAX, "Bound on ||delta||_2 per region of 4x4 cells (spatial harness)", { from: 0.001, to: 100 }),
      imaginedRollout: declareBool(node, "imagined_rollout", false, "Fill the harness's rollout channels with optical-flow warps of the camera frame (src/vision); false: zero padding, as in training"),
      cameraPitchRad: declareDouble(node, "camera_pitch_rad", SIM_CAMERA_PITCH_RAD, "Downward pitch of the camera's optical axis from the body x axis, rad (gyro -> optical frame for the rollout's rotation compensation)", { from: -Math.PI / 2, to: Math.PI / 2 }),
      homeAltitude: declareDouble(node, "home_altitude_m", 0, "Altitude of the ground (m, as in gps/fix) when use_first_fix_as_home is false"),
      firstFixHome: declareBool(node, "use_first_fix_as_home", true, "Take the first valid fix's altitude as ground level (false: home_altitude_m; the sim launch sets the simulator's ground)"),
      statePeriod: declareDouble(node, "state_period_s", 0, "Seconds between IMU window samples of the state vector (0 = the models' control period from <model_dir>/training.json, else 0.25)", { from: 0, to: 10 }),
    };
    const logger = node.getLogger();
    const clock = node.getClock();
    const health = new InputHealth(logger);
    const stats = new RateStats();
    const guards = { image: new StampGuard(), imu: new StampGuard(), fix: new StampGuard(), vel: new StampGuard(), student: new StampGuard() };
    const diagnostics = new NodeDiagnostics(node, { hardwareId: "harness" });
    const applier = new CorrectionApplier();
    const images: Array<Image | undefined> = new Array<Image | undefined>(p.imageBuffer).fill(undefined);
    let imageNext = 0;
    const statePeriod = resolveStatePeriod(p.statePeriod, p.modelDir);
    const sensors = new SensorState({ statePeriod_s: statePeriod.period_s, ...(p.firstFixHome ? {} : { homeAltitude_m: p.homeAltitude }) });
    node.getLogger().info(`state vector: IMU window every ${statePeriod.period_s} s (${statePeriod.source}); altitude above ${p.firstFixHome ? "the first fix" : `${p.homeAltitude} m`}`);
    let correctionEnabled = p.correctionEnabled;
    let textureRuleEnabled = p.textureRuleEnabled;
    let lastTextureGain = 1, lastTextureGainComputed = Number.NaN;
    let lastRisk = Number.NaN, lastMaxDelta = Number.NaN;
    let lastMode = "no frame yet";
    // Camera intrinsics (from camera/camera_info) and the last rollout's state, for /diagnostics.
    const intrinsics: CameraIntrinsics = { fx: 0, fy: 0, cx: 0, cy: 0 };
    let cameraInfoReceived = false;
    let lastRolloutStatus = p.imaginedRollout ? "none yet" : "off";
    let lastRotationCompensated = false;
    let active = false;
    let corrector: Corrector | undefined;
    let spatial: SpatialCorrector | undefined;
    let cells: CellsToDetections | undefined;
    let cellsShape = "";
    let pubObstacles: Publisher<Detection2DArray> | undefined;
    let pubPolicy: Publisher<StudentOutputMsg> | undefined;
    let pubCorrection: Publisher<HarnessCorrectionMsg> | undefined;
    let pubTextureGain: Publisher<{ data: number }> | undefined;
    const subs: Subscription[] = [];

    node.addOnSetParametersCallback((params) => {
      for (const q of params) {
        if (q.name === "correction_enabled") {
          if (typeof q.value !== "boolean") return { successful: false, reason: `correction_enabled=${String(q.value)}, expected a bool` };
          correctionEnabled = q.value;
          logger.info(`correction_enabled set to ${q.value}`);
        } else if (q.name === "texture_rule_enabled") {
          if (typeof q.value !== "boolean") return { successful: false, reason: `texture_rule_enabled=${String(q.value)}, expected a bool` };
          textureRuleEnabled = q.value;
          logger.info(`texture_rule_enabled set to ${q.value}`);
        }
      }
      return { successful: true, reason: "" };
    });

    diagnostics.add("harness", () => {
      const s = stats.summary(clock.nowNs());
      const uncompensated = p.imaginedRollout && !cameraInfoReceived;
      return {
        level: node.state === "active" && s.rate_hz > 0 && !uncompensated ? DIAG_OK : DIAG_WARN,
        message:
          `${node.state}, correction ${correctionEnabled ? "on" : "off"}, ${s.rate_hz.toFixed(1)} Hz` +
          (uncompensated ? `, imagined rollout without rotation compensation: no ${HARNESS_TOPICS.cameraInfo} yet` : ""),
        values: [
          { key: "imagined_rollout", value: String(p.imaginedRollout) },
          { key: "camera_info", value: cameraInfoReceived ? `fx=${intrinsics.fx} fy=${intrinsics.fy} cx=${intrinsics.cx} cy=${intrinsics.cy}` : "none yet" },
          { key: "rollout_status", value: lastRolloutStatus },
          { key: "rotation_compensated", value: String(lastRotationCompensated) },
          { key: "state", value: node.state },
          { key: "correction_enabled", value: String(correctionEnabled) },
          { key: "texture_rule_enabled", value: String(textureRuleEnabled) },
          { key: "texture_gain", value: lastTextureGain.toFixed(4) },
          { key: "texture_gain_computed", value: lastTextureGainComputed.toFixed(4) },
          { key: "frames", value: String(s.count) },
          { key: "rate_hz", value: s.rate_hz.toFixed(2) },
          { key: "latency_p50_ms", value: s.latencyP50_ms.toFixed(2) },
          { key: "latency_p99_ms", value: s.latencyP99_ms.toFixed(2) },
          { key: "mode", value: lastMode },
          { key: "risk", value: lastRisk.toFixed(3) },
          { key: "max_abs_delta", value: lastMaxDelta.toFixed(3) },
          ...health.keyValues(),
        ],
      };
    });

    const clearHistories = (): void => {
      images.fill(undefined);
      pending.length = 0;
      sensors.reset();
      corrector?.reset();
      spatial?.reset();
    };

    /** Shared gate for every subscription: active, content check, stamp check. */
    const admit = (topic: string, check: InputCheck, verdict: () => StampVerdict): boolean =>
      health.admit(topic, check, verdict, clearHistories);

    const guarded = <T>(topic: string, fn: (msg: T) => void) => (msg: T): void => {
      if (!active) return;
      try {
        fn(msg);
      } catch (err) {
        health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
      }
    };

    // Student outputs that arrived before their image (possible across processes: the image and
    // the student output travel different paths), matched when the image comes.
    const pending: Array<{ msg: StudentOutputMsg; stampNs: bigint }> = [];
    const PENDING_MAX = 4;

    const expectation = { width: p.width, height: p.height, encodings: p.encodings };
    const onImage = (msg: Image): void => {
      if (!admit(HARNESS_TOPICS.image, checkImage(msg, expectation), () => guards.image.check(msg.header.stamp, clock.nowNs()))) return;
      images[imageNext] = msg;
      imageNext = (imageNext + 1) % images.length;
      if (pending.length === 0) return;
      const stampNs = stampToNs(msg.header.stamp);
      for (let i = 0; i < pending.length; i++) {
        const entry = pending[i] as { msg: StudentOutputMsg; stampNs: bigint };
        if (entry.stampNs === stampNs) {
          pending.splice(i, 1);
          processFrame(entry.msg, msg, stampNs, clock.nowNs());
          return;
        }
      }
    };

    const infoScratch: CameraIntrinsics = { fx: 0, fy: 0, cx: 0, cy: 0 };
    const onCameraInfo = (msg: CameraInfo): void => {
      // No stamp check: the intrinsics are state, not a time series (a repeated stamp is fine).
      if (!admit(HARNESS_TOPICS.cameraInfo, checkCameraInfo(msg, { width: p.width, height: p.height }, infoScratch), () => ({ type: "ok" }))) return;
      const changed = !cameraInfoReceived || infoScratch.fx !== intrinsics.fx || infoScratch.fy !== intrinsics.fy || infoScratch.cx !== intrinsics.cx || infoScratch.cy !== intrinsics.cy;
      if (!changed) return;
      corrector?.setCameraIntrinsics?.(infoScratch);
      if (!cameraInfoReceived) logger.info(`camera intrinsics from ${HARNESS_TOPICS.cameraInfo}: fx=${infoScratch.fx} fy=${infoScratch.fy} cx=${infoScratch.cx} cy=${infoScratch.cy}`);
      Object.assign(intrinsics, infoScratch);
      cameraInfoReceived = true;
    };

    const onImu = (msg: Imu): void => {
      if (!admit(HARNESS_TOPICS.imu, checkImu(msg), () => guards.imu.check(msg.header.stamp, clock.nowNs()))) return;
      sensors.onImu(msg);
    };

    const onFix = (msg: NavSatFix): void => {
      if (!admit(HARNESS_TOPICS.fix, checkNavSatFix(msg), () => guards.fix.check(msg.header.stamp, clock.nowNs()))) return;
      sensors.onFix(msg);
    };

    const onVel = (msg: TwistStamped): void => {
      if (!admit(HARNESS_TOPICS.vel, checkTwistStamped(msg), () => guards.vel.check(msg.header.stamp, clock.nowNs()))) return;
      sensors.onVel(msg);
    };

    const onStudent = (msg: StudentOutputMsg): void => {
      if (corrector === undefined) return;
      const topic = HARNESS_TOPICS.studentOutput;
      const problem = studentOutputProblem(msg);
      const check: InputCheck = problem === undefined ? INPUT_OK : { type: "reject", reason: "bad_content", detail: problem };
      const nowNs = clock.nowNs();
      if (!admit(topic, check, () => guards.student.check(msg.header.stamp, nowNs))) return;
      const stampNs = stampToNs(msg.header.stamp);
      let image: Image | undefined;
      for (const im of images) if (im !== undefined && stampToNs(im.header.stamp) === stampNs) image = im;
      if (image === undefined) {
        pending.push({ msg, stampNs });
        if (pending.length > PENDING_MAX) {
          const old = pending.shift() as { msg: StudentOutputMsg; stampNs: bigint };
          const st = old.msg.header.stamp;
          health.drop(topic, "unmatched", `no camera image with stamp ${st.sec}.${st.nanosec} arrived (kept ${PENDING_MAX} waiting outputs)`);
        }
        return;
      }
      processFrame(msg, image, stampNs, nowNs);
    };

    const processFrame = (msg: StudentOutputMsg, image: Image, stampNs: bigint, nowNs: bigint): void => {
      if (corrector === undefined) return;
      const t0 = performance.now();
      const student = studentOutputsView(msg);
      if (msg.threat_probs.length > 0) {
        const problem = spatial === undefined ? `no spatial harness in ${p.spatialDir}` : spatial.problem(image, student);
        if (spatial === undefined || problem !== undefined) passThrough(msg, student, nowNs, t0, problem ?? "");
        else correctCells(spatial, msg, image, student, stampNs, nowNs, t0);
        return;
      }
      const corr = corrector.correct(image, student, sensors.onFrame(stampNs));
      const apply = correctionEnabled;
      const logits = applier.actionLogits(student.actionLogits, apply ? corr.actionDelta : undefined);
      const probs = applier.cellProbs(student.cellProbs, apply ? corr.cellDelta : undefined, student.numClasses);
      const detections = cellsFor(student, msg.class_names).run(probs, msg.image_width, msg.image_height, msg.header, []);
      pubObstacles?.publish({ header: copyHeader(msg.header), detections });
      pubPolicy?.publish(
        toStudentOutputMsg(msg.header, { ...student, actionLogits: logits, cellProbs: probs }, { width: msg.image_width, height: msg.image_height }, true),
      );
      const maxDelta = Math.max(maxAbs(corr.actionDelta), maxAbs(corr.cellDelta));
      lastMode = "correcting";
      lastRisk = corr.risk;
      lastMaxDelta = maxDelta;
      lastTextureGainComputed = corr.textureGain ?? 1;
      lastTextureGain = apply && textureRuleEnabled ? lastTextureGainComputed : 1;
      pubTextureGain?.publish({ data: lastTextureGain });
      if (corr.rollout !== undefined) {
        lastRolloutStatus = corr.rollout.status;
        lastRotationCompensated = corr.rollout.rotationCompensated;
      }
      pubCorrection?.publish({
        header: copyHeader(msg.header),
        risk: corr.risk,
        lambda_gain: corr.lambda,
        delta_norm_detection: l2(corr.cellDelta),
        delta_norm_action: l2(corr.actionDelta),
        max_abs_delta: maxDelta,
        correction_enabled: apply,
        top_features: corr.topFeatures,
        top_sensitivities: Float32Array.from(corr.topSensitivities),
        action_names: ACTION_NAMES,
        action_delta: Float32Array.from(corr.actionDelta),
        texture_gain: lastTextureGain,
        rollout_length: corr.rolloutLength,
      });
      stats.record(nowNs, performance.now() - t0);
    };

    /**
     * The pipeline detector's output (threat cells, no action logits): the committed Harness was
     * trained on the policy-head student and has no correction for these cells yet (the spatial
     * harness of issue 13), so its detections and threat cells go to the controller unchanged,
     * with corrected = false, texture gain 1 and the pass-through named in /diagnostics.
     */
    const cellsFor = (student: { gridRows: number; gridCols: number; numClasses: number }, classNames: string[]): CellsToDetections => {
      const shape = `${student.gridRows}x${student.gridCols}x${student.numClasses}`;
      if (cells === undefined || shape !== cellsShape) {
        cells = new CellsToDetections({
          rows: student.gridRows,
          cols: student.gridCols,
          numClasses: student.numClasses,
          classNames,
          connectivity: p.connectivity === 4 ? 4 : 8,
          scoreThreshold: p.scoreThreshold,
          scoreMode: p.scoreMode,
        });
        cellsShape = shape;
      }
      return cells;
    };

    /** The spatial harness on the pipeline detector's cells (issue 13): corrected class and near-threat cells. */
    const correctCells = (sc: SpatialCorrector, msg: StudentOutputMsg, image: Image, student: ReturnType<typeof studentOutputsView>, stampNs: bigint, nowNs: bigint, t0: number): void => {
      const r = sc.correct(image, student, sensors.onFrame(stampNs), Number(stampNs) / 1e9);
      const apply = correctionEnabled;
      const out = apply ? { ...student, cellProbs: r.classProbs, threatProbs: r.threat } : student;
      const detections = cellsFor(student, msg.class_names).run(out.cellProbs, msg.image_width, msg.image_height, msg.header, []);
      pubObstacles?.publish({ header: copyHeader(msg.header), detections });
      pubPolicy?.publish(toStudentOutputMsg(msg.header, out, { width: msg.image_width, height: msg.image_height }, apply));
      lastMode = `spatial harness (${r.info.activeRegions} regions with a delta${r.info.rejected ? ", non-finite output rejected" : ""})`;
      lastRisk = r.info.maxRisk;
      lastMaxDelta = r.info.maxAbs;
      lastTextureGainComputed = r.info.textureGain;
      lastTextureGain = apply && textureRuleEnabled ? lastTextureGainComputed : 1;
      pubTextureGain?.publish({ data: lastTextureGain });
      pubCorrection?.publish(correctionMsg(msg, { risk: r.info.maxRisk, lambda: r.info.lambda, deltaNorm: r.info.maxRegionNorm, maxAbsDelta: r.info.maxAbs, applied: apply, textureGain: lastTextureGain, rolloutLength: 1 }));
      stats.record(nowNs, performance.now() - t0);
    };

    const correctionMsg = (msg: StudentOutputMsg, c: { risk: number; lambda: number; deltaNorm: number; maxAbsDelta: number; applied: boolean; textureGain: number; rolloutLength: number }): HarnessCorrectionMsg => ({
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
    });

    /** Without a spatial harness (or a frame it cannot correct) the pipeline cells go through unchanged, corrected = false. */
    const passThrough = (msg: StudentOutputMsg, student: ReturnType<typeof studentOutputsView>, nowNs: bigint, t0: number, why: string): void => {
      const detections = cellsFor(student, msg.class_names).run(student.cellProbs, msg.image_width, msg.image_height, msg.header, []);
      pubObstacles?.publish({ header: copyHeader(msg.header), detections });
      pubPolicy?.publish(toStudentOutputMsg(msg.header, student, { width: msg.image_width, height: msg.image_height }, false));
      lastMode = `pass-through (${why})`;
      lastRisk = 0;
      lastMaxDelta = 0;
      lastTextureGain = 1;
      pubTextureGain?.publish({ data: 1 });
      // Reported like a correction that was not applied: r = 0, delta = 0, correction_enabled false.
      pubCorrection?.publish(correctionMsg(msg, { risk: 0, lambda: 0, deltaNorm: 0, maxAbsDelta: 0, applied: false, textureGain: 1, rolloutLength: 0 }));
      stats.record(nowNs, performance.now() - t0);
    };

    const release = (): void => {
      active = false;
      for (const s of subs) node.destroySubscription(s);
      subs.length = 0;
      for (const pub of [pubObstacles, pubPolicy, pubCorrection, pubTextureGain]) if (pub !== undefined) node.destroyPublisher(pub);
      pubTextureGain = undefined;
      pubObstacles = undefined;
      pubPolicy = undefined;
      pubCorrection = undefined;
      diagnostics.stop();
      corrector?.dispose?.();
      corrector = undefined;
      spatial?.dispose();
      spatial = undefined;
    };

    return wireLifecycle(node, {
      logger,
      configure: async () => {
        corrector = await deps.createCorrector({
          modelDir: p.modelDir,
          imaginedRollout: p.imaginedRollout,
          width: p.width,
          height: p.height,
          cameraPitchRad: p.cameraPitchRad,
        });
        spatial = await loadSpatialCorrector(p.spatialDir, { regionClip: p.regionClip, cameraPitch_rad: p.cameraPitchRad }, logger);
        cameraInfoReceived = false;
        pubObstacles = node.createPublisher<Detection2DArray>(DETECTION_ARRAY_TYPE, HARNESS_TOPICS.obstacles, { qos: QOS_DEFAULT });
        pubPolicy = node.createPublisher<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, HARNESS_TOPICS.policy, { qos: QOS_DEFAULT });
        pubCorrection = node.createPublisher<HarnessCorrectionMsg>(HARNESS_CORRECTION_TYPE, HARNESS_TOPICS.correction, { qos: QOS_DEFAULT });
        pubTextureGain = node.createPublisher<{ data: number }>(FLOAT32_TYPE, HARNESS_TOPICS.textureGain, { qos: QOS_DEFAULT });
        subs.push(
          node.createSubscription<Image>(IMAGE_TYPE, HARNESS_TOPICS.image, { qos: QOS_SENSOR_DATA }, guarded(HARNESS_TOPICS.image, onImage)),
          node.createSubscription<CameraInfo>(CAMERA_INFO_TYPE, HARNESS_TOPICS.cameraInfo, { qos: QOS_SENSOR_DATA }, guarded(HARNESS_TOPICS.cameraInfo, onCameraInfo)),
          node.createSubscription<Imu>(IMU_TYPE, HARNESS_TOPICS.imu, { qos: QOS_SENSOR_DATA }, guarded(HARNESS_TOPICS.imu, onImu)),
          node.createSubscription<NavSatFix>(NAV_SAT_FIX_TYPE, HARNESS_TOPICS.fix, { qos: QOS_SENSOR_DATA }, guarded(HARNESS_TOPICS.fix, onFix)),
          node.createSubscription<TwistStamped>(TWIST_STAMPED_TYPE, HARNESS_TOPICS.vel, { qos: QOS_SENSOR_DATA }, guarded(HARNESS_TOPICS.vel, onVel)),
          node.createSubscription<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, HARNESS_TOPICS.studentOutput, { qos: QOS_DEFAULT }, guarded(HARNESS_TOPICS.studentOutput, onStudent)),
        );
        diagnostics.start();
      },
      activate: () => {
        active = true;
      },
      deactivate: () => {
        active = false;
        for (const g of Object.values(guards)) g.reset();
        clearHistories();
      },
      release,
      resetOnCleanup: () => {
        for (const g of Object.values(guards)) g.reset();
      },
    });
  };
}
