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
 */
import { performance } from "node:perf_hooks";

import { CellsToDetections, type ScoreMode } from "../src/control/cellsToDetections";
import type { Detection2DArray } from "../src/control/visionTypes";
import { DETECTION_CLASSES } from "../src/harness/actions";
import { CELL_SIZE_PX } from "../src/harness/models/Student";
import { TEXTURE_MAX_BOOST } from "../src/harness/correction/constants";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import { QOS_DEFAULT, QOS_SENSOR_DATA, type Publisher, type RosGraph, type Subscription } from "../src/ros/graph/types";
import { declareBool, declareDouble, declareInt, declareString, declareStringArray } from "./common/declareParams";
import { checkedInput } from "./common/checkedInput";
import { InputHealth } from "./common/InputHealth";
import { checkCameraInfo, checkImage, checkImu, checkNavSatFix, checkTwistStamped, type ImageExpectation, type InputCheck } from "./common/inputValidation";
import type { Detector } from "./common/models";
import { DETECTOR_KINDS, type DetectorKind, type DetectorParams } from "./common/ModelProvider";
import { countNonFinite } from "../src/harness/modelfile/checkFiniteOutputs";
import { DIAG_OK, DIAG_WARN, NodeDiagnostics } from "./common/NodeDiagnostics";
import { RateStats } from "./common/RateStats";
import { SensorState } from "./common/SensorState";
import { resolveStatePeriod } from "./common/statePeriod";
import type { CameraInfo, Image, Imu, NavSatFix, TwistStamped } from "./common/sensorTypes";
import { StampGuard, stampToNs } from "./common/StampGuard";
import {
  DETECTION_ARRAY_TYPE,
  IMAGE_TYPE,
  IMU_TYPE,
  NAV_SAT_FIX_TYPE,
  STUDENT_OUTPUT_TYPE,
  TWIST_STAMPED_TYPE,
  copyHeader,
  toStudentOutputMsg,
  type StudentOutputMsg,
} from "./common/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/wireLifecycle";

export const PERCEPTION_TOPICS = {
  image: "camera/image_raw",
  imu: "imu/data",
  fix: "gps/fix",
  vel: "gps/vel",
  studentOutput: "harness/student_output",
  obstaclesRaw: "harness/obstacles_raw",
  textureGain: "harness/texture_gain",
  cameraInfo: "camera/camera_info",
} as const;

export type PerceptionDeps = {
  /** Creates the student model at configure time (tests inject a deterministic fake). */
  createDetector: (params: DetectorParams) => Detector | Promise<Detector>;
};

export function createPerceptionNode(deps: PerceptionDeps): NodeFactory {
  return async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> => {
    const node = createLaunchedLifecycleNode(graph, options);
    const p = {
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
      homeAltitude: declareDouble(node, "home_altitude_m", 0, "Altitude of the ground (m, as in gps/fix) when use_first_fix_as_home is false"),
      firstFixHome: declareBool(node, "use_first_fix_as_home", true, "Take the first valid fix's altitude as ground level (false: home_altitude_m; the sim launch sets the simulator's ground)"),
      statePeriod: declareDouble(node, "state_period_s", 0, "Seconds between IMU window samples of the state vector (0 = the models' control period from <model_dir>/training.json, else 0.25)", { from: 0, to: 10 }),
    };
    const logger = node.getLogger();
    const clock = node.getClock();
    const health = new InputHealth(logger);
    const stats = new RateStats();
    const guard = new StampGuard();
    const sensorGuards = { imu: new StampGuard(), fix: new StampGuard(), vel: new StampGuard() };
    const statePeriod = resolveStatePeriod(p.statePeriod, p.modelDir);
    const sensors = new SensorState({ statePeriod_s: statePeriod.period_s, ...(p.firstFixHome ? {} : { homeAltitude_m: p.homeAltitude }) });
    node.getLogger().info(`state vector: IMU window every ${statePeriod.period_s} s (${statePeriod.source}); altitude above ${p.firstFixHome ? "the first fix" : `${p.homeAltitude} m`}`);
    const diagnostics = new NodeDiagnostics(node, { hardwareId: "camera" });
    const expectation: ImageExpectation = { width: p.width, height: p.height, encodings: p.encodings };
    let active = false;
    let detector: Detector | undefined;
    let cells: CellsToDetections | undefined;
    let pubOutput: Publisher<StudentOutputMsg> | undefined;
    let pubRaw: Publisher<Detection2DArray> | undefined;
    const subs: Subscription[] = [];

    diagnostics.add("perception", () => {
      const s = stats.summary(clock.nowNs());
      return {
        level: node.state === "active" && s.rate_hz > 0 ? DIAG_OK : DIAG_WARN,
        message: `${node.state}, ${s.rate_hz.toFixed(1)} Hz`,
        values: [
          { key: "state", value: node.state },
          { key: "frames", value: String(s.count) },
          { key: "rate_hz", value: s.rate_hz.toFixed(2) },
          { key: "latency_p50_ms", value: s.latencyP50_ms.toFixed(2) },
          { key: "latency_p99_ms", value: s.latencyP99_ms.toFixed(2) },
          { key: "texture_gain", value: textureGain.toFixed(4) },
          { key: "camera_info", value: calibrated === undefined ? "none yet" : `${calibrated.width}x${calibrated.height}` },
          ...health.keyValues(),
        ],
      };
    });

    // The harness's texture gain for the next frame (1 = the student as trained).
    let textureGain = 1;
    const onTextureGain = (msg: { data: number }): void => {
      if (!active) return;
      const g = msg.data;
      if (!(g >= 1 && g <= 1 + TEXTURE_MAX_BOOST)) {
        health.drop(PERCEPTION_TOPICS.textureGain, "bad_content", `data=${g}, expected a gain in [1, ${1 + TEXTURE_MAX_BOOST}]`);
        return;
      }
      textureGain = g;
    };

    // The image size of the last valid camera/camera_info (undefined until one arrives).
    let calibrated: { width: number; height: number } | undefined;
    const infoScratch = { fx: 0, fy: 0, cx: 0, cy: 0 };
    const onCameraInfo = (msg: CameraInfo): void => {
      if (!active) return;
      try {
        const c = checkCameraInfo(msg, expectation, infoScratch);
        if (c.type === "reject") {
          health.drop(PERCEPTION_TOPICS.cameraInfo, c.reason, c.detail);
          return;
        }
        calibrated = { width: msg.width, height: msg.height };
      } catch (err) {
        health.drop(PERCEPTION_TOPICS.cameraInfo, "callback_error", err instanceof Error ? err.message : String(err));
      }
    };

    const onImage = (msg: Image): void => {
      if (!active || detector === undefined || cells === undefined) return;
      const topic = PERCEPTION_TOPICS.image;
      try {
        const nowNs = clock.nowNs();
        const check = checkImage(msg, expectation);
        if (check.type === "reject") {
          health.drop(topic, check.reason, check.detail);
          return;
        }
        if (calibrated !== undefined && (msg.width !== calibrated.width || msg.height !== calibrated.height)) {
          health.drop(topic, "resolution", `image ${msg.width}x${msg.height}, camera_info says ${calibrated.width}x${calibrated.height}`);
          return;
        }
        const stamp = guard.check(msg.header.stamp, nowNs);
        switch (stamp.type) {
          case "drop":
            health.drop(topic, stamp.reason, stamp.detail);
            return;
          case "jump_back":
            health.timeJump(topic, stamp.detail);
            sensors.reset();
            textureGain = 1;
            break;
          case "ok":
            break;
        }
        const t0 = performance.now();
        const out = detector.infer(msg, sensors.onFrame(stampToNs(msg.header.stamp)), textureGain);
        // A model whose outputs overflow (scaled weights, a bad backend) must not steer: the frame
        // is dropped and counted, so no detections or policy reach the controller and it hovers
        // after input_timeout_s.
        const nonFinite = countNonFinite(out.cellProbs) + countNonFinite(out.actionLogits) + countNonFinite(out.threatProbs ?? []);
        if (nonFinite > 0) {
          health.drop(topic, "non_finite_output", `the model gave ${nonFinite} NaN or infinite output values (cell and threat probabilities, action logits); frame dropped`);
          return;
        }
        if (p.publishStudentOutput) pubOutput?.publish(toStudentOutputMsg(msg.header, out, msg, false));
        if (out.gridRows !== cells.rows || out.gridCols !== cells.cols) cells = newCells(out.gridRows, out.gridCols, out.numClasses);
        // Cells are 8 px from the top-left corner; the last row/column may overhang the frame.
        const detections = cells.run(out.cellProbs, out.gridCols * CELL_SIZE_PX, out.gridRows * CELL_SIZE_PX, msg.header, []);
        pubRaw?.publish({ header: copyHeader(msg.header), detections });
        stats.record(nowNs, performance.now() - t0);
      } catch (err) {
        health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
      }
    };

    /** A state input: validated, stamp-checked, then folded into `sensors`. */
    const stateInput = <T extends { header: { stamp: { sec: number; nanosec: number } } }>(
      topic: string,
      guardOf: StampGuard,
      check: (m: T) => InputCheck,
      apply: (m: T) => void,
    ) =>
      checkedInput<T>(health, topic, () => active, check, (msg) => {
        const v = guardOf.check(msg.header.stamp, clock.nowNs());
        if (v.type === "drop") {
          health.drop(topic, v.reason, v.detail);
          return;
        }
        if (v.type === "jump_back") {
          health.timeJump(topic, v.detail);
          sensors.reset();
        }
        apply(msg);
      });

    const newCells = (rows: number, cols: number, numClasses: number): CellsToDetections =>
      new CellsToDetections({
        rows,
        cols,
        numClasses,
        classNames: DETECTION_CLASSES.length === numClasses ? DETECTION_CLASSES : Array.from({ length: numClasses }, (_, i) => String(i)),
        connectivity: p.connectivity === 4 ? 4 : 8,
        scoreThreshold: p.scoreThreshold,
        scoreMode: p.scoreMode,
        minCells: p.minCells,
      });

    const release = (): void => {
      active = false;
      for (const s of subs) node.destroySubscription(s);
      subs.length = 0;
      if (pubOutput !== undefined) node.destroyPublisher(pubOutput);
      if (pubRaw !== undefined) node.destroyPublisher(pubRaw);
      pubOutput = undefined;
      pubRaw = undefined;
      diagnostics.stop();
      detector?.dispose?.();
      detector = undefined;
      cells = undefined;
    };

    return wireLifecycle(node, {
      logger,
      configure: async () => {
        detector = await deps.createDetector({ kind: p.detector, width: p.width, height: p.height, modelDir: p.modelDir });
        cells = newCells(detector.gridRows, detector.gridCols, detector.numClasses);
        pubOutput = node.createPublisher<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, PERCEPTION_TOPICS.studentOutput, { qos: QOS_DEFAULT });
        pubRaw = node.createPublisher<Detection2DArray>(DETECTION_ARRAY_TYPE, PERCEPTION_TOPICS.obstaclesRaw, { qos: QOS_DEFAULT });
        const T = PERCEPTION_TOPICS;
        subs.push(
          node.createSubscription<Image>(IMAGE_TYPE, T.image, { qos: QOS_SENSOR_DATA }, onImage),
          node.createSubscription<CameraInfo>("sensor_msgs/msg/CameraInfo", T.cameraInfo, { qos: QOS_SENSOR_DATA }, onCameraInfo),
          node.createSubscription<{ data: number }>("std_msgs/msg/Float32", T.textureGain, { qos: QOS_DEFAULT }, onTextureGain),
          node.createSubscription<Imu>(IMU_TYPE, T.imu, { qos: QOS_SENSOR_DATA }, stateInput(T.imu, sensorGuards.imu, (m: Imu) => checkImu(m), (m) => sensors.onImu(m))),
          node.createSubscription<NavSatFix>(NAV_SAT_FIX_TYPE, T.fix, { qos: QOS_SENSOR_DATA }, stateInput(T.fix, sensorGuards.fix, checkNavSatFix, (m) => sensors.onFix(m))),
          node.createSubscription<TwistStamped>(TWIST_STAMPED_TYPE, T.vel, { qos: QOS_SENSOR_DATA }, stateInput(T.vel, sensorGuards.vel, (m: TwistStamped) => checkTwistStamped(m), (m) => sensors.onVel(m))),
        );
        diagnostics.start();
      },
      activate: () => {
        active = true;
      },
      deactivate: () => {
        active = false;
        textureGain = 1;
        guard.reset();
        for (const g of Object.values(sensorGuards)) g.reset();
        sensors.reset();
      },
      release,
      resetOnCleanup: () => {
        guard.reset();
        for (const g of Object.values(sensorGuards)) g.reset();
        sensors.reset();
      },
    });
  };
}
