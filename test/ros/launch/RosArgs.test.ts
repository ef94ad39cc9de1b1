import { parseRosArgs } from "../../../src/ros/launch/RosArgs";
import { nodeOptionsFromRosArgs } from "../../../src/ros/launch/standalone";

describe("parseRosArgs", () => {
  it("parses the arguments ros2 launch passes to a node (launch_ros Node._perform_substitutions)", () => {
    const a = parseRosArgs([
      "extra",
      "--ros-args",
      "-r", "__node:=harness2",
      "-r", "__ns:=/drone1",
      "--params-file", "/tmp/launch_params_x",
      "-r", "camera/image_raw:=/cam0/image",
      "-r", "controller:cmd_vel:=/other",
      "-p", "lambda0:=0.4",
      "--param", "enabled:=false",
      "--log-level", "debug",
      "--enable-rosout-logs",
      "--",
      "tail",
    ]);
    expect(a.nodeName).toBe("harness2");
    expect(a.namespace).toBe("/drone1");
    expect(a.paramsFiles).toEqual(["/tmp/launch_params_x"]);
    expect(a.remappings).toEqual([
      { from: "camera/image_raw", to: "/cam0/image" },
      { node: "controller", from: "cmd_vel", to: "/other" },
    ]);
    expect(a.parameters).toEqual([
      { name: "lambda0", value: { type: "double", value: 0.4 } },
      { name: "enabled", value: { type: "bool", value: false } },
    ]);
    expect(a.logLevels).toEqual([{ level: "debug" }]);
    expect(a.unparsed).toEqual(["extra", "tail"]);
  });

  it.each([
    [["--ros-args", "-x"], '--ros-args: unknown argument "-x"'],
    [["--ros-args", "-r"], "--ros-args: -r needs a value"],
    [["--ros-args", "-r", "a=b"], '-r "a=b": expected [node:]name:=value'],
    [["--ros-args", "-r", "__ns:=relative"], 'namespace "relative" must be absolute'],
    [["--ros-args", "-r", "__node:=bad-name"], 'node name "bad-name" must match'],
    [["--ros-args", "--log-level", "loud"], '--log-level "loud": level must be one of'],
  ])("rejects %j", (argv, message) => {
    expect(() => parseRosArgs(argv)).toThrow(message);
  });

  it("resolves node options: params files in order, then -p, node-prefixed rules only for that node", () => {
    const files: Record<string, string> = {
      "a.yaml": "/**:\n  ros__parameters:\n    x: 1\n    y: 1\n",
      "b.yaml": "/drone1/harness:\n  ros__parameters:\n    y: 2\n    z: 2\n",
    };
    const args = parseRosArgs([
      "--ros-args", "-r", "__ns:=/drone1", "--params-file", "a.yaml", "--params-file", "b.yaml",
      "-p", "z:=3", "-p", "other:z:=9", "-r", "harness:in:=/x", "-r", "other:in:=/y",
    ]);
    const opts = nodeOptionsFromRosArgs(args, { name: "harness" }, (p) => files[p] ?? "");
    expect(opts).toEqual({
      name: "harness",
      namespace: "/drone1",
      parameterOverrides: { x: 1, y: 2, z: 3 },
      remappings: { in: "/x" },
    });
  });
});
