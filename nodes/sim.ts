/**
 * sim: the embedded simulator as a ROS 2 node (the role gz sim + ros_gz_bridge play with Gazebo).
 * Publishes camera/image_raw, camera/camera_info, imu/data, gps/fix, gps/vel (sensor-data QoS),
 * /clock and sim/ground_truth (reliable); subscribes cmd_vel (TwistStamped, body FLU, REP-103).
 * Topic names are relative so they can be remapped, except /clock. Frame ids: base_link,
 * camera_optical_frame, imu_link, gps_link.
 *
 * Time: the node is the clock source, so it always runs on its own time (use_sim_time is forced
 * to false for this node, as for Gazebo) and publishes /clock every physics tick
 * (1 / imu_rate_hz). Modes:
 * - "realtime": a wall-clock timer ticks the simulation at its physics rate; ticks that a busy
 *   event loop made late are caught up in the next callback (up to realtime_catch_up_s of sim
 *   time at once, sim/RealtimePacer.ts), so sim time keeps to wall time whenever the machine has
 *   the capacity on average;
 * - "lockstep": nothing runs by itself; a job or test calls `controller.tick()` /
 *   `controller.advance(s)` and spins the graph, so runs are deterministic and as fast as the CPU
 *   allows.
 * A command older than cmd_timeout_s (sim time) is replaced by hover. Bad commands (non-finite
 * values) are dropped, counted and logged once per burst; the node never throws in a callback.
 */
import type { BodyVelocityCommand } from "../src/harness/actions";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import { QOS_DEFAULT, QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL, type Logger, type Parameter, type Publisher, type RosGraph, type RosNode, type SetParametersResult } from "../src/ros/graph/types";
import { wallNowNs } from "../src/ros/graph/wallClock";
import { nsToStamp } from "../src/util/time";
import type {
  drone_harness_msgs__msg__GroundTruth as GroundTruthMsg,
  geographic_msgs__msg__GeoPoseStamped as GeoPoseStampedMsg,
  geometry_msgs__msg__TwistStamped as TwistStampedMsg,
  rosgraph_msgs__msg__Clock as ClockMsg,
  sensor_msgs__msg__CameraInfo as CameraInfoMsg,
  sensor_msgs__msg__Image as ImageMsg,
  sensor_msgs__msg__Imu as ImuMsg,
  sensor_msgs__msg__NavSatFix as NavSatFixMsg,
} from "../src/ros/msgs/generated";
import { eulerToQuaternion } from "../sim/sensors";
import { loadScenarioFile } from "../sim/io/loadScenarioFile";
import { makePrivilegedState, type PrivilegedState } from "../sim/privileged";
import type { BoxList } from "../sim/Renderer";
import type { Scenario } from "../sim/Scenario";
import { createSimulation, type Simulation } from "../sim/Simulation";
import { GROUND_TRUTH_TYPE, SIM_TOPICS } from "../sim/topics";
import { RealtimePacer } from "../sim/RealtimePacer";
import { declareBool, declareDouble, declareInt, declareString } from "./common/ros/declareParams";

export type SimMode = "realtime" | "lockstep";

/** Sim time behind wall time by more than this (realtime mode) is reported. */
const REALTIME_LAG_WARN_NS = 1_000_000_000n;

export type SimNodeController = {
  readonly sim: Simulation;
  readonly mode: SimMode;
  /** Physics tick, s (1 / imu_rate_hz). */
  readonly tick_s: number;
  /** Advances one physics tick and publishes what is due at the new time. */
  tick(): void;
  /** Advances by `seconds` (rounded to whole ticks). */
  advance(seconds: number): void;
  /** Simulated time, ns. */
  timeNs(): bigint;
  /** Commands dropped because they were malformed. */
  readonly droppedCommands: number;
};

export type SimLaunchedNode = LaunchedNode & { controller: SimNodeController };

export type SimNodeDeps = {
  /** Scenario loader (default: sim/scenarios/NAME.yaml or a path). */
  loadScenario?: (nameOrPath: string) => Scenario;
};

const rel = (topic: string): string => (topic === "/clock" ? topic : topic.slice(1));
const topicOf = (name: string): string => {
  const t = SIM_TOPICS.find((x) => x.topic === name);
  if (t === undefined) throw new Error(`topic ${name} is not in SIM_TOPICS`);
  return t.topic;
};

function declareSimParams(node: RosNode) {
  return {
    scenario: declareString(node, "scenario", "default", "Scenario name (sim/scenarios/NAME.yaml) or path to a scenario YAML"),
    seed: declareInt(node, "seed", 1, "Scenario seed", { from: 0, to: 0xffffffff }),
    perturbed: declareBool(node, "perturbed", false, "Apply the scenario's perturbation block"),
    mode: declareString<SimMode>(node, "mode", "realtime", "realtime: wall-clock timer; lockstep: driven by explicit ticks", ["realtime", "lockstep"]),
    width: declareInt(node, "image_width", 0, "Camera width in px (0 = the scenario's)", { from: 0, to: 4096 }),
    height: declareInt(node, "image_height", 0, "Camera height in px (0 = the scenario's)", { from: 0, to: 4096 }),
    cameraRate: declareDouble(node, "camera_rate_hz", 0, "Camera rate (0 = the scenario's)", { from: 0, to: 1000 }),
    imuRate: declareDouble(node, "imu_rate_hz", 0, "IMU rate = physics tick rate (0 = the scenario's)", { from: 0, to: 2000 }),
    gpsRate: declareDouble(node, "gps_rate_hz", 0, "GPS rate (0 = the scenario's)", { from: 0, to: 100 }),
    groundTruth: declareBool(node, "publish_ground_truth", true, "Publish sim/ground_truth with every camera frame"),
    cmdTimeout: declareDouble(node, "cmd_timeout_s", 0.5, "Hover when the last cmd_vel is older than this (sim time)", { from: 0.01, to: 60 }),
    catchUp: declareDouble(node, "realtime_catch_up_s", 0.1, "realtime mode: most sim time run back to back to catch up with the wall clock (0 = skip late ticks, as a plain timer does)", { from: 0, to: 10 }),
    fixLost: declareBool(node, "gps_fix_lost", false, "Report STATUS_NO_FIX on gps/fix (settable at run time)"),
  };
}
type SimParams = ReturnType<typeof declareSimParams>;

/** The scenario with the parameters' camera, IMU and GPS overrides (0 keeps the scenario's). */
function scenarioOf(p: SimParams, load: (nameOrPath: string) => Scenario): Scenario {
  const scenario = load(p.scenario);
  if (p.width > 0) scenario.camera.width = p.width;
  if (p.height > 0) scenario.camera.height = p.height;
  if (p.cameraRate > 0) scenario.camera.rate_hz = p.cameraRate;
  if (p.imuRate > 0) scenario.imu.rate_hz = p.imuRate;
  if (p.gpsRate > 0) scenario.gps.rate_hz = p.gpsRate;
  return scenario;
}

/** gps_fix_lost, settable at run time. */
function setGpsFixLost(sim: Simulation): (params: Parameter[]) => SetParametersResult {
  return (params) => {
    for (const q of params) {
      if (q.name === "gps_fix_lost") {
        if (typeof q.value !== "boolean") return { successful: false, reason: `gps_fix_lost=${JSON.stringify(q.value)}, expected a bool` };
        sim.gpsFixLost = q.value;
      }
    }
    return { successful: true, reason: "" };
  };
}

type SimPublishers = {
  image: Publisher<ImageMsg>;
  info: Publisher<CameraInfoMsg>;
  imu: Publisher<ImuMsg>;
  fix: Publisher<NavSatFixMsg>;
  vel: Publisher<TwistStampedMsg>;
  clock: Publisher<ClockMsg>;
  /** Undefined with publish_ground_truth:=false. */
  truth: Publisher<GroundTruthMsg> | undefined;
};

function createSimPublishers(node: RosNode, groundTruth: boolean): SimPublishers {
  return {
    image: node.createPublisher<ImageMsg>("sensor_msgs/msg/Image", rel(topicOf("/camera/image_raw")), { qos: QOS_SENSOR_DATA }),
    info: node.createPublisher<CameraInfoMsg>("sensor_msgs/msg/CameraInfo", rel(topicOf("/camera/camera_info")), { qos: QOS_SENSOR_DATA }),
    imu: node.createPublisher<ImuMsg>("sensor_msgs/msg/Imu", rel(topicOf("/imu/data")), { qos: QOS_SENSOR_DATA }),
    fix: node.createPublisher<NavSatFixMsg>("sensor_msgs/msg/NavSatFix", rel(topicOf("/gps/fix")), { qos: QOS_SENSOR_DATA }),
    vel: node.createPublisher<TwistStampedMsg>("geometry_msgs/msg/TwistStamped", rel(topicOf("/gps/vel")), { qos: QOS_SENSOR_DATA }),
    clock: node.createPublisher<ClockMsg>("rosgraph_msgs/msg/Clock", topicOf("/clock"), { qos: QOS_DEFAULT }),
    truth: groundTruth ? node.createPublisher<GroundTruthMsg>(GROUND_TRUTH_TYPE, rel(topicOf("/sim/ground_truth")), { qos: QOS_DEFAULT }) : undefined,
  };
}

/**
 * The mission goal, once, latched (transient local: a controller that starts later still gets
 * it), as a ground station or mission planner would send it: WGS84, the GPS's altitude datum.
 */
function publishGoal(node: RosNode, sim: Simulation): void {
  const pubGoal = node.createPublisher<GeoPoseStampedMsg>("geographic_msgs/msg/GeoPoseStamped", rel(topicOf("/goal")), { qos: { ...QOS_TRANSIENT_LOCAL, depth: 1 } });
  pubGoal.publish({ header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "" }, geo_pose: { position: sim.goalGeodetic(), orientation: { x: 0, y: 0, z: 0, w: 1 } } });
}

/** The last valid cmd_vel and its receive time (sim time); non-finite twists are dropped, counted and logged once per burst. */
class CommandInput {
  readonly cmd: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  private readonly hover: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  private lastCmdNs = -1n;
  dropped = 0;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutNs: bigint,
  ) {}

  receive(m: TwistStampedMsg, timeNs: bigint): void {
    const l = m.twist.linear;
    const a = m.twist.angular;
    if (![l.x, l.y, l.z, a.z].every(Number.isFinite)) {
      this.dropped++;
      this.logger.throttle("warn", "bad_cmd", 1_000_000_000n, `cmd_vel dropped: non-finite twist (${l.x}, ${l.y}, ${l.z}, ${a.z}); ${this.dropped} dropped so far`);
      return;
    }
    this.cmd.vx_m_s = l.x;
    this.cmd.vy_m_s = l.y;
    this.cmd.vz_m_s = l.z;
    this.cmd.yawRate_rad_s = a.z;
    this.lastCmdNs = timeNs;
  }

  /** The command to fly at `timeNs`: the last one, or hover when it is older than cmd_timeout_s. */
  at(timeNs: bigint): BodyVelocityCommand {
    const fresh = this.lastCmdNs >= 0n && timeNs - this.lastCmdNs <= this.timeoutNs;
    return fresh ? this.cmd : this.hover;
  }
}

const diag = (v: number): number[] => [v, 0, 0, 0, v, 0, 0, 0, v];

/** The sensor messages of one physics tick: /clock and IMU every tick, GPS and camera when due at their rates. */
class SensorOutputs {
  private nextCameraNs = 0n;
  private nextGpsNs = 0n;
  private readonly cameraNs: bigint;
  private readonly gpsNs: bigint;
  private readonly width: number;
  private readonly height: number;
  private readonly mask: Uint8Array;
  private readonly boxes: BoxList;
  private readonly priv: PrivilegedState = makePrivilegedState();
  private readonly info: ReturnType<Simulation["cameraInfo"]>;

  constructor(
    private readonly sim: Simulation,
    private readonly pubs: SimPublishers,
    private readonly run: { scenario: Scenario; seed: number; perturbed: boolean },
  ) {
    this.cameraNs = BigInt(Math.round(1e9 / run.scenario.camera.rate_hz));
    this.gpsNs = BigInt(Math.round(1e9 / run.scenario.gps.rate_hz));
    this.width = sim.camera.width;
    this.height = sim.camera.height;
    this.mask = new Uint8Array(this.width * this.height);
    this.boxes = sim.makeBoxList();
    this.info = sim.cameraInfo();
  }

  publishDue(timeNs: bigint): void {
    const { sim, pubs } = this;
    const st = nsToStamp(timeNs);
    pubs.clock.publish({ clock: st });
    const imu = sim.readImu();
    const imuStd = sim.imuNoise;
    pubs.imu.publish({
      header: { stamp: st, frame_id: "imu_link" },
      orientation: imu.orientation,
      orientation_covariance: diag(1e-6),
      angular_velocity: imu.angular_velocity,
      angular_velocity_covariance: diag(imuStd.gyroNoiseStd_rad_s ** 2),
      linear_acceleration: imu.linear_acceleration,
      linear_acceleration_covariance: diag(imuStd.accelNoiseStd_m_s2 ** 2),
    });
    if (timeNs >= this.nextGpsNs) {
      this.nextGpsNs += this.gpsNs;
      const fix = sim.readGpsFix();
      pubs.fix.publish({ header: { stamp: st, frame_id: "gps_link" }, ...fix, position_covariance: [...fix.position_covariance] });
      const v = sim.readGpsVelocity();
      pubs.vel.publish({ header: { stamp: st, frame_id: "gps_link" }, twist: { linear: { ...v.linear }, angular: { ...v.angular } } });
    }
    if (timeNs >= this.nextCameraNs) {
      this.nextCameraNs += this.cameraNs;
      this.publishCamera({ stamp: st, frame_id: "camera_optical_frame" });
    }
  }

  private publishCamera(header: { stamp: { sec: number; nanosec: number }; frame_id: string }): void {
    const { sim, pubs, info, mask, boxes, width: W, height: H } = this;
    // A fresh buffer per published image: in-process subscribers may keep the message.
    const rgb = new Uint8Array(W * H * 3);
    // Ground truth (class mask + boxes) costs render time: skip it when nobody gets it.
    if (pubs.truth !== undefined) sim.renderCamera({ rgb, mask, boxes });
    else sim.renderCamera({ rgb });
    pubs.image.publish({ header, height: H, width: W, encoding: "rgb8", is_bigendian: 0, step: W * 3, data: rgb });
    pubs.info.publish({ header, ...info, d: [...info.d], k: [...info.k], r: [...info.r], p: [...info.p], roi: { ...info.roi } });
    if (pubs.truth !== undefined) {
      sim.privileged(this.priv);
      pubs.truth.publish(groundTruthMsg(header, sim, this.run, { width: W, height: H, mask, boxes, priv: this.priv }));
    }
  }
}

/** sim/ground_truth for the frame just rendered into `frame.mask` and `frame.boxes`, with `frame.priv` just computed. */
function groundTruthMsg(
  header: { stamp: { sec: number; nanosec: number }; frame_id: string },
  sim: Simulation,
  run: { scenario: Scenario; seed: number; perturbed: boolean },
  frame: { width: number; height: number; mask: Uint8Array; boxes: BoxList; priv: PrivilegedState },
): GroundTruthMsg {
  const { mask, boxes, priv } = frame;
  const d = sim.drone;
  const q = { x: 0, y: 0, z: 0, w: 1 };
  eulerToQuaternion(d.yaw, d.pitch, d.roll, q);
  const n = boxes.count;
  return {
    header,
    scenario: run.scenario.name,
    seed: run.seed,
    perturbed: run.perturbed,
    height: frame.height,
    width: frame.width,
    mask: mask.slice(),
    box_object_id: Uint32Array.from(boxes.objectId.subarray(0, n)),
    box_class: boxes.cls.slice(0, n),
    box_x_min: boxes.x0.slice(0, n),
    box_y_min: boxes.y0.slice(0, n),
    box_x_max: boxes.x1.slice(0, n),
    box_y_max: boxes.y1.slice(0, n),
    pose: { position: { x: d.position[0]!, y: d.position[1]!, z: d.position[2]! }, orientation: q },
    velocity_enu: { x: d.velocity[0]!, y: d.velocity[1]!, z: d.velocity[2]! },
    angular_velocity_body: { x: d.angularVelocity[0]!, y: d.angularVelocity[1]!, z: d.angularVelocity[2]! },
    nearest_distance: priv.nearestDistance_m,
    nearest_class: priv.nearestClass,
    nearest_azimuth: priv.nearestAzimuth_rad,
    nearest_elevation: priv.nearestElevation_rad,
    path_distance: priv.pathDistance_m,
    path_class: priv.pathClass,
    path_azimuth: priv.pathAzimuth_rad,
    path_elevation: priv.pathElevation_rad,
    time_to_collision: priv.timeToCollision_s,
    class_distance: Float64Array.from(priv.classDistance_m),
    ground_clearance: priv.groundClearance_m,
    goal_distance: priv.goalDistance_m,
    goal_azimuth: priv.goalAzimuth_rad,
    status: sim.status,
    collided: sim.collision !== undefined,
    collision_class: sim.collision?.cls ?? 0,
    collision_time: sim.collision?.time_s ?? 0,
  };
}

/**
 * Real time: /diagnostics and /clock rates are in sim time, so a sim that cannot keep up on a
 * loaded machine looks healthy there; this compares with the wall clock and says so.
 */
function realtimeLagWarning(logger: Logger, tickNs: bigint, cameraRate_hz: number): (timeNs: bigint) => void {
  let wallStartNs: bigint | undefined;
  return (timeNs) => {
    // From the first tick (the other nodes may still be loading models before it).
    wallStartNs ??= wallNowNs() - tickNs;
    const wallNs = wallNowNs() - wallStartNs;
    if (wallNs - timeNs > REALTIME_LAG_WARN_NS) {
      const ratio = Number(timeNs) / Number(wallNs);
      logger.throttle(
        "warn",
        "realtime_lag",
        5_000_000_000n,
        `sim falls behind real time: ${(Number(timeNs) / 1e9).toFixed(1)} s simulated in ${(Number(wallNs) / 1e9).toFixed(1)} s of wall time (${ratio.toFixed(2)}x); the camera runs at about ${(cameraRate_hz * ratio).toFixed(1)} Hz wall-clock, not ${cameraRate_hz} Hz`,
      );
    }
  };
}

export function createSimNode(deps: SimNodeDeps = {}): NodeFactory {
  return async (graph: RosGraph, options: NodeFactoryOptions): Promise<SimLaunchedNode> => {
    const node = graph.createNode(options.name, {
      namespace: options.namespace,
      // The simulator is the clock source: it never follows /clock itself.
      parameterOverrides: { ...options.parameterOverrides, use_sim_time: false },
      remappings: options.remappings,
    });
    const logger = node.getLogger();
    if (options.parameterOverrides.use_sim_time === true) logger.info("use_sim_time ignored: the simulator publishes /clock itself");
    const p = declareSimParams(node);
    const scenario = scenarioOf(p, deps.loadScenario ?? loadScenarioFile);
    const sim = createSimulation(scenario, { seed: p.seed, perturbed: p.perturbed });
    sim.gpsFixLost = p.fixLost;
    node.addOnSetParametersCallback(setGpsFixLost(sim));

    const pubs = createSimPublishers(node, p.groundTruth);
    publishGoal(node, sim);
    let timeNs = 0n;
    const command = new CommandInput(logger, BigInt(Math.round(p.cmdTimeout * 1e9)));
    node.createSubscription<TwistStampedMsg>("geometry_msgs/msg/TwistStamped", rel(topicOf("/cmd_vel")), { qos: QOS_DEFAULT }, (m) => command.receive(m, timeNs));

    const tickNs = BigInt(Math.round(1e9 / scenario.imu.rate_hz));
    const tick_s = Number(tickNs) / 1e9;
    const sensors = new SensorOutputs(sim, pubs, { scenario, seed: p.seed, perturbed: p.perturbed });
    const lag = p.mode === "realtime" ? realtimeLagWarning(logger, tickNs, scenario.camera.rate_hz) : undefined;
    const tick = (): void => {
      sim.step(command.at(timeNs), tick_s);
      timeNs += tickNs;
      sensors.publishDue(timeNs);
      lag?.(timeNs);
    };
    // Publish the initial state at t = 0 so subscribers see the first frame before any command.
    sensors.publishDue(timeNs);

    const pacer = p.mode === "realtime" ? new RealtimePacer(tickNs, BigInt(Math.round(p.catchUp * 1e9))) : undefined;
    const timer =
      pacer !== undefined
        ? node.createTimer(tickNs, () => {
            for (let n = pacer.due(wallNowNs()); n > 0; n--) tick();
          })
        : undefined;
    logger.info(`sim: scenario ${scenario.name} seed ${p.seed}${p.perturbed ? " (perturbed)" : ""}, ${sim.camera.width}x${sim.camera.height} @ ${scenario.camera.rate_hz} Hz, tick ${tick_s * 1000} ms, ${p.mode}`);

    const controller: SimNodeController = {
      sim,
      mode: p.mode,
      tick_s,
      tick,
      advance: (seconds: number) => {
        if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError(`seconds=${seconds}, expected a finite number >= 0`);
        const n = Math.round(seconds / tick_s);
        for (let i = 0; i < n; i++) tick();
      },
      timeNs: () => timeNs,
      get droppedCommands() {
        return command.dropped;
      },
    };
    return {
      node,
      controller,
      stop: async () => {
        timer?.cancel();
        node.destroy();
      },
    };
  };
}
