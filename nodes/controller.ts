/**
 * controller: harness/policy (corrected action logits) + harness/obstacles (corrected detections)
 *   -> cmd_vel_raw (geometry_msgs/TwistStamped, body FLU per REP-103, frame_id base_link).
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
import type { Detection2DArray } from "../src/control/visionTypes";
import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import { QOS_DEFAULT, type Publisher, type RosGraph, type Subscription, type Timer } from "../src/ros/graph/types";
import { declareBool, declareDouble, declareString } from "./common/declareParams";
import { InputHealth } from "./common/InputHealth";
import { DIAG_OK, DIAG_WARN, NodeDiagnostics } from "./common/NodeDiagnostics";
import { RateStats } from "./common/RateStats";
import type { TwistStamped } from "./common/sensorTypes";
import { StampGuard, stampToNs } from "./common/StampGuard";
import { DETECTION_ARRAY_TYPE, STUDENT_OUTPUT_TYPE, TWIST_STAMPED_TYPE, copyHeader, studentOutputProblem, type StudentOutputMsg } from "./common/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/wireLifecycle";

export const CONTROLLER_TOPICS = {
  policy: "harness/policy",
  obstacles: "harness/obstacles",
  cmdVelRaw: "cmd_vel_raw",
} as const;

export const controllerNode: NodeFactory = async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> => {
  const node = createLaunchedLifecycleNode(graph, options);
  const speed = { from: 0, to: 50 };
  const p = {
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
  };
  const controllerOptions: ControllerOptions = {
    limits: { cruiseSpeed_m_s: p.cruise, slowFraction: p.slowFraction, verticalSpeed_m_s: p.vertical, yawRate_rad_s: p.yawRate },
    maxHorizontalSpeed_m_s: p.maxH,
    maxVerticalSpeed_m_s: p.maxV,
    maxYawRate_rad_s: p.maxYaw,
    maxAccel_m_s2: p.maxAccel === 0 ? Number.POSITIVE_INFINITY : p.maxAccel,
    smoothing: p.smoothing,
    inputTimeout_s: p.inputTimeout,
    gate: { enabled: p.gate, score: p.gateScore, corridorFraction: p.gateCorridor, classes: ["wire", "branch"] },
  };
  const logger = node.getLogger();
  const clock = node.getClock();
  const health = new InputHealth(logger);
  const stats = new RateStats();
  // Camera stamp -> command age on the node clock (SPEC "Speed": camera message to published
  // command), for the commands that answer a policy message.
  const ages = new RateStats();
  const guards = { policy: new StampGuard(), obstacles: new StampGuard() };
  const diagnostics = new NodeDiagnostics(node, { hardwareId: "controller" });
  const periodNs = BigInt(Math.round(1e9 / p.rate));
  let controller: Controller | undefined;
  let imageWidth = 0;
  let lastPublishNs: bigint | undefined;
  let active = false;
  let pub: Publisher<TwistStamped> | undefined;
  let timer: Timer | undefined;
  const subs: Subscription[] = [];
  let lastMode = "hover_no_input";

  diagnostics.add("controller", () => {
    const s = stats.summary(clock.nowNs());
    const a = ages.summary(clock.nowNs());
    return {
      level: node.state === "active" && lastMode === "policy" ? DIAG_OK : DIAG_WARN,
      message: `${node.state}, ${lastMode}`,
      values: [
        { key: "state", value: node.state },
        { key: "mode", value: lastMode },
        { key: "commands", value: String(s.count) },
        { key: "rate_hz", value: s.rate_hz.toFixed(2) },
        { key: "latency_p50_ms", value: s.latencyP50_ms.toFixed(3) },
        { key: "camera_to_command_p50_ms", value: a.latencyP50_ms.toFixed(2) },
        { key: "camera_to_command_p99_ms", value: a.latencyP99_ms.toFixed(2) },
        ...health.keyValues(),
      ],
    };
  });

  const publish = (header: { stamp: { sec: number; nanosec: number }; frame_id: string }, nowNs: bigint, t0: number): void => {
    if (controller === undefined || pub === undefined) return;
    const out = controller.update(nowNs);
    lastMode = out.mode;
    const c = out.cmd;
    pub.publish({
      header: { stamp: { sec: header.stamp.sec, nanosec: header.stamp.nanosec }, frame_id: p.frameId },
      twist: { linear: { x: c.vx_m_s, y: c.vy_m_s, z: c.vz_m_s }, angular: { x: 0, y: 0, z: c.yawRate_rad_s } },
    });
    lastPublishNs = nowNs;
    stats.record(nowNs, performance.now() - t0);
  };

  const onPolicy = (msg: StudentOutputMsg): void => {
    if (!active || controller === undefined) return;
    const topic = CONTROLLER_TOPICS.policy;
    try {
      const nowNs = clock.nowNs();
      const problem = studentOutputProblem(msg);
      if (problem !== undefined) {
        health.drop(topic, "bad_content", problem);
        return;
      }
      const v = guards.policy.check(msg.header.stamp, nowNs);
      switch (v.type) {
        case "drop":
          health.drop(topic, v.reason, v.detail);
          return;
        case "jump_back":
          health.timeJump(topic, v.detail);
          controller.reset();
          break;
        case "ok":
          break;
      }
      const t0 = performance.now();
      if (!controller.setLogits(msg.action_logits, nowNs)) health.drop(topic, "non_finite", "action_logits has NaN/Inf: hover");
      imageWidth = msg.image_width;
      publish(copyHeader(msg.header), nowNs, t0);
      ages.record(nowNs, Number(nowNs - stampToNs(msg.header.stamp)) / 1e6);
    } catch (err) {
      health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  const onObstacles = (msg: Detection2DArray): void => {
    if (!active || controller === undefined) return;
    const topic = CONTROLLER_TOPICS.obstacles;
    try {
      const v = guards.obstacles.check(msg.header.stamp, clock.nowNs());
      if (v.type === "drop") {
        health.drop(topic, v.reason, v.detail);
        return;
      }
      controller.setDetections(msg.detections, imageWidth);
    } catch (err) {
      health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  const onTimer = (): void => {
    if (!active) return;
    const nowNs = clock.nowNs();
    if (lastPublishNs !== undefined && nowNs >= lastPublishNs && nowNs - lastPublishNs < periodNs) return;
    publish({ stamp: clock.now(), frame_id: p.frameId }, nowNs, performance.now());
  };

  const release = (): void => {
    active = false;
    timer?.cancel();
    timer = undefined;
    for (const s of subs) node.destroySubscription(s);
    subs.length = 0;
    if (pub !== undefined) node.destroyPublisher(pub);
    pub = undefined;
    diagnostics.stop();
    controller = undefined;
  };

  return wireLifecycle(node, {
    logger,
    configure: () => {
      controller = new Controller(controllerOptions);
      pub = node.createPublisher<TwistStamped>(TWIST_STAMPED_TYPE, CONTROLLER_TOPICS.cmdVelRaw, { qos: QOS_DEFAULT });
      subs.push(
        node.createSubscription<StudentOutputMsg>(STUDENT_OUTPUT_TYPE, CONTROLLER_TOPICS.policy, { qos: QOS_DEFAULT }, onPolicy),
        node.createSubscription<Detection2DArray>(DETECTION_ARRAY_TYPE, CONTROLLER_TOPICS.obstacles, { qos: QOS_DEFAULT }, onObstacles),
      );
      diagnostics.start();
    },
    activate: () => {
      controller?.reset();
      lastPublishNs = undefined;
      active = true;
      timer = node.createTimer(periodNs, onTimer);
    },
    deactivate: () => {
      active = false;
      timer?.cancel();
      timer = undefined;
      for (const g of Object.values(guards)) g.reset();
    },
    release,
  });
};
