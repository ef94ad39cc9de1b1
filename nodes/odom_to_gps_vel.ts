/**
 * odom_to_gps_vel: odom (nav_msgs/Odometry) -> gps/vel (geometry_msgs/TwistStamped, ENU).
 *
 * Under Gazebo, /gps/vel has no sensor source: ros_gz_bridge has no type pair for a NavSat
 * velocity (gz.msgs.NavSat carries velocity_east/north/up, but it bridges only to
 * sensor_msgs/NavSatFix, which has no velocity). The exported drone model therefore carries
 * Gazebo's OdometryPublisher system (3D), bridged as nav_msgs/msg/Odometry, and this node turns
 * its twist, which nav_msgs/Odometry defines in the child (body) frame (REP-105), into the parent
 * frame with the pose orientation: ENU for the exported world (sim/gazebo/odometryToEnu.ts has
 * the frame argument and its sources). A pure conversion: no noise is added.
 *
 * The output header copies the odometry stamp (Gazebo sim time) with frame_id from the
 * `frame_id` parameter (default gps_link, what the embedded sim node writes on gps/vel). QoS:
 * sensor data in and out (SPEC topic contract; a best-effort subscription also matches the
 * bridge's reliable publisher). Lifecycle as the other nodes: subscriptions and publisher in
 * configure, silent until active. Bad messages (NaN, non-unit orientation, absurd speed,
 * duplicate/out-of-order/future stamps) are dropped, counted on /diagnostics and logged once per
 * burst (InputHealth); the callback never throws.
 */
import { performance } from "node:perf_hooks";

import type { LaunchedNode, NodeFactory, NodeFactoryOptions } from "../src/ros/launch/NodeFactory";
import { QOS_SENSOR_DATA, type LifecycleState, type Publisher, type RosGraph, type Subscription } from "../src/ros/graph/types";
import type { Msg } from "../src/ros/msgs/generated";
import { checkOdometry, makeTwist, odometryTwistToEnu, type OdometryLimits } from "../sim/gazebo/odometryToEnu";
import { declareDouble, declareString } from "./common/ros/declareParams";
import { InputHealth } from "./common/ros/InputHealth";
import { DIAG_OK, DIAG_WARN, NodeDiagnostics, type DiagnosticTaskResult } from "./common/ros/NodeDiagnostics";
import { RateStats, type RateSummary } from "./common/ros/RateStats";
import type { TwistStamped } from "./common/sensors/sensorTypes";
import { StampGuard } from "./common/ros/StampGuard";
import { TWIST_STAMPED_TYPE } from "./common/models/studentOutputMsg";
import { createLaunchedLifecycleNode, wireLifecycle } from "./common/ros/wireLifecycle";

export const ODOMETRY_TYPE = "nav_msgs/msg/Odometry";
export type OdometryMsg = Msg<typeof ODOMETRY_TYPE>;

export const ODOM_TO_GPS_VEL_TOPICS = {
  odom: "odom",
  gpsVel: "gps/vel",
} as const;

/** The /diagnostics status: flowing (OK) while active and converting, else WARN. */
function odomToGpsVelStatus(s: { state: LifecycleState; rate: RateSummary; received: number; lastChildFrame: string; frameId: string; health: InputHealth }): DiagnosticTaskResult {
  const flowing = s.state === "active" && s.rate.rate_hz > 0;
  return {
    level: flowing ? DIAG_OK : DIAG_WARN,
    message: `${s.state}, ${flowing ? "converting" : "no odometry"}`,
    values: [
      { key: "state", value: s.state },
      { key: "received", value: String(s.received) },
      { key: "published", value: String(s.rate.count) },
      { key: "rate_hz", value: s.rate.rate_hz.toFixed(2) },
      { key: "latency_p50_ms", value: s.rate.latencyP50_ms.toFixed(3) },
      { key: "odom_child_frame_id", value: s.lastChildFrame },
      { key: "frame_id", value: s.frameId },
      ...s.health.keyValues(),
    ],
  };
}

export const odomToGpsVelNode: NodeFactory = async (graph: RosGraph, options: NodeFactoryOptions): Promise<LaunchedNode> => {
  const node = createLaunchedLifecycleNode(graph, options);
  const p = {
    frameId: declareString(node, "frame_id", "gps_link", "frame_id of gps/vel (the embedded sim node writes gps_link)"),
    maxSpeed: declareDouble(node, "max_speed_m_s", 100, "Odometry with a larger |twist.linear| is dropped as absurd", { from: 0.1, to: 1000 }),
    maxAngular: declareDouble(node, "max_angular_speed_rad_s", 35, "Odometry with a larger |twist.angular| is dropped as absurd", { from: 0.1, to: 1000 }),
  };
  const limits: OdometryLimits = { maxSpeed_m_s: p.maxSpeed, maxAngularSpeed_rad_s: p.maxAngular, quaternionTolerance: 0.01 };
  const logger = node.getLogger();
  const clock = node.getClock();
  const health = new InputHealth(logger);
  const stats = new RateStats();
  const guard = new StampGuard();
  const diagnostics = new NodeDiagnostics(node, { hardwareId: "odom_to_gps_vel" });
  const twist = makeTwist();
  let active = false;
  let received = 0;
  let lastChildFrame = "";
  let pub: Publisher<TwistStamped> | undefined;
  let sub: Subscription | undefined;

  diagnostics.add("odom_to_gps_vel", () =>
    odomToGpsVelStatus({ state: node.state, rate: stats.summary(clock.nowNs()), received, lastChildFrame, frameId: p.frameId, health }),
  );

  const onOdometry = (msg: OdometryMsg): void => {
    if (!active || pub === undefined) return;
    const topic = ODOM_TO_GPS_VEL_TOPICS.odom;
    try {
      received++;
      const nowNs = clock.nowNs();
      if (!health.admit(topic, checkOdometry(msg, limits), () => guard.check(msg.header.stamp, nowNs))) return;
      const t0 = performance.now();
      lastChildFrame = msg.child_frame_id;
      odometryTwistToEnu(msg, twist);
      // A fresh message per publish: in-process subscribers may keep it (nodes/sim.ts does the same).
      pub.publish({
        header: { stamp: { sec: msg.header.stamp.sec, nanosec: msg.header.stamp.nanosec }, frame_id: p.frameId },
        twist: { linear: { x: twist.linear.x, y: twist.linear.y, z: twist.linear.z }, angular: { x: twist.angular.x, y: twist.angular.y, z: twist.angular.z } },
      });
      stats.record(nowNs, performance.now() - t0);
    } catch (err) {
      health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };

  const release = (): void => {
    active = false;
    if (sub !== undefined) node.destroySubscription(sub);
    sub = undefined;
    if (pub !== undefined) node.destroyPublisher(pub);
    pub = undefined;
    diagnostics.stop();
  };

  return wireLifecycle(node, {
    logger,
    configure: () => {
      pub = node.createPublisher<TwistStamped>(TWIST_STAMPED_TYPE, ODOM_TO_GPS_VEL_TOPICS.gpsVel, { qos: QOS_SENSOR_DATA });
      sub = node.createSubscription<OdometryMsg>(ODOMETRY_TYPE, ODOM_TO_GPS_VEL_TOPICS.odom, { qos: QOS_SENSOR_DATA }, onOdometry);
      diagnostics.start();
    },
    activate: () => {
      active = true;
    },
    deactivate: () => {
      active = false;
      guard.reset();
    },
    release,
  });
};
