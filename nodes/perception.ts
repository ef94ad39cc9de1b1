/**
 * perception: camera/image_raw (+ imu/data, gps/fix, gps/vel for the policy head's state) ->
 *   detector (parameter `detector`: "pipeline", the default, per-cell class and near-threat
 *   probabilities for the controller's planner; "policy", the older student with a policy head) ->
 *   harness/student_output (drone_harness_msgs/StudentOutput, for the harness node) and
 *   harness/obstacles_raw (vision_msgs/Detection2DArray: connected cells -> boxes).
 *
 * A lifecycle node (ros2/demos lifecycle_talker): parameters are declared at construction,
 * the model, publishers and subscription are created in configure, messages flow only while
 * active. Topic names are relative (remappable); QoS: sensor data for the camera, reliable for
 * the outputs (SPEC topic contract). Output headers are copies of the image header.
 * Bad images are dropped, counted in /diagnostics and logged once per burst (issue 8).
 *
 * harness/texture_gain (std_msgs/Float32, from the harness node; seed 4.2 texture rule): the gain
 * on the student's Sobel input channel for the next frame, in [1, 1.5]; 1 until one arrives and
 * after a deactivate or a clock jump back.
 *
 * Any camera resolution (issue 14): expected_width/expected_height default to 0 (any size); the
 * detector runs fully convolutionally at the frame's size (StudentDetector pads and crops) and the
 * cell grid follows the frame. camera/camera_info (sensor-data QoS) is honoured: once a valid one
 * arrived, a frame of another size than its width x height is dropped ("resolution"), since the
 * calibration (and the cell-to-pixel geometry downstream) is in pixels of that size.
 *
 * perception/wire_map (sensor_msgs/Image mono8, optional, off by default; issue 14 on the camera
 * path): with wire_map_model_dir set to a photo model (models/photo/student, models/photo/adapted),
 * each frame's wire probability per pixel, round(255 p), at the frame's size, gated as
 * wire_map_gate says (coherence by default): the map `drone-harness detect --model <dir>
 * --coherence-gate` writes for a photo. It is for looking and recording (a bag of real photos
 * replayed through the node) and does not steer; a failure drops the map only. With
 * wire_map_thread (the default) it is made on a worker thread, one frame at a time, and published
 * when it is ready with its frame's header: the camera callback does not wait for it, and a frame
 * that arrives while the previous map is still being made gets none (counted in /diagnostics,
 * wire_map_skipped_busy).
 * With wire_map_thread false it is made in the callback after the detections are published, for
 * every frame (lock-step bag replays).
 *
 * imu/data, gps/fix, gps/vel and their parameters (home_altitude_m, use_first_fix_as_home,
 * state_period_s) are shared with the harness node (SensorInputs).
 */
import { performance } from "node:perf_hooks";

import { CellsToDetections, type ScoreMode } from "../src/control/cellsToDetections";
import type { Detection2DArray } from "../src/control/visionTypes";
import { DETECTION_CLASSES } from "../src/harness/actions";
import { CELL_SIZE_PX } from "../src/harness/models/Student";
import { TEXTURE_MAX_BOOST } from "../src/harness/correction/constants";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import { QOS_DEFAULT, QOS_SENSOR_DATA, type Clock, type LifecycleRosNode, type Logger, type Publisher, type RosGraph, type RosNode, type Subscription } from "../src/ros/graph/types";
import { declareBool, declareDouble, declareInt, declareString, declareStringArray } from "./common/ros/declareParams";
import { InputHealth } from "./common/ros/InputHealth";
import { checkCameraInfo, checkImageAgainstCalibration, type ImageExpectation } from "./common/sensors/inputValidation";
import type { Detector, StudentOutputs } from "./common/models/models";
import { DETECTOR_KINDS, type DetectorKind, type DetectorParams, type WireMapperParams } from "./common/models/ModelProvider";
import { WIRE_MAP_GATES, type WireMap, type WireMapGate, type WireMapSource } from "./common/models/WireMapper";
import { probabilityToGrey } from "../src/harness/eval/probabilityMap";
import { countNonFinite } from "../src/harness/modelfile/checkFiniteOutputs";
import { DIAG_OK, DIAG_WARN, NodeDiagnostics, type DiagnosticTaskResult } from "./common/ros/NodeDiagnostics";
import { RateStats } from "./common/ros/RateStats";
import { SENSOR_TOPICS, SensorInputs, declareSensorStateParams } from "./common/sensors/SensorInputs";
import type { CameraInfo, Image } from "./common/sensors/sensorTypes";
import { StampGuard, stampToNs } from "./common/ros/StampGuard";
import {
  DETECTION_ARRAY_TYPE,
  IMAGE_TYPE,
  STUDENT_OUTPUT_TYPE,
  copyHeader,
  toStudentOutputMsg,
  type StudentOutputMsg,
} from "./common/models/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/ros/wireLifecycle";

export const PERCEPTION_TOPICS = {
  image: "camera/image_raw",
  imu: SENSOR_TOPICS.imu,
  fix: SENSOR_TOPICS.fix,
  vel: SENSOR_TOPICS.vel,
  studentOutput: "harness/student_output",
  obstaclesRaw: "harness/obstacles_raw",
  textureGain: "harness/texture_gain",
  cameraInfo: "camera/camera_info",
  wireMap: "perception/wire_map",
} as const;

export type PerceptionDeps = {
  /** Creates the student model at configure time (tests inject a deterministic fake). */
  createDetector: (params: DetectorParams) => Detector | Promise<Detector>;
  /** Creates the wire mapper at configure time when wire_map_model_dir is set (absent: that parameter is refused). */
  createWireMapper?: (params: WireMapperParams) => WireMapSource | Promise<WireMapSource>;
};

function declarePerceptionParams(node: RosNode) {
  return {
    width: declareInt(node, "expected_width", 0, "Expected image width in px (0 = any, the size of camera/camera_info when one arrived); other sizes are dropped", { from: 0, to: 8192 }),
    height: declareInt(node, "expected_height", 0, "Expected image height in px (0 = any)", { from: 0, to: 8192 }),
    encodings: declareStringArray(node, "encodings", ["rgb8", "bgr8"], "Accepted image encodings"),
    scoreThreshold: declareDouble(node, "score_threshold", 0.5, "Cell probability threshold for a detection", { from: 0, to: 1 }),
    connectivity: declareInt(node, "connectivity", 8, "Cell connectivity of a detection (4 or 8)", { from: 4, to: 8, step: 4 }),
    scoreMode: declareString<ScoreMode>(node, "score_mode", "max", "Detection score: max or mean cell probability", ["max", "mean"]),
    minCells: declareInt(node, "min_cells", 1, "Smallest component reported, in cells", { from: 1, to: 1_000_000 }),
    publishStudentOutput: declareBool(node, "publish_student_output", true, "Publish harness/student_output for the harness node"),
    detector: declareString<DetectorKind>(node, "detector", "pipeline", "pipeline: class + near-threat cells for the controller's planner (teacher.model.json); policy: the older student with a policy head (student.model.json)", [...DETECTOR_KINDS]),
    modelDir: declareString(node, "model_dir", "models/coevo/student", "Folder with the detector's model files (relative to the working directory): teacher.model.json + .weights.bin for detector:=pipeline, student.* for detector:=policy"),
    wireMapModelDir: declareString<string>(node, "wire_map_model_dir", "", "Photo model folder (teacher.model.json, e.g. models/photo/student) for perception/wire_map, a per-pixel wire probability image of each frame; empty = off"),
    wireMapGate: declareString<WireMapGate>(node, "wire_map_gate", "coherence", "Gate of perception/wire_map: none, edge (detect --edge-gate) or coherence (detect --coherence-gate)", [...WIRE_MAP_GATES]),
    wireMapThread: declareBool(node, "wire_map_thread", true, "Make perception/wire_map on a worker thread, one frame at a time (frames arriving meanwhile get no map); false: in the camera callback, every frame"),
    ...declareSensorStateParams(node),
  };
}

type PerceptionParams = ReturnType<typeof declarePerceptionParams>;

/** The cells-to-boxes step for a detector grid. */
function newCells(p: PerceptionParams, rows: number, cols: number, numClasses: number): CellsToDetections {
  return new CellsToDetections({
    rows,
    cols,
    numClasses,
    classNames: DETECTION_CLASSES.length === numClasses ? DETECTION_CLASSES : Array.from({ length: numClasses }, (_, i) => String(i)),
    connectivity: p.connectivity === 4 ? 4 : 8,
    scoreThreshold: p.scoreThreshold,
    scoreMode: p.scoreMode,
    minCells: p.minCells,
  });
}

/** NaN or infinite values among the detector's outputs (cell and threat probabilities, action logits). */
function nonFiniteOutputs(out: StudentOutputs): number {
  return countNonFinite(out.cellProbs) + countNonFinite(out.actionLogits) + countNonFinite(out.threatProbs ?? []);
}

/**
 * The perception node (a lifecycle node, as ros2/demos lifecycle_talker): parameters and state at
 * construction; the detector, publishers and subscriptions in configure; the image callback runs
 * the detector and publishes its outputs.
 */
class PerceptionNode {
  private readonly p: PerceptionParams;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly health: InputHealth;
  private readonly stats = new RateStats();
  private readonly mapStats = new RateStats();
  private readonly guard = new StampGuard();
  private readonly inputs: SensorInputs;
  private readonly diagnostics: NodeDiagnostics;
  private readonly expectation: ImageExpectation;
  private active = false;
  private detector: Detector | undefined;
  private cells: CellsToDetections | undefined;
  private pubOutput: Publisher<StudentOutputMsg> | undefined;
  private pubRaw: Publisher<Detection2DArray> | undefined;
  private wireMapper: WireMapSource | undefined;
  private pubWireMap: Publisher<Image> | undefined;
  // Frames that got no wire map because the worker was still making the previous one.
  private wireMapSkipped = 0;
  private readonly subs: Subscription[] = [];
  // The harness's texture gain for the next frame (1 = the student as trained).
  private textureGain = 1;
  // The image size of the last valid camera/camera_info (undefined until one arrives).
  private calibrated: { width: number; height: number } | undefined;
  private readonly infoScratch = { fx: 0, fy: 0, cx: 0, cy: 0 };

  constructor(private readonly node: LifecycleRosNode, private readonly deps: PerceptionDeps) {
    this.p = declarePerceptionParams(node);
    this.logger = node.getLogger();
    this.clock = node.getClock();
    this.health = new InputHealth(this.logger);
    this.inputs = new SensorInputs(node, this.p, this.p.modelDir);
    this.diagnostics = new NodeDiagnostics(node, { hardwareId: "camera" });
    this.expectation = { width: this.p.width, height: this.p.height, encodings: this.p.encodings };
    this.diagnostics.add("perception", () => this.status());
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
        this.textureGain = 1;
        this.guard.reset();
        this.inputs.reset();
      },
      release: () => this.release(),
      resetOnCleanup: () => {
        this.guard.reset();
        this.inputs.reset();
      },
    });
  }

  private async configure(): Promise<void> {
    const { node, p } = this;
    const detector = await this.deps.createDetector({ kind: p.detector, width: p.width, height: p.height, modelDir: p.modelDir });
    this.detector = detector;
    this.cells = newCells(p, detector.gridRows, detector.gridCols, detector.numClasses);
    this.pubOutput = node.createPublisher<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, PERCEPTION_TOPICS.studentOutput, { qos: QOS_DEFAULT });
    this.pubRaw = node.createPublisher<Detection2DArray>(DETECTION_ARRAY_TYPE, PERCEPTION_TOPICS.obstaclesRaw, { qos: QOS_DEFAULT });
    if (p.wireMapModelDir !== "") {
      if (this.deps.createWireMapper === undefined) throw new Error(`wire_map_model_dir=${p.wireMapModelDir}: this perception node has no wire map provider`);
      this.wireMapper = await this.deps.createWireMapper({ modelDir: p.wireMapModelDir, gate: p.wireMapGate, thread: p.wireMapThread });
      this.pubWireMap = node.createPublisher<Image>(IMAGE_TYPE, PERCEPTION_TOPICS.wireMap, { qos: QOS_DEFAULT });
    }
    const T = PERCEPTION_TOPICS;
    this.subs.push(
      node.createSubscription<Image>(IMAGE_TYPE, T.image, { qos: QOS_SENSOR_DATA }, (m) => this.onImage(m)),
      node.createSubscription<CameraInfo>("sensor_msgs/msg/CameraInfo", T.cameraInfo, { qos: QOS_SENSOR_DATA }, (m) => this.onCameraInfo(m)),
      node.createSubscription<{ data: number }>("std_msgs/msg/Float32", T.textureGain, { qos: QOS_DEFAULT }, (m) => this.onTextureGain(m)),
      ...this.inputs.subscribe(node, { health: this.health, isActive: () => this.active, onJumpBack: () => this.inputs.sensors.reset() }),
    );
    this.diagnostics.start();
  }

  private release(): void {
    const { node } = this;
    this.active = false;
    for (const s of this.subs) node.destroySubscription(s);
    this.subs.length = 0;
    if (this.pubOutput !== undefined) node.destroyPublisher(this.pubOutput);
    if (this.pubRaw !== undefined) node.destroyPublisher(this.pubRaw);
    if (this.pubWireMap !== undefined) node.destroyPublisher(this.pubWireMap);
    this.pubOutput = undefined;
    this.pubRaw = undefined;
    this.pubWireMap = undefined;
    this.wireMapper?.dispose();
    this.wireMapper = undefined;
    this.diagnostics.stop();
    this.detector?.dispose?.();
    this.detector = undefined;
    this.cells = undefined;
  }

  private status(): DiagnosticTaskResult {
    const { node, calibrated } = this;
    const s = this.stats.summary(this.clock.nowNs());
    return {
      level: node.state === "active" && s.rate_hz > 0 ? DIAG_OK : DIAG_WARN,
      message: `${node.state}, ${s.rate_hz.toFixed(1)} Hz`,
      values: [
        { key: "state", value: node.state },
        { key: "frames", value: String(s.count) },
        { key: "rate_hz", value: s.rate_hz.toFixed(2) },
        { key: "latency_p50_ms", value: s.latencyP50_ms.toFixed(2) },
        { key: "latency_p99_ms", value: s.latencyP99_ms.toFixed(2) },
        { key: "texture_gain", value: this.textureGain.toFixed(4) },
        { key: "camera_info", value: calibrated === undefined ? "none yet" : `${calibrated.width}x${calibrated.height}` },
        ...this.wireMapStatus(),
        ...this.health.keyValues(),
      ],
    };
  }

  private onTextureGain(msg: { data: number }): void {
    if (!this.active) return;
    const g = msg.data;
    if (!(g >= 1 && g <= 1 + TEXTURE_MAX_BOOST)) {
      this.health.drop(PERCEPTION_TOPICS.textureGain, "bad_content", `data=${g}, expected a gain in [1, ${1 + TEXTURE_MAX_BOOST}]`);
      return;
    }
    this.textureGain = g;
  }

  private onCameraInfo(msg: CameraInfo): void {
    if (!this.active) return;
    try {
      const c = checkCameraInfo(msg, this.expectation, this.infoScratch);
      if (c.type === "reject") {
        this.health.drop(PERCEPTION_TOPICS.cameraInfo, c.reason, c.detail);
        return;
      }
      this.calibrated = { width: msg.width, height: msg.height };
    } catch (err) {
      this.health.drop(PERCEPTION_TOPICS.cameraInfo, "callback_error", err instanceof Error ? err.message : String(err));
    }
  }

  private onImage(msg: Image): void {
    const { detector, cells } = this;
    if (!this.active || detector === undefined || cells === undefined) return;
    const topic = PERCEPTION_TOPICS.image;
    try {
      const nowNs = this.clock.nowNs();
      const admitted = this.health.admit(topic, checkImageAgainstCalibration(msg, this.expectation, this.calibrated), () => this.guard.check(msg.header.stamp, nowNs), () => {
        this.inputs.sensors.reset();
        this.textureGain = 1;
      });
      if (!admitted) return;
      const t0 = performance.now();
      const out = detector.infer(msg, this.inputs.sensors.onFrame(stampToNs(msg.header.stamp)), this.textureGain);
      // A model whose outputs overflow (scaled weights, a bad backend) must not steer: the frame
      // is dropped and counted, so no detections or policy reach the controller and it hovers
      // after input_timeout_s.
      const nonFinite = nonFiniteOutputs(out);
      if (nonFinite > 0) {
        this.health.drop(topic, "non_finite_output", `the model gave ${nonFinite} NaN or infinite output values (cell and threat probabilities, action logits); frame dropped`);
        return;
      }
      if (this.p.publishStudentOutput) this.pubOutput?.publish(toStudentOutputMsg(msg.header, out, msg, false));
      this.publishDetections(msg, out, cells);
      this.stats.record(nowNs, performance.now() - t0);
    } catch (err) {
      this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
      return;
    }
    this.publishWireMap(msg);
  }

  /**
   * perception/wire_map for an admitted frame whose detections are out: made here, or started on
   * the mapper's worker and published when ready; a failure drops the map only.
   */
  private publishWireMap(msg: Image): void {
    const { wireMapper } = this;
    if (wireMapper === undefined || this.pubWireMap === undefined) return;
    const topic = PERCEPTION_TOPICS.wireMap;
    if (wireMapper.busy) {
      // Expected whenever frames come faster than maps (a picture, not a fault): counted, not logged.
      this.wireMapSkipped++;
      return;
    }
    const header = copyHeader(msg.header);
    const t0 = performance.now();
    try {
      const made = wireMapper.map(msg);
      if (!(made instanceof Promise)) {
        this.emitWireMap(wireMapper, header, made, t0);
        return;
      }
      made.then(
        (m) => this.emitWireMap(wireMapper, header, m, t0),
        (err: unknown) => {
          // A mapper released in the meantime (cleanup, shutdown) rejects its last map: not a fault.
          if (this.wireMapper === wireMapper) this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
        },
      );
    } catch (err) {
      this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  }

  /** Publishes a finished map, unless its mapper was released (or replaced) while it was made. */
  private emitWireMap(mapper: WireMapSource, header: Image["header"], { width, height, map }: WireMap, t0: number): void {
    const pub = this.pubWireMap;
    if (this.wireMapper !== mapper || pub === undefined) return;
    const topic = PERCEPTION_TOPICS.wireMap;
    try {
      const nonFinite = countNonFinite(map);
      if (nonFinite > 0) {
        this.health.drop(topic, "non_finite_output", `the wire map has ${nonFinite} NaN or infinite values; map dropped`);
        return;
      }
      pub.publish({ header, height, width, encoding: "mono8", is_bigendian: 0, step: width, data: probabilityToGrey(map) });
      this.mapStats.record(this.clock.nowNs(), performance.now() - t0);
    } catch (err) {
      this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  }

  private wireMapStatus(): { key: string; value: string }[] {
    if (this.wireMapper === undefined) return [{ key: "wire_map", value: "off" }];
    const s = this.mapStats.summary(this.clock.nowNs());
    return [
      { key: "wire_map", value: `${this.p.wireMapModelDir}, gate ${this.wireMapper.gate}, ${this.p.wireMapThread ? "worker thread" : "camera callback"}` },
      { key: "wire_map_frames", value: String(s.count) },
      { key: "wire_map_skipped_busy", value: String(this.wireMapSkipped) },
      { key: "wire_map_latency_p50_ms", value: s.latencyP50_ms.toFixed(2) },
    ];
  }

  /** harness/obstacles_raw: the connected cells of the frame as boxes. */
  private publishDetections(msg: Image, out: StudentOutputs, current: CellsToDetections): void {
    let cells = current;
    if (out.gridRows !== cells.rows || out.gridCols !== cells.cols) this.cells = cells = newCells(this.p, out.gridRows, out.gridCols, out.numClasses);
    // Cells are 8 px from the top-left corner; the last row/column may overhang the frame.
    const detections = cells.run(out.cellProbs, out.gridCols * CELL_SIZE_PX, out.gridRows * CELL_SIZE_PX, msg.header, []);
    this.pubRaw?.publish({ header: copyHeader(msg.header), detections });
  }
}

export function createPerceptionNode(deps: PerceptionDeps): NodeFactory {
  return async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> =>
    new PerceptionNode(createLaunchedLifecycleNode(graph, options), deps).launch();
}
