/**
 * controller: harness/policy + harness/obstacles (corrected detections)
 *   -> cmd_vel_raw (geometry_msgs/TwistStamped, body FLU per REP-103, frame_id base_link).
 *
 * Parameter `mode`:
 * - "planner" (default, issue 12): the local planner (src/control/LocalPlanner.ts) scores the 7
 *   manoeuvres from harness/policy's near-threat cells (threat_probs), the attitude (imu/data
 *   orientation), the GNSS fix and velocity (gps/fix, gps/vel) and the goal; its scores are the
 *   action logits. The goal is geographic_msgs/GeoPoseStamped on `goal` (WGS84 position; reliable,
 *   transient local, so a goal published before the controller starts arrives; orientation
 *   ignored) or, with goal_source:=parameters, goal_latitude_deg/goal_longitude_deg/goal_altitude_m.
 *   Without a goal or with a stale navigation input it hovers and says why in /diagnostics.
 * - "policy": the argmax of the policy head's action logits in harness/policy (the older student).
 *
 * The command goes to the safety node, which gates it onto cmd_vel (and, with output:=px4, onto
 * PX4's fmu/in/* topics): the last stage before the vehicle is the watchdog, so a controller
 * that crashes, stalls or is respawned can never leave a stale command active (twist_mux
 * pattern). A command is published on every policy message (lowest latency camera -> command)
 * and on a `rate_hz` timer when no message came within one period (hover when the policy is
 * stale: see src/control/Controller.ts). Silent until active; inputs validated and counted.
 */
import { performance } from "node:perf_hooks";

import { Controller, type ControllerOptions } from "../src/control/Controller";
import { DEFAULT_PLANNER_OPTIONS, LocalPlanner } from "../src/control/LocalPlanner";
import { NavigationState } from "../src/control/NavigationState";
import { VerticalCommitment } from "../src/control/VerticalCommitment";
import type { Detection2DArray } from "../src/control/visionTypes";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import {
  QOS_DEFAULT,
  QOS_SENSOR_DATA,
  QOS_TRANSIENT_LOCAL,
  type Clock,
  type LifecycleRosNode,
  type Logger,
  type Publisher,
  type RosGraph,
  type RosNode,
  type Subscription,
  type Timer,
} from "../src/ros/graph/types";
import { declareBool, declareDouble, declareInt, declareString } from "./common/ros/declareParams";
import { checkedInput } from "./common/ros/checkedInput";
import { InputHealth } from "./common/ros/InputHealth";
import { DIAG_OK, DIAG_WARN, NodeDiagnostics, type DiagnosticTaskResult } from "./common/ros/NodeDiagnostics";
import { PlannerDecision } from "./common/models/PlannerDecision";
import { StuckScan } from "../src/control/stuckScan";
import { RateStats } from "./common/ros/RateStats";
import { INPUT_OK, checkImu, checkNavSatFix, checkTwistStamped, type InputCheck } from "./common/sensors/inputValidation";
import type { Imu, NavSatFix, TwistStamped } from "./common/sensors/sensorTypes";
import { StampGuard, stampToNs } from "./common/ros/StampGuard";
import { DETECTION_ARRAY_TYPE, IMU_TYPE, NAV_SAT_FIX_TYPE, STUDENT_OUTPUT_TYPE, TWIST_STAMPED_TYPE, copyHeader, studentOutputProblem, type StudentOutputMsg } from "./common/models/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/ros/wireLifecycle";

export const CONTROLLER_TOPICS = {
  policy: "harness/policy",
  /** The detector's own output (planner mode with vertical_commit_level > 0): the commitment's wire evidence. */
  uncorrected: "harness/student_output",
  obstacles: "harness/obstacles",
  cmdVelRaw: "cmd_vel_raw",
  imu: "imu/data",
  fix: "gps/fix",
  vel: "gps/vel",
  goal: "goal",
} as const;

export const GEO_POSE_STAMPED_TYPE = "geographic_msgs/msg/GeoPoseStamped";
type GeoPoseStamped = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; geo_pose: { position: { latitude: number; longitude: number; altitude: number } } };
type ControllerMode = "planner" | "policy";

/** An IMU message whose orientation the planner can use: checkImu, plus a unit quaternion (covariance[0] = -1 means no estimate, REP-145). */
function checkAttitude(m: Imu): InputCheck {
  const c = checkImu(m);
  if (c.type === "reject") return c;
  if (m.orientation_covariance[0] === -1) return { type: "reject", reason: "bad_content", detail: "orientation_covariance[0] = -1: the IMU gives no orientation estimate, which the planner needs" };
  const q = m.orientation;
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  if (!(Math.abs(n - 1) <= 0.01)) return { type: "reject", reason: "bad_content", detail: `|orientation|=${n}, expected a unit quaternion` };
  return c;
}

/** The node's parameters with their defaults, descriptions and ranges. */
function declareControllerParams(node: RosNode) {
  const speed = { from: 0, to: 50 };
  return {
    cruise: declareDouble(node, "cruise_speed_m_s", 4, "Forward speed of the cruise action", speed),
    slowFraction: declareDouble(node, "slow_fraction", 0.35, "Forward speed of slow and manoeuvres, fraction of cruise", { from: 0, to: 1 }),
    vertical: declareDouble(node, "vertical_speed_m_s", 1.5, "Vertical speed of climb/descend", speed),
    yawRate: declareDouble(node, "yaw_rate_rad_s", 0.6, "Yaw rate of yaw_left/yaw_right", { from: 0, to: 10 }),
    maxH: declareDouble(node, "max_horizontal_speed_m_s", 5, "Clamp on horizontal speed", speed),
    maxV: declareDouble(node, "max_vertical_speed_m_s", 2, "Clamp on vertical speed", speed),
    maxYaw: declareDouble(node, "max_yaw_rate_rad_s", 1, "Clamp on yaw rate", { from: 0, to: 10 }),
    maxAccel: declareDouble(node, "max_accel_m_s2", 4, "Largest change of each velocity component per second (0 = unlimited)", { from: 0, to: 100 }),
    smoothing: declareDouble(node, "smoothing", 0, "EMA weight of the previous command (0 = off)", { from: 0, to: 0.99 }),
    inputTimeout: declareDouble(node, "input_timeout_s", 0.2, "Policy older than this -> hover", { from: 0.01, to: 10 }),
    rate: declareDouble(node, "rate_hz", 20, "Timer rate: hover/keep-alive commands when no policy message arrives", { from: 10, to: 200 }),
    frameId: declareString(node, "frame_id", "base_link", "frame_id of cmd_vel_raw (body FLU)"),
    gate: declareBool(node, "gate_enabled", false, "Cap forward speed at slow when a confident wire/branch box is in the central corridor"),
    gateScore: declareDouble(node, "gate_score", 0.6, "Detection score that arms the corridor gate", { from: 0, to: 1 }),
    gateCorridor: declareDouble(node, "gate_corridor_fraction", 0.3, "Width of the central corridor, fraction of the image", { from: 0.01, to: 1 }),
    mode: declareString<ControllerMode>(node, "mode", "planner", "planner: the local planner on harness/policy's threat cells and the goal; policy: the argmax of harness/policy's action logits", ["planner", "policy"]),
    goalSource: declareString<"topic" | "parameters">(node, "goal_source", "topic", "Where the planner's goal comes from: topic (geographic_msgs/GeoPoseStamped on goal) or parameters (goal_*)", ["topic", "parameters"]),
    goalLat: declareDouble(node, "goal_latitude_deg", 0, "Goal latitude, WGS84 degrees (goal_source:=parameters)", { from: -90, to: 90 }),
    goalLon: declareDouble(node, "goal_longitude_deg", 0, "Goal longitude, WGS84 degrees (goal_source:=parameters)", { from: -180, to: 180 }),
    goalAlt: declareDouble(node, "goal_altitude_m", 0, "Goal altitude, m, in gps/fix's datum (goal_source:=parameters)", { from: -1000, to: 100000 }),
    navTimeout: declareDouble(node, "navigation_timeout_s", 1, "Attitude, fix or velocity older than this -> hover", { from: 0.01, to: 60 }),
    homeAltitude: declareDouble(node, "home_altitude_m", 0, "Altitude of the ground (m, as in gps/fix) when use_first_fix_as_home is false"),
    firstFixHome: declareBool(node, "use_first_fix_as_home", true, "Take the first valid fix's altitude as ground level (false: home_altitude_m)"),
    threatGain: declareDouble(node, "threat_gain", DEFAULT_PLANNER_OPTIONS.threatGain, "Gain on the threat probabilities before planning (docs/pipeline.md)", { from: 0.01, to: 100 }),
    clearance: declareDouble(node, "clearance_m", DEFAULT_PLANNER_OPTIONS.clearance_m, "Planner corridor radius, m", { from: 0.1, to: 20 }),
    horizon: declareDouble(node, "horizon_s", DEFAULT_PLANNER_OPTIONS.horizon_s, "Planner horizon, s", { from: 0.1, to: 20 }),
    minAltitude: declareDouble(node, "min_altitude_m", DEFAULT_PLANNER_OPTIONS.minAltitude_m, "Planner altitude floor above ground, m", { from: 0, to: 1000 }),
    maxAltitude: declareDouble(node, "max_altitude_m", DEFAULT_PLANNER_OPTIONS.maxAltitude_m, "Planner altitude ceiling above ground, m", { from: 0, to: 10000 }),
    hfov: declareDouble(node, "camera_hfov_rad", DEFAULT_PLANNER_OPTIONS.hfov_rad, "Camera horizontal field of view, rad", { from: 0.1, to: 3.1 }),
    cameraPitch: declareDouble(node, "camera_pitch_rad", DEFAULT_PLANNER_OPTIONS.cameraPitch_rad, "Downward pitch of the camera's optical axis from body x, rad", { from: -1.5, to: 1.5 }),
    commitLevel: declareDouble(node, "vertical_commit_level", 0, "Planner: climbs and descends chosen with blocked_cruise >= this, while wire was seen within 2 s (harness/student_output), are flown to the wire cells' side (0 = off)", { from: 0, to: 1 }),
    commitCells: declareInt(node, "vertical_commit_wire_cells", 6, "Planner: cells at uncorrected wire probability >= 0.9 a frame must hold to count as wire seen", { from: 1, to: 100000 }),
    commitSide: declareString<"each" | "held">(node, "vertical_commit_side", "each", "each: every such decision takes the wire cells' side from where the drone is now; held: the first one's side is held while wire is seen", ["each", "held"]),
    arrivalRadius: declareDouble(node, "arrival_radius_m", 0, "Planner: within this horizontal distance of the goal (m) and more than 1 m from its altitude, with the way ahead and the manoeuvre's own arc clear, fly the climb or descend toward it with the forward speed that closes the distance in the same time (0 = off)", { from: 0, to: 1000 }),
    scanWhenStuck: declareDouble(node, "scan_when_stuck_s", 0, "Planner: once the drone came no more than 1 m closer to the goal than its best for this many seconds, hover is flown as a yaw in place toward the less blocked side (src/control/stuckScan.ts; 0 = off)", { from: 0, to: 600 }),
    stuckClimb: declareDouble(node, "stuck_climb_m", 0, "Planner, with scan_when_stuck_s: once stuck, the goal's altitude the planner reads is raised by this much (m) until the drone is within stuck_climb_release_m of the goal horizontally (src/control/stuckScan.ts; 0 = off)", { from: 0, to: 100 }),
    stuckClimbRelease: declareDouble(node, "stuck_climb_release_m", DEFAULT_PLANNER_OPTIONS.stuckClimbRelease_m, "Planner: the horizontal goal distance (m) within which the climb when stuck ends", { from: 0, to: 10000 }),
    commitStall: declareDouble(node, "vertical_commit_stall_s", 0, "Planner: the commitment turns no decision once the drone came less than 1 m closer to the goal over this many seconds of wire seen (0 = no bound)", { from: 0, to: 600 }),
  };
}
type ControllerParams = ReturnType<typeof declareControllerParams>;

function controllerOptionsOf(p: ControllerParams): ControllerOptions {
  return {
    limits: { cruiseSpeed_m_s: p.cruise, slowFraction: p.slowFraction, verticalSpeed_m_s: p.vertical, yawRate_rad_s: p.yawRate },
    maxHorizontalSpeed_m_s: p.maxH,
    maxVerticalSpeed_m_s: p.maxV,
    maxYawRate_rad_s: p.maxYaw,
    maxAccel_m_s2: p.maxAccel === 0 ? Number.POSITIVE_INFINITY : p.maxAccel,
    smoothing: p.smoothing,
    inputTimeout_s: p.inputTimeout,
    gate: { enabled: p.gate, score: p.gateScore, corridorFraction: p.gateCorridor, classes: ["wire", "branch"] },
  };
}

/** The local planner of mode:=planner. Its manoeuvres fly at the controller's speeds: one set of limits for both. */
function plannerOf(p: ControllerParams, limits: ControllerOptions["limits"]): LocalPlanner {
  return new LocalPlanner({
    threatGain: p.threatGain, clearance_m: p.clearance, horizon_s: p.horizon, minAltitude_m: p.minAltitude, maxAltitude_m: p.maxAltitude,
    hfov_rad: p.hfov, cameraPitch_rad: p.cameraPitch, arrivalRadius_m: p.arrivalRadius, arrivalGuarded: true,
    limits: { cruiseSpeed_m_s: limits.cruiseSpeed_m_s, slowFraction: limits.slowFraction, verticalSpeed_m_s: limits.verticalSpeed_m_s, yawRate_rad_s: limits.yawRate_rad_s },
  });
}

/** The planner's vertical commitment (vertical_commit_*), undefined when off. */
function commitmentOf(p: ControllerParams): VerticalCommitment | undefined {
  if (p.commitLevel === 0) return undefined;
  return new VerticalCommitment({ level: p.commitLevel, cells: p.commitCells, ...(p.commitSide === "each" ? { side: "each" as const } : {}), ...(p.commitStall > 0 ? { stall_s: p.commitStall } : {}) });
}

/** The controller node's state and callbacks; configure, activate, deactivate and release are its lifecycle transitions. */
class ControllerNode {
  private readonly p: ControllerParams;
  private readonly controllerOptions: ControllerOptions;
  private readonly navigation: NavigationState;
  /** Planner mode's decision step; undefined with mode:=policy. */
  private readonly planning: PlannerDecision | undefined;
  readonly logger: Logger;
  private readonly clock: Clock;
  private readonly health: InputHealth;
  private readonly stats = new RateStats();
  // Camera stamp -> command age on the node clock (SPEC "Speed": camera message to published
  // command), for the commands that answer a policy message.
  private readonly ages = new RateStats();
  private readonly guards = { policy: new StampGuard(), obstacles: new StampGuard() };
  private readonly diagnostics: NodeDiagnostics;
  private readonly periodNs: bigint;
  private controller: Controller | undefined;
  private imageWidth = 0;
  private lastPublishNs: bigint | undefined;
  private active = false;
  private pub: Publisher<TwistStamped> | undefined;
  private timer: Timer | undefined;
  private readonly subs: Subscription[] = [];
  private lastMode = "hover_no_input";

  constructor(private readonly node: LifecycleRosNode) {
    const p = declareControllerParams(node);
    this.p = p;
    this.controllerOptions = controllerOptionsOf(p);
    this.logger = node.getLogger();
    this.clock = node.getClock();
    this.health = new InputHealth(this.logger);
    const planner = p.mode === "planner" ? plannerOf(p, this.controllerOptions.limits) : undefined;
    this.navigation = new NavigationState({ timeout_s: p.navTimeout, ...(p.firstFixHome ? {} : { groundAltitude_m: p.homeAltitude }) });
    if (p.mode === "planner" && p.goalSource === "parameters") this.navigation.setGoal({ latitude: p.goalLat, longitude: p.goalLon, altitude: p.goalAlt });
    const scan = p.scanWhenStuck > 0 ? new StuckScan(p.scanWhenStuck, p.stuckClimb > 0 ? { climb_m: p.stuckClimb, release_m: p.stuckClimbRelease } : undefined) : undefined;
    if (p.scanWhenStuck === 0 && p.stuckClimb > 0) this.logger.warn(`stuck_climb_m=${p.stuckClimb} is ignored without scan_when_stuck_s (the climb begins once the drone is stuck, as the scan reads it)`);
    this.planning = planner === undefined ? undefined : new PlannerDecision(planner, this.navigation, this.health, CONTROLLER_TOPICS.policy, commitmentOf(p), CONTROLLER_TOPICS.uncorrected, scan);
    if (planner === undefined && p.commitLevel > 0) this.logger.warn(`vertical_commit_level=${p.commitLevel} is ignored with mode:=policy (the commitment turns the local planner's decisions)`);
    this.diagnostics = new NodeDiagnostics(node, { hardwareId: "controller" });
    this.periodNs = BigInt(Math.round(1e9 / p.rate));
    this.diagnostics.add("controller", () => this.status());
  }

  configure(): void {
    const { node } = this;
    this.controller = new Controller(this.controllerOptions);
    this.pub = node.createPublisher<TwistStamped>(TWIST_STAMPED_TYPE, CONTROLLER_TOPICS.cmdVelRaw, { qos: QOS_DEFAULT });
    this.subs.push(
      node.createSubscription<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, CONTROLLER_TOPICS.policy, { qos: QOS_DEFAULT }, this.onPolicy),
      node.createSubscription<Detection2DArray>(DETECTION_ARRAY_TYPE, CONTROLLER_TOPICS.obstacles, { qos: QOS_DEFAULT }, this.onObstacles),
    );
    if (this.planning !== undefined) this.subscribeNavigation();
    if (this.planning !== undefined && this.p.mode === "planner" && this.p.commitLevel > 0) {
      this.subs.push(node.createSubscription<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, CONTROLLER_TOPICS.uncorrected, { qos: QOS_DEFAULT }, this.onUncorrected));
    }
    this.diagnostics.start();
  }

  activate(): void {
    this.controller?.reset();
    this.lastPublishNs = undefined;
    this.active = true;
    this.timer = this.node.createTimer(this.periodNs, this.onTimer);
  }

  deactivate(): void {
    this.active = false;
    this.navigation.reset();
    this.planning?.reset();
    this.timer?.cancel();
    this.timer = undefined;
    for (const g of Object.values(this.guards)) g.reset();
  }

  release(): void {
    this.active = false;
    this.timer?.cancel();
    this.timer = undefined;
    for (const s of this.subs) this.node.destroySubscription(s);
    this.subs.length = 0;
    if (this.pub !== undefined) this.node.destroyPublisher(this.pub);
    this.pub = undefined;
    this.diagnostics.stop();
    this.controller = undefined;
  }

  /** Planner mode's inputs: attitude, fix, velocity and (goal_source:=topic) the goal. */
  private subscribeNavigation(): void {
    const { node, navigation } = this;
    const T = CONTROLLER_TOPICS;
    this.subs.push(
      node.createSubscription<Imu>(IMU_TYPE, T.imu, { qos: QOS_SENSOR_DATA }, this.navInput(T.imu, checkAttitude, (m, t) => navigation.onAttitude(m.orientation, t))),
      node.createSubscription<NavSatFix>(NAV_SAT_FIX_TYPE, T.fix, { qos: QOS_SENSOR_DATA }, this.navInput(T.fix, checkNavSatFix, (m, t) => {
        if (m.status.status >= 0) navigation.onFix(m, t);
      })),
      node.createSubscription<TwistStamped>(TWIST_STAMPED_TYPE, T.vel, { qos: QOS_SENSOR_DATA }, this.navInput(T.vel, (m: TwistStamped) => checkTwistStamped(m), (m, t) => navigation.onVelocity(m.twist.linear, t))),
    );
    if (this.p.goalSource === "topic") {
      this.subs.push(node.createSubscription<GeoPoseStamped>(GEO_POSE_STAMPED_TYPE, T.goal, { qos: { ...QOS_TRANSIENT_LOCAL, depth: 1 } }, this.onGoal));
    }
  }

  /** A navigation input: validated, then folded into the navigation state with its receive time (node clock). */
  private navInput<T>(topic: string, check: (m: T) => InputCheck, apply: (m: T, tNs: bigint) => void): (msg: T) => void {
    return checkedInput<T>(this.health, topic, () => this.active, check, (m) => apply(m, this.clock.nowNs()));
  }

  private readonly onPolicy = (msg: StudentOutputMsg): void => {
    const controller = this.controller;
    if (!this.active || controller === undefined) return;
    const topic = CONTROLLER_TOPICS.policy;
    try {
      const nowNs = this.clock.nowNs();
      const problem = studentOutputProblem(msg);
      const content: InputCheck = problem === undefined ? INPUT_OK : { type: "reject", reason: "bad_content", detail: problem };
      // A stamp that jumps back (sim reset) restarts the controller's filters.
      if (!this.health.admit(topic, content, () => this.guards.policy.check(msg.header.stamp, nowNs), () => this.restart(controller))) return;
      const t0 = performance.now();
      if (this.planning !== undefined) this.planning.decide(msg, nowNs, controller);
      else if (!controller.setLogits(msg.action_logits, nowNs)) this.health.drop(topic, "non_finite", "action_logits has NaN/Inf: hover");
      this.imageWidth = msg.image_width;
      this.publish(copyHeader(msg.header), nowNs, t0);
      this.ages.record(nowNs, Number(nowNs - stampToNs(msg.header.stamp)) / 1e6);
    } catch (err) {
      this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  /** A stamp that jumped back (sim reset): the controller's filters and the planner's commitment start again. */
  private restart(controller: Controller): void {
    controller.reset();
    this.planning?.reset();
  }

  /** The vertical commitment's evidence: the detector's own output for the frame the policy message will carry. */
  private readonly onUncorrected = (msg: StudentOutputMsg): void => {
    if (!this.active || this.planning === undefined) return;
    const topic = CONTROLLER_TOPICS.uncorrected;
    try {
      const problem = studentOutputProblem(msg);
      if (problem !== undefined) {
        this.health.drop(topic, "bad_content", problem);
        return;
      }
      this.planning.observeUncorrected(msg);
    } catch (err) {
      this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  private readonly onGoal = (msg: GeoPoseStamped): void => {
    try {
      this.navigation.setGoal(msg.geo_pose.position);
      this.logger.info(`goal set: ${msg.geo_pose.position.latitude.toFixed(7)}, ${msg.geo_pose.position.longitude.toFixed(7)}, ${msg.geo_pose.position.altitude.toFixed(2)} m`);
    } catch (err) {
      this.health.drop(CONTROLLER_TOPICS.goal, "bad_content", err instanceof Error ? err.message : String(err));
    }
  };

  private readonly onObstacles = (msg: Detection2DArray): void => {
    if (!this.active || this.controller === undefined) return;
    const topic = CONTROLLER_TOPICS.obstacles;
    try {
      const v = this.guards.obstacles.check(msg.header.stamp, this.clock.nowNs());
      if (v.type === "drop") {
        this.health.drop(topic, v.reason, v.detail);
        return;
      }
      this.controller.setDetections(msg.detections, this.imageWidth);
    } catch (err) {
      this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  /** Hover / keep-alive when no policy message came within one period. */
  private readonly onTimer = (): void => {
    if (!this.active) return;
    const nowNs = this.clock.nowNs();
    if (this.lastPublishNs !== undefined && nowNs >= this.lastPublishNs && nowNs - this.lastPublishNs < this.periodNs) return;
    this.publish({ stamp: this.clock.now(), frame_id: this.p.frameId }, nowNs, performance.now());
  };

  private publish(header: { stamp: { sec: number; nanosec: number }; frame_id: string }, nowNs: bigint, t0: number): void {
    if (this.controller === undefined || this.pub === undefined) return;
    const out = this.controller.update(nowNs);
    this.lastMode = out.mode;
    const c = out.cmd;
    this.pub.publish({
      header: { stamp: { sec: header.stamp.sec, nanosec: header.stamp.nanosec }, frame_id: this.p.frameId },
      twist: { linear: { x: c.vx_m_s, y: c.vy_m_s, z: c.vz_m_s }, angular: { x: 0, y: 0, z: c.yawRate_rad_s } },
    });
    this.lastPublishNs = nowNs;
    this.stats.record(nowNs, performance.now() - t0);
  }

  private status(): DiagnosticTaskResult {
    const { node, clock, lastMode } = this;
    const s = this.stats.summary(clock.nowNs());
    const a = this.ages.summary(clock.nowNs());
    return {
      level: node.state === "active" && lastMode === "policy" ? DIAG_OK : DIAG_WARN,
      message: `${node.state}, ${lastMode}`,
      values: [
        { key: "state", value: node.state },
        { key: "mode", value: lastMode },
        { key: "decision", value: this.p.mode },
        { key: "action", value: this.planning?.lastAction ?? "none" },
        ...(this.planning?.keyValues() ?? []),
        { key: "commands", value: String(s.count) },
        { key: "rate_hz", value: s.rate_hz.toFixed(2) },
        { key: "latency_p50_ms", value: s.latencyP50_ms.toFixed(3) },
        { key: "camera_to_command_p50_ms", value: a.latencyP50_ms.toFixed(2) },
        { key: "camera_to_command_p99_ms", value: a.latencyP99_ms.toFixed(2) },
        ...this.health.keyValues(),
      ],
    };
  }
}

export const controllerNode: NodeFactory = async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> => {
  const node = createLaunchedLifecycleNode(graph, options);
  const controller = new ControllerNode(node);
  return wireLifecycle(node, {
    logger: controller.logger,
    configure: () => controller.configure(),
    activate: () => controller.activate(),
    deactivate: () => controller.deactivate(),
    release: () => controller.release(),
  });
};
