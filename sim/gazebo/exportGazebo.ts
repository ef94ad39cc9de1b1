/**
 * Export of one simulator world to Gazebo (gz sim Harmonic): an SDF 1.9 world and a
 * ros_gz_bridge config that maps Gazebo topics to the ROS topic contract (sim/topics.ts).
 * - Structures: one static model per world object, one cylinder (visual + collision) per
 *   segment, so wires follow the same catenary polyline the embedded simulator renders and
 *   collides with. SDF cylinders lie along their local z axis; a segment with direction d gets
 *   pose rpy = (0, acos(d_z), atan2(d_y, d_x)) at its midpoint (SDF rpy is extrinsic X-Y-Z, i.e.
 *   R = Rz(yaw) Ry(pitch) Rx(roll), sdformat.org "Pose frame semantics").
 * - The drone: one link without gravity (the velocity controller holds it), a collision sphere
 *   of the body radius, a camera (ogre2 via the Sensors system), an IMU and a NavSat sensor, and
 *   gz-sim-velocity-control-system taking body-frame twists on /model/drone/cmd_vel.
 * - /gps/vel: ros_gz_bridge has no type pair that carries a NavSat velocity (gz.msgs.NavSat has
 *   velocity_east/north/up, but bridges only to sensor_msgs/NavSatFix, which has none). The drone
 *   carries gz-sim-odometry-publisher-system instead (3D, at the GPS rate), bridged as
 *   nav_msgs/msg/Odometry; nodes/odom_to_gps_vel.ts rotates its body-frame twist into ENU.
 * - Frame ids: each sensor gets <gz_frame_id> with the embedded sim's frame id
 *   (camera_optical_frame, imu_link, gps_link; sim/topics.ts). gz-sensors reads it in
 *   Sensor::PopulateFromSDF (src/Sensor.cc) and the sensors that publish Sensor::FrameId() use
 *   it; releases whose sensor writes its scoped name instead (the IMU in Harmonic,
 *   gazebosim/gz-sensors#517) keep "drone::base_link::<sensor>", which ros_gz_bridge turns into
 *   "drone/base_link/<sensor>" (convert/utils.cpp frame_id_gz_to_ros). SCOPED_FRAME_TRANSFORMS
 *   lists the static transforms that launch/gazebo.launch.xml publishes from our frames to
 *   those names. <gz_frame_id> is not in the SDFormat 1.9 spec: libsdformat copies it with a
 *   warning (gazebosim/gz-sensors#306), and validateSdf reports it as a tolerated extension.
 * - World systems: Physics, Sensors (render_engine ogre2), Imu, NavSat, SceneBroadcaster,
 *   UserCommands; spherical_coordinates (ENU, WGS84) for NavSat from the scenario's GPS origin.
 * Gazebo does not model our ground texture, sky, wind gusts or per-seed lighting draws; the sun
 * direction is exported.
 */
import type { Scenario } from "../Scenario";
import type { World } from "../World";
import { SIM_TOPICS } from "../topics";
import { checkBridgePairs, type BridgeEntry } from "./rosGzTypes";
import type { SdfExtension } from "./validateSdf";

/** Model name of the drone; the velocity control system listens on /model/<name>/cmd_vel. */
export const GZ_DRONE_MODEL = "drone";

/** Gazebo topic of each bridged ROS topic (the same names as config/gz_bridge.yaml). */
export const GZ_TOPICS = {
  image: "/camera/image_raw",
  cameraInfo: "/camera/camera_info",
  imu: "/imu",
  navsat: "/navsat",
  clock: "/clock",
  cmdVel: `/model/${GZ_DRONE_MODEL}/cmd_vel`,
  /** OdometryPublisher's default topic, /model/<model name>/odometry (OdometryPublisher.cc). */
  odometry: `/model/${GZ_DRONE_MODEL}/odometry`,
} as const;

/**
 * ROS topic of the bridged ground-truth odometry (the input of nodes/odom_to_gps_vel.ts; not
 * part of the SPEC topic contract, so it keeps Gazebo's name).
 */
export const GZ_ODOMETRY_ROS_TOPIC = GZ_TOPICS.odometry;

/** Frames of the OdometryPublisher message: parent = Gazebo world (ENU here), child = body. */
export const GZ_ODOMETRY_FRAMES = { odom: "odom", base: "base_link" } as const;

function contractFrame(topic: string): string {
  const f = SIM_TOPICS.find((t) => t.topic === topic)?.frameId;
  if (f === undefined) throw new Error(`topic ${topic} has no frameId in SIM_TOPICS`);
  return f;
}

/** The drone's sensors: SDF sensor name and the frame id the embedded sim writes for it. */
export const GZ_SENSOR_FRAMES = {
  camera: contractFrame("/camera/image_raw"),
  imu: contractFrame("/imu/data"),
  navsat: contractFrame("/gps/fix"),
} as const;

/**
 * The ROS frame id a sensor gets when Gazebo writes its scoped name: gz-sim names the sensor
 * removeParentScope(scopedName(entity, "::")) = "<model>::<link>::<sensor>" and ros_gz_bridge
 * replaces "::" with "/".
 */
export function scopedSensorFrame(sensor: keyof typeof GZ_SENSOR_FRAMES): string {
  return `${GZ_DRONE_MODEL}/base_link/${sensor}`;
}

export type StaticTransform = {
  parent: string;
  child: string;
  /** Rotation of the child frame in the parent frame (x, y, z, w); translation is zero. */
  q: readonly [number, number, number, number];
};

/**
 * Static transforms from our sensor frames to Gazebo's scoped sensor frames, for releases that
 * ignore <gz_frame_id> (published by launch/gazebo.launch.xml). The IMU and NavSat frames are the
 * body frame (FLU, sensors at the link origin): identity. Gazebo's camera frame looks along +x
 * (x forward, y left, z up, pitched with the camera), the optical frame along +z (x right, y
 * down; REP-103 "Suffix Frames"): the camera frame's axes in optical coordinates are x = +z_opt,
 * y = -x_opt, z = -y_opt, the rotation q = (0.5, -0.5, 0.5, 0.5), the inverse of the usual
 * link -> optical rotation rpy (-pi/2, 0, -pi/2).
 */
export const SCOPED_FRAME_TRANSFORMS: readonly StaticTransform[] = [
  { parent: GZ_SENSOR_FRAMES.camera, child: scopedSensorFrame("camera"), q: [0.5, -0.5, 0.5, 0.5] },
  { parent: GZ_SENSOR_FRAMES.imu, child: scopedSensorFrame("imu"), q: [0, 0, 0, 1] },
  { parent: GZ_SENSOR_FRAMES.navsat, child: scopedSensorFrame("navsat"), q: [0, 0, 0, 1] },
];

/** Elements outside the SDFormat 1.9 spec that the export uses on purpose (see validateSdf). */
export const GZ_SDF_EXTENSIONS: readonly SdfExtension[] = [
  { parent: "sensor", element: "gz_frame_id", source: "gz-sensors src/Sensor.cc PopulateFromSDF; gazebosim/gz-sensors#306" },
];

const f = (v: number): string => (Math.abs(v) < 1e-12 ? "0" : Number(v.toPrecision(9)).toString());
const vec = (...v: number[]): string => v.map(f).join(" ");
const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function material(rgb: readonly [number, number, number]): string {
  const c = vec(rgb[0], rgb[1], rgb[2], 1);
  return `<material><ambient>${c}</ambient><diffuse>${c}</diffuse><specular>0.1 0.1 0.1 1</specular></material>`;
}

function structureModels(world: World): string {
  const seg = world.segments;
  const out: string[] = [];
  for (const o of world.objects) {
    const parts: string[] = [];
    for (let i = o.firstSegment; i < o.firstSegment + o.segmentCount; i++) {
      const ax = seg.a[3 * i]!, ay = seg.a[3 * i + 1]!, az = seg.a[3 * i + 2]!;
      const bx = seg.b[3 * i]!, by = seg.b[3 * i + 1]!, bz = seg.b[3 * i + 2]!;
      const dx = bx - ax, dy = by - ay, dz = bz - az;
      const len = Math.hypot(dx, dy, dz);
      if (len < 1e-6) continue;
      const pitch = Math.acos(Math.max(-1, Math.min(1, dz / len)));
      const yaw = Math.atan2(dy, dx);
      const pose = `<pose>${vec((ax + bx) / 2, (ay + by) / 2, (az + bz) / 2, 0, pitch, yaw)}</pose>`;
      const geom = `<geometry><cylinder><radius>${f(seg.radius[i]!)}</radius><length>${f(len)}</length></cylinder></geometry>`;
      const k = i - o.firstSegment;
      parts.push(
        `        <collision name="c${k}">${pose}${geom}</collision>\n` +
          `        <visual name="v${k}">${pose}${geom}${material(o.albedo)}</visual>`,
      );
    }
    out.push(
      `    <model name="${o.kind}_${o.id}">\n      <static>true</static>\n      <link name="link">\n${parts.join("\n")}\n      </link>\n    </model>`,
    );
  }
  return out.join("\n");
}

function noise(std: number, bias = 0): string {
  return `<noise type="gaussian"><mean>0</mean><stddev>${f(std)}</stddev><bias_mean>0</bias_mean><bias_stddev>${f(bias)}</bias_stddev></noise>`;
}

function droneModel(world: World, s: Scenario): string {
  const st = world.start;
  const c = s.camera;
  const imu = s.imu;
  const gps = s.gps;
  const r = s.drone.bodyRadius_m;
  const axes = (kind: "angular_velocity" | "linear_acceleration", std: number, bias: number): string =>
    `<${kind}><x>${noise(std, bias)}</x><y>${noise(std, bias)}</y><z>${noise(std, bias)}</z></${kind}>`;
  return `    <model name="${GZ_DRONE_MODEL}">
      <pose>${vec(st.x, st.y, st.z, 0, 0, st.yaw_rad)}</pose>
      <link name="base_link">
        <gravity>false</gravity>
        <inertial><mass>1.5</mass><inertia><ixx>0.03</ixx><ixy>0</ixy><ixz>0</ixz><iyy>0.03</iyy><iyz>0</iyz><izz>0.05</izz></inertia></inertial>
        <collision name="body"><geometry><sphere><radius>${f(r)}</radius></sphere></geometry></collision>
        <visual name="body"><geometry><box><size>${vec(2 * r, 2 * r, 0.3 * r)}</size></box></geometry>${material([0.15, 0.15, 0.17])}</visual>
        <sensor name="camera" type="camera">
          <pose>${vec(0, 0, 0, 0, (c.pitch_deg * Math.PI) / 180, 0)}</pose>
          <always_on>true</always_on>
          <update_rate>${f(c.rate_hz)}</update_rate>
          <topic>${GZ_TOPICS.image}</topic>
          <gz_frame_id>${GZ_SENSOR_FRAMES.camera}</gz_frame_id>
          <camera>
            <horizontal_fov>${f((c.hfov_deg * Math.PI) / 180)}</horizontal_fov>
            <image><width>${c.width}</width><height>${c.height}</height><format>R8G8B8</format></image>
            <clip><near>0.05</near><far>3000</far></clip>
            <noise><type>gaussian</type><mean>0</mean><stddev>${f(c.noiseStd / 255)}</stddev></noise>
          </camera>
        </sensor>
        <sensor name="imu" type="imu">
          <always_on>true</always_on>
          <update_rate>${f(imu.rate_hz)}</update_rate>
          <topic>${GZ_TOPICS.imu}</topic>
          <gz_frame_id>${GZ_SENSOR_FRAMES.imu}</gz_frame_id>
          <imu>
            ${axes("angular_velocity", imu.gyroNoiseStd_rad_s, imu.gyroBiasStd_rad_s)}
            ${axes("linear_acceleration", imu.accelNoiseStd_m_s2, imu.accelBiasStd_m_s2)}
          </imu>
        </sensor>
        <sensor name="navsat" type="navsat">
          <always_on>true</always_on>
          <update_rate>${f(gps.rate_hz)}</update_rate>
          <topic>${GZ_TOPICS.navsat}</topic>
          <gz_frame_id>${GZ_SENSOR_FRAMES.navsat}</gz_frame_id>
          <navsat>
            <position_sensing><horizontal>${noise(gps.horizontalStd_m)}</horizontal><vertical>${noise(gps.verticalStd_m)}</vertical></position_sensing>
            <velocity_sensing><horizontal>${noise(gps.velocityStd_m_s)}</horizontal><vertical>${noise(gps.velocityStd_m_s)}</vertical></velocity_sensing>
          </navsat>
        </sensor>
      </link>
      <plugin filename="gz-sim-velocity-control-system" name="gz::sim::systems::VelocityControl">
        <topic>${GZ_TOPICS.cmdVel}</topic>
      </plugin>
      <!-- Ground-truth odometry for /gps/vel (nodes/odom_to_gps_vel.ts), at the GPS rate, no noise:
           pose in the world (ENU) frame, twist in the body frame. -->
      <plugin filename="gz-sim-odometry-publisher-system" name="gz::sim::systems::OdometryPublisher">
        <odom_frame>${GZ_ODOMETRY_FRAMES.odom}</odom_frame>
        <robot_base_frame>${GZ_ODOMETRY_FRAMES.base}</robot_base_frame>
        <dimensions>3</dimensions>
        <odom_publish_frequency>${f(gps.rate_hz)}</odom_publish_frequency>
      </plugin>
    </model>`;
}

/** The SDF 1.9 world text for `world`. */
export function exportSdf(world: World): string {
  const s = world.scenario;
  const sun = world.sky.sunDir;
  const name = `drone_harness_${s.name.replace(/[^A-Za-z0-9_]/g, "_")}_${world.seed}`;
  return `<?xml version="1.0" ?>
<!-- Generated by drone-harness gazebo export: scenario "${esc(s.name)}", seed ${world.seed}${world.perturbed ? ", perturbed" : ""}. -->
<sdf version="1.9">
  <world name="${name}">
    <physics name="4ms" type="ignored">
      <max_step_size>0.004</max_step_size>
      <real_time_factor>1.0</real_time_factor>
    </physics>
    <plugin filename="gz-sim-physics-system" name="gz::sim::systems::Physics"/>
    <plugin filename="gz-sim-sensors-system" name="gz::sim::systems::Sensors">
      <render_engine>ogre2</render_engine>
    </plugin>
    <plugin filename="gz-sim-imu-system" name="gz::sim::systems::Imu"/>
    <plugin filename="gz-sim-navsat-system" name="gz::sim::systems::NavSat"/>
    <plugin filename="gz-sim-scene-broadcaster-system" name="gz::sim::systems::SceneBroadcaster"/>
    <plugin filename="gz-sim-user-commands-system" name="gz::sim::systems::UserCommands"/>
    <gravity>0 0 -9.80665</gravity>
    <spherical_coordinates>
      <surface_model>EARTH_WGS84</surface_model>
      <world_frame_orientation>ENU</world_frame_orientation>
      <latitude_deg>${f(s.gps.originLat_deg)}</latitude_deg>
      <longitude_deg>${f(s.gps.originLon_deg)}</longitude_deg>
      <elevation>${f(s.gps.originAlt_m)}</elevation>
      <heading_deg>0</heading_deg>
    </spherical_coordinates>
    <scene>
      <ambient>0.5 0.5 0.5 1</ambient>
      <background>${vec(world.sky.horizon[0], world.sky.horizon[1], world.sky.horizon[2], 1)}</background>
      <shadows>true</shadows>
    </scene>
    <light type="directional" name="sun">
      <cast_shadows>true</cast_shadows>
      <pose>0 0 100 0 0 0</pose>
      <diffuse>0.9 0.9 0.85 1</diffuse>
      <specular>0.3 0.3 0.3 1</specular>
      <direction>${vec(-sun[0], -sun[1], -sun[2])}</direction>
    </light>
    <model name="ground_plane">
      <static>true</static>
      <link name="link">
        <collision name="collision"><geometry><plane><normal>0 0 1</normal><size>2000 2000</size></plane></geometry></collision>
        <visual name="visual"><geometry><plane><normal>0 0 1</normal><size>2000 2000</size></plane></geometry>${material([0.3, 0.38, 0.2])}</visual>
      </link>
    </model>
${structureModels(world)}
${droneModel(world, s)}
  </world>
</sdf>
`;
}

/** The ros_gz_bridge entries: the contract's topics that Gazebo produces or consumes. */
export function bridgeEntries(): BridgeEntry[] {
  const type = (topic: string): string => {
    const t = SIM_TOPICS.find((x) => x.topic === topic);
    if (t === undefined) throw new Error(`topic ${topic} is not in SIM_TOPICS`);
    return t.type;
  };
  const entries: BridgeEntry[] = [
    { ros_topic_name: "/clock", gz_topic_name: GZ_TOPICS.clock, ros_type_name: type("/clock"), gz_type_name: "gz.msgs.Clock", direction: "GZ_TO_ROS" },
    { ros_topic_name: "/camera/image_raw", gz_topic_name: GZ_TOPICS.image, ros_type_name: type("/camera/image_raw"), gz_type_name: "gz.msgs.Image", direction: "GZ_TO_ROS" },
    { ros_topic_name: "/camera/camera_info", gz_topic_name: GZ_TOPICS.cameraInfo, ros_type_name: type("/camera/camera_info"), gz_type_name: "gz.msgs.CameraInfo", direction: "GZ_TO_ROS" },
    { ros_topic_name: "/imu/data", gz_topic_name: GZ_TOPICS.imu, ros_type_name: type("/imu/data"), gz_type_name: "gz.msgs.IMU", direction: "GZ_TO_ROS" },
    { ros_topic_name: "/gps/fix", gz_topic_name: GZ_TOPICS.navsat, ros_type_name: type("/gps/fix"), gz_type_name: "gz.msgs.NavSat", direction: "GZ_TO_ROS" },
    { ros_topic_name: "/cmd_vel", gz_topic_name: GZ_TOPICS.cmdVel, ros_type_name: type("/cmd_vel"), gz_type_name: "gz.msgs.Twist", direction: "ROS_TO_GZ" },
    // Not a contract topic: the input of odom_to_gps_vel, which publishes /gps/vel.
    { ros_topic_name: GZ_ODOMETRY_ROS_TOPIC, gz_topic_name: GZ_TOPICS.odometry, ros_type_name: "nav_msgs/msg/Odometry", gz_type_name: "gz.msgs.Odometry", direction: "GZ_TO_ROS" },
  ];
  const problems = checkBridgePairs(entries);
  if (problems.length > 0) throw new Error(`bridge config: ${problems.join("; ")}`);
  return entries;
}

/** The bridge config as YAML (a list of mappings, ros_gz_bridge README "Example 5"). */
export function exportBridgeYaml(entries: readonly BridgeEntry[] = bridgeEntries()): string {
  const lines = [
    "# ros_gz_bridge parameter_bridge config (README \"Example 5: Configuring the Bridge via YAML\"),",
    "# generated by drone-harness gazebo export (sim/gazebo/exportGazebo.ts). It is the same for every",
    "# scenario and seed; config/gz_bridge.yaml (used by launch/gazebo.launch.xml) is a copy. Not a ROS",
    "# parameter file (a list, read by the bridge). Gazebo sensors -> the SPEC topic contract, our",
    "# velocity command -> Gazebo. /gps/vel has no bridge pair (gz.msgs.NavSat bridges only to",
    `# NavSatFix): the drone's OdometryPublisher is bridged on ${GZ_ODOMETRY_ROS_TOPIC} and the`,
    "# odom_to_gps_vel node publishes /gps/vel (ENU) from it.",
  ];
  for (const e of entries) {
    lines.push(
      `- ros_topic_name: "${e.ros_topic_name}"`,
      `  gz_topic_name: "${e.gz_topic_name}"`,
      `  ros_type_name: "${e.ros_type_name}"`,
      `  gz_type_name: "${e.gz_type_name}"`,
      `  direction: ${e.direction}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Files of an export: world.sdf and bridge.yaml. */
export function exportGazebo(world: World): Record<string, string> {
  return { "world.sdf": exportSdf(world), "bridge.yaml": exportBridgeYaml() };
}
