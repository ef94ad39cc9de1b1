/**
 * safety: the watchdog and the last stage before the vehicle.
 *   in:  camera/image_raw, imu/data, gps/fix (sensor data QoS; liveness of VALID messages),
 *        cmd_vel_raw (the controller's command), harness/correction (max|delta|)
 *   out: cmd_vel (geometry_msgs/TwistStamped, body FLU): the controller's command while every
 *        input is fresh, hover (zero velocity) otherwise; with output:=px4 also
 *        fmu/in/trajectory_setpoint + fmu/in/offboard_control_mode (px4_msgs, NED) at the
 *        timer rate (>= 10 Hz; PX4 leaves offboard below 2 Hz), and the override reason on
 *        /diagnostics (published immediately on every change, and at 1 Hz).
 *
 * Design: controller -> cmd_vel_raw -> safety -> cmd_vel (the twist_mux pattern: one publisher
 * per command topic, the gate last). The safety node keeps holding hover when the controller or
 * the harness crash or are respawned. Timing: the check runs every check_period_s (<= 50 ms) on
 * the node clock (sim time under use_sim_time); with stale_timeout_s = 0.15 hover is commanded
 * within 200 ms of the last message of a stopped input (bound proved in
 * test/control/SafetyWatchdog.test.ts, and flown in test/nodes/safety.test.ts).
 *
 * Frozen camera: a driver that republishes its last buffer with fresh stamps passes the stamp
 * checks, so the pixels are compared too (src/control/FrozenImageDetector.ts, a 64-bit digest of
 * every byte): identical pixels for longer than frozen_image_timeout_s -> hover, reason
 * "camera frozen: identical pixels for X s with advancing stamps"; 0 disables it (a simulated
 * camera without noise renders identical frames while hovering in still air: docs/nodes.md).
 *
 * Every cmd_vel_raw gets an answer on cmd_vel with its stamp: the command itself while the
 * inputs are fresh, hover (zero twist) while they are not, e.g. during start-up until the first
 * gps/fix. So every camera frame's command chain ends in one cmd_vel that carries the frame's
 * stamp; the timer adds hover at check_period_s while tripped, whether or not commands come.
 */
import { FrozenImageDetector } from "../src/control/FrozenImageDetector";
import { type SafetyWatchdog as SafetyWatchdogType, SafetyWatchdog, type WatchdogInput, type WatchdogVerdict } from "../src/control/SafetyWatchdog";
import { trajectorySetpointFromBody, velocityOffboardControlMode, yawFromQuaternion, type OffboardControlMode, type TrajectorySetpoint } from "../src/control/px4";
import type { BodyVelocityCommand } from "../src/harness/actions";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import {
  QOS_DEFAULT,
  QOS_SENSOR_DATA,
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
import { InputHealth } from "./common/ros/InputHealth";
import { IMAGE_ENCODINGS, checkImage, checkImu, checkNavSatFix, checkTwistStamped, type InputCheck } from "./common/sensors/inputValidation";
import { DIAG_ERROR, DIAG_OK, DIAG_WARN, NodeDiagnostics, type DiagnosticTaskResult } from "./common/ros/NodeDiagnostics";
import type { Image, Imu, NavSatFix, TwistStamped } from "./common/sensors/sensorTypes";
import { StampGuard } from "./common/ros/StampGuard";
import { HARNESS_CORRECTION_TYPE, IMAGE_TYPE, IMU_TYPE, NAV_SAT_FIX_TYPE, TWIST_STAMPED_TYPE, type HarnessCorrectionMsg } from "./common/models/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/ros/wireLifecycle";

export const SAFETY_TOPICS = {
  image: "camera/image_raw",
  imu: "imu/data",
  fix: "gps/fix",
  cmdVelRaw: "cmd_vel_raw",
  correction: "harness/correction",
  cmdVel: "cmd_vel",
  trajectorySetpoint: "fmu/in/trajectory_setpoint",
  offboardControlMode: "fmu/in/offboard_control_mode",
} as const;

export type SafetyOutput = "cmd_vel" | "px4" | "mavros" | "ardupilot";
const TRAJECTORY_SETPOINT_TYPE = "px4_msgs/msg/TrajectorySetpoint";
const OFFBOARD_CONTROL_MODE_TYPE = "px4_msgs/msg/OffboardControlMode";
const ALL_ENCODINGS = Object.keys(IMAGE_ENCODINGS);

/** The node's parameters with their defaults, descriptions and ranges. */
function declareSafetyParams(node: RosNode) {
  return {
    staleTimeout: declareDouble(node, "stale_timeout_s", 0.15, "An input older than this (node clock) -> hover", { from: 0.01, to: 10 }),
    period: declareDouble(node, "check_period_s", 0.05, "Watchdog timer period; hover within stale_timeout_s + check_period_s", { from: 0.001, to: 0.1 }),
    runawayDelta: declareDouble(node, "runaway_delta", 0.6, "max|delta| above this, sustained, -> hover (SPEC: > 0.6 = out of control)", { from: 0.01, to: 100 }),
    runawayCount: declareInt(node, "runaway_count", 5, "Consecutive harness updates above runaway_delta that trip the watchdog", { from: 1, to: 1000 }),
    watchCommand: declareBool(node, "watch_command", true, "Also require a fresh cmd_vel_raw (a dead controller -> hover)"),
    watchGps: declareBool(node, "watch_gps", true, "Require a fresh gps/fix"),
    frozenTimeout: declareDouble(
      node,
      "frozen_image_timeout_s",
      0.15,
      "Camera pixels bit-identical for longer than this (node clock), while the stamps advance -> hover; 0 disables (a noise-free simulated camera)",
      { from: 0, to: 10 },
    ),
    output: declareString<SafetyOutput>(node, "output", "cmd_vel", "px4: also PX4 TrajectorySetpoint + OffboardControlMode on fmu/in/*; cmd_vel, mavros, ardupilot: cmd_vel only (remap it for MAVROS / ArduPilot)", ["cmd_vel", "px4", "mavros", "ardupilot"]),
    frameId: declareString(node, "frame_id", "base_link", "frame_id of cmd_vel (body FLU)"),
  };
}
type SafetyParams = ReturnType<typeof declareSafetyParams>;

/** The inputs whose liveness the watchdog requires: camera and IMU always, GPS and the command as configured. */
function watchedInputs(p: SafetyParams): WatchdogInput[] {
  const inputs: WatchdogInput[] = ["camera", "imu"];
  if (p.watchGps) inputs.push("gps");
  if (p.watchCommand) inputs.push("command");
  return inputs;
}

/** The safety node's state and callbacks; configure, activate, deactivate and release are its lifecycle transitions. */
class SafetyNode {
  private readonly p: SafetyParams;
  private readonly inputs: WatchdogInput[];
  readonly logger: Logger;
  private readonly clock: Clock;
  private readonly health: InputHealth;
  private readonly guards = { camera: new StampGuard(), imu: new StampGuard(), gps: new StampGuard(), command: new StampGuard(), correction: new StampGuard() };
  private readonly diagnostics: NodeDiagnostics;
  private readonly periodNs: bigint;
  private watchdog: SafetyWatchdogType | undefined;
  private frozen: FrozenImageDetector | undefined;
  private verdict: WatchdogVerdict = { type: "hover", cause: "never_received", reason: "not active" };
  private overrides = 0;
  private yawEnu: number | undefined;
  private readonly lastCmd: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  private readonly hover: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  private lastOutputNs: bigint | undefined;
  private active = false;
  private pubCmd: Publisher<TwistStamped> | undefined;
  private pubSetpoint: Publisher<TrajectorySetpoint> | undefined;
  private pubMode: Publisher<OffboardControlMode> | undefined;
  private timer: Timer | undefined;
  private readonly subs: Subscription[] = [];

  constructor(private readonly node: LifecycleRosNode) {
    this.p = declareSafetyParams(node);
    this.inputs = watchedInputs(this.p);
    this.logger = node.getLogger();
    this.clock = node.getClock();
    this.health = new InputHealth(this.logger);
    this.diagnostics = new NodeDiagnostics(node, { hardwareId: "safety" });
    this.periodNs = BigInt(Math.round(this.p.period * 1e9));
    this.diagnostics.add("watchdog", () => this.status());
  }

  configure(): void {
    const { node, p, guards } = this;
    this.watchdog = new SafetyWatchdog({ staleTimeout_s: p.staleTimeout, runawayDelta: p.runawayDelta, runawayCount: p.runawayCount, inputs: this.inputs });
    this.frozen = new FrozenImageDetector({ timeout_s: p.frozenTimeout });
    this.pubCmd = node.createPublisher<TwistStamped>(TWIST_STAMPED_TYPE, SAFETY_TOPICS.cmdVel, { qos: QOS_DEFAULT });
    if (p.output === "px4") {
      this.pubSetpoint = node.createPublisher<TrajectorySetpoint>(TRAJECTORY_SETPOINT_TYPE, SAFETY_TOPICS.trajectorySetpoint, { qos: QOS_DEFAULT });
      this.pubMode = node.createPublisher<OffboardControlMode>(OFFBOARD_CONTROL_MODE_TYPE, SAFETY_TOPICS.offboardControlMode, { qos: QOS_DEFAULT });
    }
    const imageCheck = (m: Image): InputCheck => checkImage(m, { width: 0, height: 0, encodings: ALL_ENCODINGS });
    const onImageValid = (m: Image, nowNs: bigint): void => this.frozen?.observe(m.data, m, nowNs);
    const onImuValid = (m: Imu): void => {
      if (m.orientation_covariance[0] !== -1) this.yawEnu = yawFromQuaternion(m.orientation);
    };
    this.subs.push(
      node.createSubscription<Image>(IMAGE_TYPE, SAFETY_TOPICS.image, { qos: QOS_SENSOR_DATA }, this.liveness("camera", SAFETY_TOPICS.image, guards.camera, imageCheck, onImageValid)),
      node.createSubscription<Imu>(IMU_TYPE, SAFETY_TOPICS.imu, { qos: QOS_SENSOR_DATA }, this.liveness("imu", SAFETY_TOPICS.imu, guards.imu, (m: Imu) => checkImu(m), onImuValid)),
      node.createSubscription<TwistStamped>(TWIST_STAMPED_TYPE, SAFETY_TOPICS.cmdVelRaw, { qos: QOS_DEFAULT }, this.onCommand),
      node.createSubscription<HarnessCorrectionMsg>(HARNESS_CORRECTION_TYPE, SAFETY_TOPICS.correction, { qos: QOS_DEFAULT }, this.onCorrection),
    );
    if (p.watchGps) {
      this.subs.push(node.createSubscription<NavSatFix>(NAV_SAT_FIX_TYPE, SAFETY_TOPICS.fix, { qos: QOS_SENSOR_DATA }, this.liveness("gps", SAFETY_TOPICS.fix, guards.gps, checkNavSatFix)));
    }
    this.diagnostics.start();
  }

  activate(): void {
    this.watchdog?.reset();
    this.frozen?.reset();
    this.verdict = { type: "hover", cause: "never_received", reason: "just activated" };
    this.active = true;
    this.timer = this.node.createTimer(this.periodNs, this.onTimer);
  }

  deactivate(): void {
    this.active = false;
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
    for (const pub of [this.pubCmd, this.pubSetpoint, this.pubMode]) if (pub !== undefined) this.node.destroyPublisher(pub);
    this.pubCmd = undefined;
    this.pubSetpoint = undefined;
    this.pubMode = undefined;
    this.diagnostics.stop();
    this.watchdog = undefined;
    this.frozen = undefined;
  }

  /** A watched sensor input: a valid, in-order message refreshes its liveness, then `also` runs. */
  private liveness<T extends { header: { stamp: { sec: number; nanosec: number } } }>(
    input: WatchdogInput,
    topic: string,
    guard: StampGuard,
    check: (m: T) => InputCheck,
    also?: (m: T, nowNs: bigint) => void,
  ): (msg: T) => void {
    return (msg: T): void => {
      const watchdog = this.watchdog;
      if (!this.active || watchdog === undefined) return;
      try {
        const nowNs = this.clock.nowNs();
        if (!this.health.admit(topic, check(msg), () => guard.check(msg.header.stamp, nowNs))) return;
        watchdog.noteReceived(input, nowNs);
        also?.(msg, nowNs);
      } catch (err) {
        this.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
      }
    };
  }

  private readonly onCommand = (msg: TwistStamped): void => {
    const watchdog = this.watchdog;
    if (!this.active || watchdog === undefined) return;
    try {
      const nowNs = this.clock.nowNs();
      if (!this.health.admit(SAFETY_TOPICS.cmdVelRaw, checkTwistStamped(msg), () => this.guards.command.check(msg.header.stamp, nowNs))) return;
      watchdog.noteReceived("command", nowNs);
      const lastCmd = this.lastCmd;
      lastCmd.vx_m_s = msg.twist.linear.x;
      lastCmd.vy_m_s = msg.twist.linear.y;
      lastCmd.vz_m_s = msg.twist.linear.z;
      lastCmd.yawRate_rad_s = msg.twist.angular.z;
      const v = this.evaluate(nowNs);
      this.setVerdict(v);
      // Answer at once with the command's stamp (latency; the frame -> command chain stays
      // traceable): the command itself, or hover while tripped. The timer keeps hover going when
      // no commands come.
      this.emit(v.type === "ok" ? lastCmd : this.hover, msg.header.stamp, nowNs);
    } catch (err) {
      this.health.drop(SAFETY_TOPICS.cmdVelRaw, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  private readonly onCorrection = (msg: HarnessCorrectionMsg): void => {
    const watchdog = this.watchdog;
    if (!this.active || watchdog === undefined) return;
    // The safety gate never dies of input: whatever a message holds is counted and dropped.
    try {
      const nowNs = this.clock.nowNs();
      const v = this.guards.correction.check(msg.header.stamp, nowNs);
      if (v.type === "drop") {
        this.health.drop(SAFETY_TOPICS.correction, v.reason, v.detail);
        return;
      }
      // The watchdog judges what is applied: a correction computed with correction_enabled=false
      // does not move the aircraft.
      watchdog.noteDelta(msg.correction_enabled ? msg.max_abs_delta : 0, nowNs);
    } catch (err) {
      this.health.drop(SAFETY_TOPICS.correction, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  private readonly onTimer = (): void => {
    if (!this.active || this.watchdog === undefined) return;
    const { clock } = this;
    const nowNs = clock.nowNs();
    const v = this.evaluate(nowNs);
    this.setVerdict(v);
    if (v.type === "hover") {
      this.emit(this.hover, clock.now(), nowNs);
    } else if (this.p.output === "px4" && (this.lastOutputNs === undefined || nowNs - this.lastOutputNs >= this.periodNs)) {
      // Keep PX4's offboard stream alive at the timer rate between controller commands.
      this.emit(this.lastCmd, clock.now(), nowNs);
    }
  };

  /** The watchdog's verdict, then the frozen-pixel check (only meaningful while the camera is live). */
  private evaluate(nowNs: bigint): WatchdogVerdict {
    if (this.watchdog === undefined) return this.verdict;
    const v = this.watchdog.evaluate(nowNs);
    if (v.type !== "ok" || this.frozen === undefined) return v;
    const f = this.frozen.evaluate(nowNs);
    return f.type === "ok" ? v : { type: "hover", cause: "frozen_image", input: "camera", reason: f.reason };
  }

  // One log line and one immediate /diagnostics per change of state, cause or input (not per
  // evaluation: the reason's age figure changes every time).
  private setVerdict(v: WatchdogVerdict): void {
    const verdict = this.verdict;
    const changed = v.type !== verdict.type || (v.type === "hover" && verdict.type === "hover" && (v.cause !== verdict.cause || v.input !== verdict.input));
    this.verdict = v;
    if (!changed) return;
    if (v.type === "hover") {
      this.overrides++;
      this.logger.warn(`override: hover (${v.reason})`);
    } else {
      this.logger.info("inputs fresh again: passing commands");
    }
    this.diagnostics.publishNow();
  }

  private emit(cmd: BodyVelocityCommand, stamp: { sec: number; nanosec: number }, nowNs: bigint): void {
    this.pubCmd?.publish({
      header: { stamp: { sec: stamp.sec, nanosec: stamp.nanosec }, frame_id: this.p.frameId },
      twist: { linear: { x: cmd.vx_m_s, y: cmd.vy_m_s, z: cmd.vz_m_s }, angular: { x: 0, y: 0, z: cmd.yawRate_rad_s } },
    });
    if (this.p.output === "px4" && this.pubSetpoint !== undefined && this.pubMode !== undefined) {
      if (this.yawEnu === undefined) {
        this.health.drop(SAFETY_TOPICS.trajectorySetpoint, "bad_content", "no IMU orientation yet: cannot rotate the body command to NED");
      } else {
        this.pubMode.publish(velocityOffboardControlMode(nowNs));
        this.pubSetpoint.publish(trajectorySetpointFromBody(cmd, this.yawEnu, nowNs));
      }
    }
    this.lastOutputNs = nowNs;
  }

  private status(): DiagnosticTaskResult {
    const { node, verdict, clock } = this;
    return {
      // Waiting for an input's first message (start-up) is WARN; a lost input, frozen pixels or a
      // runaway harness are ERROR. Hover is commanded in both cases.
      level: verdict.type === "ok" ? DIAG_OK : verdict.cause === "never_received" ? DIAG_WARN : DIAG_ERROR,
      message: verdict.type === "ok" ? `${node.state}: passing commands` : `${node.state}: HOVER: ${verdict.reason}`,
      values: [
        { key: "state", value: node.state },
        { key: "override", value: String(verdict.type !== "ok") },
        { key: "reason", value: verdict.type === "ok" ? "" : verdict.reason },
        { key: "overrides", value: String(this.overrides) },
        ...this.inputs.map((i) => ({ key: `age_s/${i}`, value: this.watchdog?.ageSeconds(i, clock.nowNs())?.toFixed(3) ?? "never" })),
        { key: "camera_identical_s", value: (this.frozen?.identicalSeconds(clock.nowNs()) ?? 0).toFixed(3) },
        { key: "frozen_image_timeout_s", value: String(this.p.frozenTimeout) },
        ...this.health.keyValues(),
      ],
    };
  }
}

export const safetyNode: NodeFactory = async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> => {
  const node = createLaunchedLifecycleNode(graph, options);
  const safety = new SafetyNode(node);
  return wireLifecycle(node, {
    logger: safety.logger,
    configure: () => safety.configure(),
    activate: () => safety.activate(),
    deactivate: () => safety.deactivate(),
    release: () => safety.release(),
  });
};
