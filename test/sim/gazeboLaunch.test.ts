/**
 * launch/gazebo.launch.xml against the export it launches: odom_to_gps_vel listens where the
 * bridge config puts the OdometryPublisher output and publishes the contract's /gps/vel with the
 * sim's frame id; the static transforms to Gazebo's scoped sensor frames equal
 * SCOPED_FRAME_TRANSFORMS, and the camera rotation maps Gazebo's x-forward camera axes onto the
 * optical frame (REP-103: z forward, x right, y down).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { GZ_ODOMETRY_ROS_TOPIC, GZ_SENSOR_FRAMES, SCOPED_FRAME_TRANSFORMS, scopedSensorFrame } from "../../sim/gazebo/exportGazebo";
import { rotateByQuaternion } from "../../sim/gazebo/odometryToEnu";
import type { BridgeEntry } from "../../sim/gazebo/rosGzTypes";
import { SIM_TOPICS } from "../../sim/topics";
import { loadLaunchFile } from "../../src/ros/launch/loadLaunchFile";
import { parseXmlTree, type XmlElement } from "../../src/ros/launch/XmlTree";

const ROOT = join(__dirname, "..", "..");
const FILE = join(ROOT, "launch", "gazebo.launch.xml");
const load = (args: Record<string, string> = {}) => loadLaunchFile(FILE, { packageRoot: ROOT, arguments: args, env: {} });

function elements(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    out.push(...elements(c, name));
  }
  return out;
}

/** Parses static_transform_publisher's flag arguments ("--qx 0.5 ... --frame-id a --child-frame-id b"). */
function staticTransformArgs(args: string): Record<string, string> {
  const parts = args.trim().split(/\s+/);
  const out: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 2) out[parts[i]!.replace(/^--/, "")] = parts[i + 1]!;
  return out;
}

describe("launch/gazebo.launch.xml", () => {
  it("runs odom_to_gps_vel on sim time from the bridged odometry topic to /gps/vel, with the sim's gps/vel frame id", () => {
    const plan = load({ world: "/tmp/w.sdf" });
    const node = plan.nodes.find((n) => n.name === "odom_to_gps_vel")!;
    expect(node.executable).toBe("odom_to_gps_vel");
    expect(node.parameters.use_sim_time).toEqual({ type: "bool", value: true });
    expect(node.parameters.frame_id).toEqual({ type: "string", value: SIM_TOPICS.find((t) => t.topic === "/gps/vel")!.frameId });
    expect(Object.fromEntries(node.remappings.map((r) => [r.from, r.to]))).toEqual({ odom: GZ_ODOMETRY_ROS_TOPIC, "gps/vel": "/gps/vel" });
    // The bridge config the launch file uses publishes exactly that topic as nav_msgs/Odometry.
    const bridge = parseYaml(readFileSync(join(ROOT, "config", "gz_bridge.yaml"), "utf8")) as BridgeEntry[];
    expect(bridge.filter((e) => e.ros_topic_name === GZ_ODOMETRY_ROS_TOPIC)).toEqual([
      { ros_topic_name: GZ_ODOMETRY_ROS_TOPIC, gz_topic_name: "/model/drone/odometry", ros_type_name: "nav_msgs/msg/Odometry", gz_type_name: "gz.msgs.Odometry", direction: "GZ_TO_ROS" },
    ]);
  });

  it("publishes the static transforms of SCOPED_FRAME_TRANSFORMS (our frame -> drone/base_link/<sensor>), and none with sensor_frame_tf:=false", () => {
    const root = parseXmlTree(readFileSync(FILE, "utf8"), "gazebo.launch.xml");
    const tfs = elements(root, "node")
      .filter((n) => n.attributes.get("exec")?.value === "static_transform_publisher")
      .map((n) => staticTransformArgs(n.attributes.get("args")?.value ?? ""));
    expect(tfs).toEqual(
      SCOPED_FRAME_TRANSFORMS.map((t) => ({ qx: String(t.q[0]), qy: String(t.q[1]), qz: String(t.q[2]), qw: String(t.q[3]), "frame-id": t.parent, "child-frame-id": t.child })),
    );
    expect(SCOPED_FRAME_TRANSFORMS.map((t) => [t.parent, t.child])).toEqual([
      [GZ_SENSOR_FRAMES.camera, scopedSensorFrame("camera")],
      [GZ_SENSOR_FRAMES.imu, scopedSensorFrame("imu")],
      [GZ_SENSOR_FRAMES.navsat, scopedSensorFrame("navsat")],
    ]);
    expect(scopedSensorFrame("imu")).toBe("drone/base_link/imu");
    const skippedTf = (args: Record<string, string>) => load(args).skipped.filter((s) => s.what.includes("static_transform_publisher")).length;
    expect(skippedTf({})).toBe(3);
    expect(skippedTf({ sensor_frame_tf: "false" })).toBe(0);
  });

  it("the camera transform maps Gazebo's camera axes (x forward, y left, z up) onto the optical frame's (z, -x, -y)", () => {
    const cam = SCOPED_FRAME_TRANSFORMS[0]!;
    const q = { x: cam.q[0], y: cam.q[1], z: cam.q[2], w: cam.q[3] };
    const axis = (x: number, y: number, z: number) => {
      const r = rotateByQuaternion(q, { x, y, z }, { x: 0, y: 0, z: 0 });
      return [r.x, r.y, r.z].map((c) => Math.round(c * 1e12) / 1e12 + 0);
    };
    expect(axis(1, 0, 0)).toEqual([0, 0, 1]); // forward = optical +z
    expect(axis(0, 1, 0)).toEqual([-1, 0, 0]); // left = optical -x (x is right)
    expect(axis(0, 0, 1)).toEqual([0, -1, 0]); // up = optical -y (y is down)
    for (const t of SCOPED_FRAME_TRANSFORMS.slice(1)) expect(t.q).toEqual([0, 0, 0, 1]);
  });
});
