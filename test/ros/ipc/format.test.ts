import { defaultRegistry } from "../../../src/ros/msgs";
import { formatParameter, HzStats, messageToYaml } from "../../../src/ros/ipc";

const registry = defaultRegistry();
const yaml = (type: string, msg: unknown, truncateLength?: number) =>
  messageToYaml((t) => registry.definition(t), type, msg, truncateLength === undefined ? {} : { truncateLength });

describe("messageToYaml (ros2 topic echo layout)", () => {
  it("nests messages, keeps floats as floats and quotes what YAML would misread", () => {
    // Expected text written from `ros2 topic echo` output of a geometry_msgs/TwistStamped (Humble).
    const text = yaml("geometry_msgs/msg/TwistStamped", {
      header: { stamp: { sec: 12, nanosec: 500 }, frame_id: "" },
      twist: { linear: { x: 1, y: -0.5, z: NaN }, angular: { x: 0, y: 0, z: Infinity } },
    });
    expect(text).toBe(
      [
        "header:",
        "  stamp:",
        "    sec: 12",
        "    nanosec: 500",
        "  frame_id: ''",
        "twist:",
        "  linear:",
        "    x: 1.0",
        "    y: -0.5",
        "    z: .nan",
        "  angular:",
        "    x: 0.0",
        "    y: 0.0",
        "    z: .inf",
        "",
      ].join("\n"),
    );
  });

  it("prints arrays as '- item' lines, [] when empty, and truncates long ones with '...'", () => {
    const text = yaml("sensor_msgs/msg/Image", {
      header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "camera" },
      height: 1,
      width: 4,
      encoding: "rgb8",
      is_bigendian: 0,
      step: 12,
      data: new Uint8Array([1, 2, 3, 4, 5]),
    }, 4);
    expect(text).toContain("  frame_id: came...\nheight: 1\nwidth: 4\nencoding: rgb8\nis_bigendian: 0\nstep: 12\ndata:\n- 1\n- 2\n- 3\n- 4\n- '...'\n");
    expect(yaml("std_msgs/msg/String", { data: "Hello, world! 0" })).toBe("data: Hello, world! 0\n");
    expect(yaml("std_msgs/msg/String", { data: "30" })).toBe("data: '30'\n");
    expect(yaml("std_msgs/msg/String", { data: "- x" })).toBe("data: '- x'\n");
    expect(yaml("std_msgs/msg/String", { data: "yes" })).toBe("data: 'yes'\n");
    expect(yaml("std_msgs/msg/String", { data: "it's" })).toBe("data: it's\n");
    expect(yaml("std_msgs/msg/String", { data: "'q" })).toBe("data: '''q'\n");
    expect(yaml("diagnostic_msgs/msg/DiagnosticArray", { header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "f" }, status: [] })).toContain("status: []\n");
  });

  it("indents arrays of messages under '- '", () => {
    const text = yaml("diagnostic_msgs/msg/DiagnosticArray", {
      header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "f" },
      status: [{ level: 1, name: "harness", message: "ok", hardware_id: "", values: [{ key: "rate", value: "30" }] }],
    });
    expect(text).toContain("status:\n- level: 1\n  name: harness\n  message: ok\n  hardware_id: ''\n  values:\n  - key: rate\n    value: '30'\n");
  });
});

describe("formatParameter (ros2 param get wording)", () => {
  it.each([
    [{ name: "a", type: "bool" as const, value: true }, "Boolean value is: True"],
    [{ name: "a", type: "integer" as const, value: 3 }, "Integer value is: 3"],
    [{ name: "a", type: "double" as const, value: 2 }, "Double value is: 2.0"],
    [{ name: "a", type: "string" as const, value: "x" }, "String value is: x"],
    [{ name: "a", type: "double_array" as const, value: [1, 2.5] }, "Double values are: array('d', [1.0, 2.5])"],
    [{ name: "a", type: "integer_array" as const, value: [1, 2] }, "Integer values are: array('q', [1, 2])"],
    [{ name: "a", type: "string_array" as const, value: ["rgb8", "bgr8"] }, "String values are: ['rgb8', 'bgr8']"],
    [{ name: "a", type: "bool_array" as const, value: [true, false] }, "Boolean values are: [True, False]"],
  ])("%j", (p, text) => {
    expect(formatParameter(p)).toBe(text);
  });
});

describe("HzStats", () => {
  it("computes rate, min, max and std dev of intervals (hand-computed: intervals 0.1, 0.1, 0.2 s)", () => {
    const s = new HzStats(10);
    for (const t of [0n, 100_000_000n, 200_000_000n, 400_000_000n]) s.add(t);
    const r = s.report()!;
    expect(r.rateHz).toBeCloseTo(1 / (0.4 / 3), 9);
    expect(r.minS).toBeCloseTo(0.1, 12);
    expect(r.maxS).toBeCloseTo(0.2, 12);
    // population std dev of [0.1, 0.1, 0.2]: mean 0.1333, sqrt(((0.0333^2)*2 + 0.0667^2)/3) = 0.04714
    expect(r.stdDevS).toBeCloseTo(0.0471405, 6);
    expect(s.format()).toBe("average rate: 7.500\n\tmin: 0.100s max: 0.200s std dev: 0.04714s window: 4");
  });

  it("keeps only the last `window` messages and needs two to report", () => {
    const s = new HzStats(2);
    expect(s.format()).toBeUndefined();
    s.add(0n);
    s.add(1_000_000_000n);
    s.add(1_500_000_000n);
    expect(s.report()?.window).toBe(2);
    expect(s.report()?.rateHz).toBeCloseTo(2, 9);
    expect(() => new HzStats(1)).toThrow("HzStats window=1, expected an integer >= 2");
  });
});
