import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LaunchFileError } from "../../../src/ros/launch/LaunchFileError";
import { loadLaunchFile } from "../../../src/ros/launch/loadLaunchFile";
import { safeEval } from "../../../src/ros/launch/safeEval";

let root: string;
const write = (rel: string, text: string): string => {
  const p = join(root, rel);
  mkdirSync(join(p, ".."), { recursive: true });
  writeFileSync(p, text);
  return p;
};
const load = (rel: string, args: Record<string, string> = {}, extra: { allowAbsoluteIncludes?: boolean } = {}) =>
  loadLaunchFile(join(root, rel), { packageRoot: root, arguments: args, env: { HOME_X: "/h" }, ...extra });
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LaunchFileError);
    return (err as Error).message;
  }
  throw new Error("expected a LaunchFileError");
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "dh-launch-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("loadLaunchFile", () => {
  it("evaluates args, let, var/env substitutions, params and remaps into a flat plan", () => {
    write("config/p.yaml", "/**:\n  ros__parameters:\n    a: 1\n    b: 1\n/robot/harness:\n  ros__parameters:\n    b: 2\n    c: x\n");
    write(
      "launch/main.launch.xml",
      `<launch>
  <arg name="ns" default="robot" description="namespace"/>
  <arg name="lambda0" default="0.3"/>
  <let name="cam" value="/$(var ns)/camera/image_raw"/>
  <node pkg="drone_harness" exec="harness" namespace="$(var ns)" respawn="true" respawn_delay="1.5" output="screen">
    <param from="$(find-pkg-share drone_harness)/config/p.yaml"/>
    <param name="c" value="override"/>
    <param name="lambda0" value="$(var lambda0)"/>
    <param name="home" value="$(env HOME_X)"/>
    <param name="limits"><param name="vx" value="2"/></param>
    <remap from="camera/image_raw" to="$(var cam)"/>
  </node>
</launch>
`,
    );
    const plan = load("launch/main.launch.xml", { lambda0: "0.4" });
    expect(plan.nodes).toHaveLength(1);
    const n = plan.nodes[0]!;
    expect(n).toMatchObject({
      package: "drone_harness",
      executable: "harness",
      name: "harness",
      namespace: "/robot",
      fullyQualifiedName: "/robot/harness",
      respawn: true,
      respawnDelaySec: 1.5,
      output: "screen",
      remappings: [{ from: "camera/image_raw", to: "/robot/camera/image_raw" }],
      source: { file: "launch/main.launch.xml", line: 5 },
    });
    expect(n.parameters).toEqual({
      a: { type: "integer", value: 1 },
      b: { type: "integer", value: 2 },
      c: { type: "string", value: "override" },
      lambda0: { type: "double", value: 0.4 },
      home: { type: "string", value: "/h" },
      "limits.vx": { type: "integer", value: 2 },
    });
    expect(plan.arguments.map((a) => [a.name, a.value])).toEqual([["ns", "robot"], ["lambda0", "0.4"]]);
    expect(plan.warnings).toEqual([]);
  });

  it("scopes push-ros-namespace, set_remap and let to their group; absolute node namespaces ignore pushes", () => {
    write(
      "launch/g.launch.xml",
      `<launch>
  <group>
    <push-ros-namespace namespace="drone1"/>
    <push_ros_namespace namespace="sub"/>
    <set_remap from="cmd_vel" to="/mavros/setpoint_velocity/cmd_vel"/>
    <let name="x" value="in"/>
    <node pkg="drone_harness" exec="controller"/>
    <node pkg="drone_harness" exec="safety" namespace="/abs"/>
    <node pkg="drone_harness" exec="perception" namespace="rel" name="perc"/>
  </group>
  <node pkg="drone_harness" exec="sim"/>
  <group scoped="false"><push-ros-namespace namespace="/leak"/></group>
  <node pkg="drone_harness" exec="harness"/>
</launch>`,
    );
    const plan = load("launch/g.launch.xml");
    expect(plan.nodes.map((n) => n.fullyQualifiedName)).toEqual(["/drone1/sub/controller", "/abs/safety", "/drone1/sub/rel/perc", "/sim", "/leak/harness"]);
    expect(plan.nodes[0]!.remappings).toEqual([{ from: "cmd_vel", to: "/mavros/setpoint_velocity/cmd_vel" }]);
    expect(plan.nodes[3]!.remappings).toEqual([]);
  });
});

describe("loadLaunchFile: conditions, includes and other packages", () => {
  it("honours if/unless with $(eval) comparisons and rejects non-boolean conditions", () => {
    write(
      "launch/c.launch.xml",
      `<launch>
  <arg name="output" default="px4"/>
  <arg name="harness" default="true"/>
  <node pkg="drone_harness" exec="harness" if="$(var harness)"/>
  <node pkg="drone_harness" exec="controller" name="c_mavros" if="$(eval &quot;'$(var output)' == 'mavros'&quot;)"/>
  <node pkg="drone_harness" exec="controller" name="c_other" unless="$(eval &quot;'$(var output)' == 'mavros' or '$(var output)' == 'ardupilot'&quot;)"/>
</launch>`,
    );
    expect(load("launch/c.launch.xml").nodes.map((n) => n.name)).toEqual(["harness", "c_other"]);
    expect(load("launch/c.launch.xml", { output: "mavros", harness: "false" }).nodes.map((n) => n.name)).toEqual(["c_mavros"]);
    expect(load("launch/c.launch.xml", { output: "ardupilot", harness: "0" }).nodes.map((n) => n.name)).toEqual([]);
    expect(errorOf(() => load("launch/c.launch.xml", { harness: "maybe" }))).toBe(
      'launch/c.launch.xml:4: <node> attribute "if" must be true, false, 1 or 0, got "maybe"',
    );
  });

  it("includes files with args, resolving relative paths against the including file", () => {
    write("launch/inner.launch.xml", `<launch>\n  <arg name="who"/>\n  <node pkg="drone_harness" exec="sim" name="$(var who)"/>\n</launch>`);
    write(
      "launch/outer.launch.xml",
      `<launch>
  <group><push-ros-namespace namespace="ns1"/>
    <include file="inner.launch.xml"><arg name="who" value="a"/></include>
  </group>
  <include file="$(find-pkg-share drone_harness)/launch/inner.launch.xml"><arg name="who" value="b"/></include>
</launch>`,
    );
    expect(load("launch/outer.launch.xml").nodes.map((n) => n.fullyQualifiedName)).toEqual(["/ns1/a", "/b"]);
    write("launch/missing.launch.xml", `<launch>\n  <include file="inner.launch.xml"/>\n</launch>`);
    expect(errorOf(() => load("launch/missing.launch.xml"))).toBe('launch/inner.launch.xml:2: argument "who" is required (no default): pass who:=<value>');
  });

  it("refuses includes that escape the package root unless absolute and allowed", () => {
    const outside = mkdtempSync(join(tmpdir(), "dh-outside-"));
    try {
      writeFileSync(join(outside, "o.launch.xml"), `<launch><node pkg="drone_harness" exec="sim" name="outside"/></launch>`);
      write("launch/esc.launch.xml", `<launch>\n  <include file="../../${outside.split("/").pop()}/o.launch.xml"/>\n</launch>`);
      expect(errorOf(() => load("launch/esc.launch.xml"))).toMatch(/^launch\/esc\.launch\.xml:2: <include> attribute "file": "\.\.\/\.\.\/dh-outside-\w+\/o\.launch\.xml" escapes the package root/);
      write("launch/abs.launch.xml", `<launch>\n  <include file="${outside}/o.launch.xml"/>\n</launch>`);
      expect(errorOf(() => load("launch/abs.launch.xml"))).toMatch(/is outside the package root .* \(pass --allow-absolute-includes to allow it\)$/);
      expect(load("launch/abs.launch.xml", {}, { allowAbsoluteIncludes: true }).nodes.map((n) => n.name)).toEqual(["outside"]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("skips other packages' nodes and includes with a reason", () => {
    write(
      "launch/gz.launch.xml",
      `<launch>
  <include file="$(find-pkg-share ros_gz_sim)/launch/gz_sim.launch.py"><arg name="gz_args" value="w.sdf"/></include>
  <node pkg="ros_gz_bridge" exec="parameter_bridge" name="bridge"><param name="config_file" value="$(find-pkg-share other)/x.yaml"/></node>
  <node pkg="drone_harness" exec="harness"/>
</launch>`,
    );
    const plan = load("launch/gz.launch.xml");
    expect(plan.nodes.map((n) => n.name)).toEqual(["harness"]);
    expect(plan.skipped.map((s) => [s.line, s.what])).toEqual([
      [2, '<include file="$(find-pkg-share ros_gz_sim)/launch/gz_sim.launch.py">'],
      [3, '<node pkg="ros_gz_bridge" exec="parameter_bridge">'],
    ]);
    expect(plan.skipped[1]!.reason).toContain("starts only drone_harness nodes");
  });
});

describe("loadLaunchFile: errors and warnings", () => {
  it.each([
    [`<launch>\n  <node pkg="drone_harness"/>\n</launch>`, 'x.launch.xml:2: <node> attribute "exec" is required'],
    [`<launch>\n  <node pkg="drone_harness"\n        exec="sim" nmae="typo"/>\n</launch>`, 'x.launch.xml:3: <node> has unknown attribute "nmae" (valid: pkg, exec'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" name="$(var nope)"/>\n</launch>`, 'x.launch.xml:2: <node> attribute "name": $(var nope): launch configuration "nope" is not set'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" name="$(eval '__import__(1)')"/>\n</launch>`, 'x.launch.xml:2: <node> attribute "name": $(eval): name "__import__" is not supported'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" name="$(command ls)"/>\n</launch>`, 'x.launch.xml:2: <node> attribute "name": $(command) is not supported'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" name="$(var x"/>\n</launch>`, 'x.launch.xml:2: <node> attribute "name": substitution "$(var" is not closed'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" name="a-b"/>\n</launch>`, 'x.launch.xml:2: <node> attribute "name": "a-b" is not a valid node name'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" respawn_delay="-1"/>\n</launch>`, 'x.launch.xml:2: <node> attribute "respawn_delay" must be a number of seconds >= 0, got "-1"'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim">\n    <param name="w" value="[1, a]"/>\n  </node>\n</launch>`, 'x.launch.xml:3: <param> attribute "value": parameter w: value "[1, a]" is not a valid array: mixed array'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim">\n    <param from="nope.yaml"/>\n  </node>\n</launch>`, 'x.launch.xml:3: <param> attribute "from": cannot read "nope.yaml"'],
    [`<launch>\n  <executable cmd="ls"/>\n</launch>`, "x.launch.xml:2: unsupported element <executable>"],
    [`<launch>\n  <node pkg="drone_harness" exec="sim">\n</launch>`, "x.launch.xml:3: XML syntax error:"],
    [`<lunch/>`, "x.launch.xml:1: root element must be <launch>, found <lunch>"],
    [`<launch>\n  <group><push-ros-namespace namespace="a b"/></group>\n</launch>`, 'x.launch.xml:2: <push-ros-namespace> attribute "namespace": "a b" is not a valid ROS namespace'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" if="true" unless="false"/>\n</launch>`, 'x.launch.xml:2: <node> cannot have both "if" and "unless"'],
    [`<launch>\n  <node pkg="drone_harness" exec="sim" name="$(find-pkg-share gz)"/>\n</launch>`, 'x.launch.xml:2: <node>: $(find-pkg-share gz): package "gz" is not available to the embedded launcher'],
  ])("reports %j as %s", (xml, message) => {
    write("x.launch.xml", xml);
    expect(errorOf(() => load("x.launch.xml"))).toContain(message);
  });

  it("a parameter file error names the YAML file and line too", () => {
    write("config/bad.yaml", "n:\n  ros__parameters:\n    a: [1, 2.5]\n");
    write("x.launch.xml", `<launch>\n  <node pkg="drone_harness" exec="n">\n    <param from="${root}/config/bad.yaml"/>\n  </node>\n</launch>`);
    expect(errorOf(() => load("x.launch.xml"))).toBe('x.launch.xml:3: <param> attribute "from": config/bad.yaml:3: a: mixed array (integer and double); all elements must have one type');
  });

  it("warns about arguments no file declares", () => {
    write("x.launch.xml", `<launch/>`);
    expect(load("x.launch.xml", { sede: "1" }).warnings).toEqual(['argument "sede" is not declared by any <arg> in x.launch.xml or its includes']);
  });
});

describe("safeEval", () => {
  it.each([
    ["'a' == 'a'", "True"],
    ["'a' != 'a'", "False"],
    ["not ('a' == 'b') and True", "True"],
    ["1 < 2", "True"],
    ["'x' or 'y'", "x"],
    ["False or None", "None"],
    ["2.5", "2.5"],
  ])("%s -> %s", (expr, out) => {
    expect(safeEval(expr)).toBe(out);
  });
  it.each([
    ["open('f')", 'name "open" is not supported'],
    ["1 + 1", 'unsupported character "+"'],
    ["'a", "unterminated string"],
    ["(True", 'missing ")"'],
    ["'a' < 1", "cannot order"],
  ])("rejects %s", (expr, message) => {
    expect(() => safeEval(expr)).toThrow(message);
  });
});
