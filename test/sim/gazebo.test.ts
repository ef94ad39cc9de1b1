/**
 * The Gazebo export: the SDF world validates against the SDFormat 1.9 description files that
 * Debian's sdformat-sdf package installs (skipped, with a printed reason, when they are absent),
 * it contains the systems, sensors and geometry the issue asks for, and the bridge config maps
 * the contract's topics with type pairs from ros_gz_bridge's documented table.
 */
import { parse as parseYaml } from "yaml";
import { buildWorld, SEGMENTS_PER_SPAN } from "../../sim";
import { exportSdf, exportBridgeYaml, bridgeEntries } from "../../sim/gazebo/exportGazebo";
import { checkBridgePairs } from "../../sim/gazebo/rosGzTypes";
import { validateSdf } from "../../sim/gazebo/validateSdf";
import { findSdfSpecDir, loadSdfSpec } from "../../sim/io/findSdfSpec";
import { SIM_TOPICS } from "../../sim/topics";
import { fastScenario } from "./fixtures";

const world = buildWorld(fastScenario("default", 64), 7);
const sdf = exportSdf(world);
const specDir = findSdfSpecDir("1.9");

describe("SDF export", () => {
  it("contains the world systems, spherical coordinates and the drone's sensors and velocity control", () => {
    for (const plugin of [
      "gz-sim-physics-system",
      "gz-sim-sensors-system",
      "gz-sim-imu-system",
      "gz-sim-navsat-system",
      "gz-sim-scene-broadcaster-system",
      "gz-sim-user-commands-system",
      "gz-sim-velocity-control-system",
    ]) {
      expect(sdf).toContain(`filename="${plugin}"`);
    }
    expect(sdf).toContain("<render_engine>ogre2</render_engine>");
    expect(sdf).toContain('<sdf version="1.9">');
    expect(sdf).toMatch(/<spherical_coordinates>[\s\S]*<surface_model>EARTH_WGS84<\/surface_model>/);
    for (const t of ["camera", "imu", "navsat"]) expect(sdf).toContain(`type="${t}"`);
  });

  it("exports every wire segment as a cylinder of the wire's radius and length", () => {
    const wire = world.objects.find((o) => o.kind === "wire")!;
    expect(wire.segmentCount).toBe(SEGMENTS_PER_SPAN);
    const model = new RegExp(`<model name="wire_${wire.id}">([\\s\\S]*?)</model>`).exec(sdf)?.[1] ?? "";
    const cylinders = [...model.matchAll(/<collision name="c\d+"><pose>([^<]+)<\/pose><geometry><cylinder><radius>([^<]+)<\/radius><length>([^<]+)<\/length>/g)];
    expect(cylinders).toHaveLength(SEGMENTS_PER_SPAN);
    const i = wire.firstSegment;
    const seg = world.segments;
    const len = Math.hypot(seg.b[3 * i]! - seg.a[3 * i]!, seg.b[3 * i + 1]! - seg.a[3 * i + 1]!, seg.b[3 * i + 2]! - seg.a[3 * i + 2]!);
    const [, pose, radius, length] = cylinders[0]!;
    expect(Number(radius)).toBeCloseTo(seg.radius[i]!, 8);
    expect(Number(length)).toBeCloseTo(len, 6);
    // The cylinder's z axis, rotated by rpy (0, pitch, yaw), points along the segment.
    const [, , , , pitch, yaw] = pose!.split(" ").map(Number) as [number, number, number, number, number, number];
    const axis = [Math.sin(pitch) * Math.cos(yaw), Math.sin(pitch) * Math.sin(yaw), Math.cos(pitch)];
    const d = [0, 1, 2].map((k) => (seg.b[3 * i + k]! - seg.a[3 * i + k]!) / len);
    for (let k = 0; k < 3; k++) expect(axis[k]).toBeCloseTo(d[k]!, 6);
  });

  (specDir === undefined ? it.skip : it)("validates against the SDFormat 1.9 description files", () => {
    const spec = loadSdfSpec(specDir!);
    const result = validateSdf(sdf, spec);
    expect(result.errors).toEqual([]);
    // Debian's sdformat12 1.9 folder does not ship navsat.sdf although sensor.sdf includes it.
    expect(result.unchecked.every((u) => u.startsWith("navsat.sdf"))).toBe(true);
  });

  (specDir === undefined ? it.skip : it)("the validator reports misplaced elements, unknown and missing attributes, bad values", () => {
    const spec = loadSdfSpec(specDir!);
    const bad = `<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w">
    <model name="m"><link name="l"><bogus/></link><static>maybe</static></model>
    <model><link name="l" colour="red"/></model>
    <light type="directional" name="sun"/><gravity>0 0</gravity>
  </world>
</sdf>`;
    const r = validateSdf(bad, spec);
    const messages = r.errors.map((e) => `${e.line}: ${e.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^4: <bogus> is not allowed in <link>/),
        expect.stringMatching(/^4: expected true\/false\/0\/1, got "maybe"/),
        expect.stringMatching(/^5: missing required attribute "name"/),
        expect.stringMatching(/^5: unknown attribute "colour"/),
        expect.stringMatching(/^6: expected 3 number\(s\) for type vector3/),
      ]),
    );
  });

  if (specDir === undefined) {
    it("reports why SDF validation is skipped", () => {
      process.stdout.write("SKIP SDF validation: no /usr/share/sdformat*/1.9/root.sdf (apt-get install sdformat-sdf)\n");
      expect(specDir).toBeUndefined();
    });
  }
});

describe("ros_gz_bridge config", () => {
  it("maps the contract's topics with documented type pairs, in the bridge's YAML format", () => {
    const entries = parseYaml(exportBridgeYaml()) as Array<Record<string, string>>;
    expect(entries).toEqual(bridgeEntries());
    expect(checkBridgePairs(bridgeEntries())).toEqual([]);
    for (const e of entries) {
      const contract = SIM_TOPICS.find((t) => t.topic === e.ros_topic_name);
      expect(contract?.type).toBe(e.ros_type_name);
      expect(Object.keys(e).sort()).toEqual(["direction", "gz_topic_name", "gz_type_name", "ros_topic_name", "ros_type_name"]);
    }
    const pairs = Object.fromEntries(entries.map((e) => [e.ros_type_name, e.gz_type_name]));
    expect(pairs).toMatchObject({
      "sensor_msgs/msg/Image": "gz.msgs.Image",
      "sensor_msgs/msg/Imu": "gz.msgs.IMU",
      "sensor_msgs/msg/NavSatFix": "gz.msgs.NavSat",
      "rosgraph_msgs/msg/Clock": "gz.msgs.Clock",
      "geometry_msgs/msg/TwistStamped": "gz.msgs.Twist",
      "sensor_msgs/msg/CameraInfo": "gz.msgs.CameraInfo",
    });
  });

  it("rejects a pair the bridge cannot convert", () => {
    expect(checkBridgePairs([{ ros_topic_name: "/x", gz_topic_name: "/x", ros_type_name: "sensor_msgs/msg/Image", gz_type_name: "gz.msgs.IMU", direction: "GZ_TO_ROS" }])).toEqual([
      "/x: sensor_msgs/msg/Image <-> gz.msgs.IMU is not a documented ros_gz_bridge pair",
    ]);
  });
});
