/** The package's own launch/*.launch.xml and config/*.yaml evaluate as intended. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadLaunchFile } from "../../../src/ros/launch/loadLaunchFile";
import { parseParameterFile } from "../../../src/ros/params";

const ROOT = join(__dirname, "..", "..", "..");
const load = (file: string, args: Record<string, string> = {}) => loadLaunchFile(join(ROOT, "launch", file), { packageRoot: ROOT, arguments: args, env: {} });
const remapOf = (plan: ReturnType<typeof load>, name: string, from: string) =>
  plan.nodes.find((n) => n.name === name)?.remappings.find((r) => r.from === from)?.to;

describe("launch/sim.launch.xml", () => {
  it("starts sim + the four nodes with sim time, the seed and the harness switch", () => {
    const plan = load("sim.launch.xml", { seed: "7", harness: "false" });
    expect(plan.nodes.map((n) => n.fullyQualifiedName)).toEqual(["/sim", "/perception", "/harness", "/controller", "/safety"]);
    expect(plan.skipped).toEqual([]);
    expect(plan.warnings).toEqual([]);
    const sim = plan.nodes[0]!;
    expect(sim.parameters.seed).toEqual({ type: "integer", value: 7 });
    expect(sim.parameters.scenario).toEqual({ type: "string", value: "default" });
    for (const n of plan.nodes) expect(n.parameters.use_sim_time).toEqual({ type: "bool", value: true });
    expect(plan.nodes[2]!.parameters.correction_enabled).toEqual({ type: "bool", value: false });
    expect(plan.nodes[2]!.parameters.model_dir).toEqual({ type: "string", value: "models" });
    expect(plan.nodes[4]!.respawn).toBe(true);
  });

  it.each([
    ["cmd_vel", "/cmd_vel"],
    ["px4", "/cmd_vel"],
    ["mavros", "/mavros/setpoint_velocity/cmd_vel"],
    ["ardupilot", "/ap/cmd_vel"],
  ])("output:=%s: the safety node (last stage) sends commands to %s, the sim listens there", (output, topic) => {
    const plan = load("sim.launch.xml", { output });
    expect(remapOf(plan, "safety", "cmd_vel")).toBe(topic);
    expect(remapOf(plan, "sim", "cmd_vel")).toBe(topic);
    expect(plan.nodes.find((n) => n.name === "safety")?.parameters.output).toEqual({ type: "string", value: output });
  });
});

describe("launch/drone.launch.xml", () => {
  it("starts everything but the sim, with remappable inputs and a namespace", () => {
    const plan = load("drone.launch.xml", { namespace: "drone1", camera_topic: "/cam/color/image_raw", output: "mavros" });
    expect(plan.nodes.map((n) => n.fullyQualifiedName)).toEqual(["/drone1/perception", "/drone1/harness", "/drone1/controller", "/drone1/safety"]);
    expect(remapOf(plan, "perception", "camera/image_raw")).toBe("/cam/color/image_raw");
    expect(remapOf(plan, "harness", "camera/image_raw")).toBe("/cam/color/image_raw");
    expect(remapOf(plan, "safety", "cmd_vel")).toBe("/mavros/setpoint_velocity/cmd_vel");
    for (const n of plan.nodes) expect(n.parameters.use_sim_time).toEqual({ type: "bool", value: false });
  });

  it("without a namespace the nodes sit at the root", () => {
    expect(load("drone.launch.xml").nodes.map((n) => n.fullyQualifiedName)).toEqual(["/perception", "/harness", "/controller", "/safety"]);
  });
});

describe("launch/gazebo.launch.xml", () => {
  it("skips gz sim, the bridge and tf2_ros (other packages) and starts our nodes on sim time", () => {
    const plan = load("gazebo.launch.xml", { world: "/tmp/w.sdf" });
    // odom_to_gps_vel publishes /gps/vel from the bridged odometry (test/sim/gazeboLaunch.test.ts).
    expect(plan.nodes.map((n) => n.name)).toEqual(["odom_to_gps_vel", "perception", "harness", "controller", "safety"]);
    expect(plan.skipped.map((s) => s.what)).toEqual([
      '<include file="$(find-pkg-share ros_gz_sim)/launch/gz_sim.launch.py">',
      '<node pkg="ros_gz_bridge" exec="parameter_bridge">',
      ...Array<string>(3).fill('<node pkg="tf2_ros" exec="static_transform_publisher">'),
    ]);
    for (const n of plan.nodes) expect(n.parameters.use_sim_time).toEqual({ type: "bool", value: true });
  });
});

describe("every launch file", () => {
  it.each(readdirSync(join(ROOT, "launch")).filter((f) => f.endsWith(".launch.xml")))("%s only names executables the node registry has", (f) => {
    const registry = readFileSync(join(ROOT, "nodes", "index.ts"), "utf8");
    for (const n of load(f).nodes) expect({ exec: n.executable, registered: new RegExp(`^\\s*${n.executable}:`, "m").test(registry) }).toEqual({ exec: n.executable, registered: true });
  });
});

describe("config/*.yaml", () => {
  // Every key of config/<node>.yaml must be declared by nodes/<node>.ts (a key no node declares
  // would be silently ignored, as ROS 2 ignores overrides of undeclared parameters).
  it.each(["sim", "perception", "harness", "controller", "safety"])("config/%s.yaml only sets parameters nodes/%s.ts (or a nodes/common module it imports) declares", (node) => {
    // The node file and the nodes/common modules it imports (shared declarations such as the
    // SensorState parameters live in nodes/common/sensors/SensorInputs.ts).
    const own = readFileSync(join(ROOT, "nodes", `${node}.ts`), "utf8");
    const shared = [...own.matchAll(/from "\.\/common\/([\w/]+)"/g)].map((m) => readFileSync(join(ROOT, "nodes", "common", `${m[1]!}.ts`), "utf8"));
    const source = [own, ...shared].join("\n");
    const parsed = parseParameterFile(readFileSync(join(ROOT, "config", `${node}.yaml`), "utf8"), `config/${node}.yaml`);
    const undeclared = [...parsed.sections[0]!.params.keys()].filter((k) => !new RegExp(`declare\\w*(?:<[^>]*>)?\\(\\s*node,\\s*"${k}"`).test(source));
    expect(undeclared).toEqual([]);
  });

  const files = readdirSync(join(ROOT, "config")).filter((f) => f.endsWith(".yaml") && f !== "gz_bridge.yaml");
  it.each(files)("%s is a valid ROS 2 parameter file with a /** section", (f) => {
    const parsed = parseParameterFile(readFileSync(join(ROOT, "config", f), "utf8"), `config/${f}`);
    expect(parsed.sections.map((s) => s.pattern)).toEqual(["/**"]);
    expect(parsed.sections[0]!.params.size).toBeGreaterThan(0);
  });
});
