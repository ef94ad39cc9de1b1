import { nodePatternMatches, parametersForNode, parseParameterFile, parseParameterValue, ParameterFileError } from "../../../src/ros/params";

const FILE = `# comment line 1
/**:
  ros__parameters:
    use_sim_time: true
harness:
  ros__parameters:
    lambda0: 0.3
    clip: 5.0e-1
    enabled: yes
    window: 3
    camera_topic: camera/image_raw
    quoted_number: "42"
    limits:
      vx_m_s: 2
      nested:
        deep: off
    weights: [1.0, 2.5]
    ids: [1, 2, 3]
    names: [a, "b"]
    flags: [true, false]
drone1:
  controller:
    ros__parameters:
      max_speed: 1.5
/drone1/*:
  ros__parameters:
    use_sim_time: false
`;

describe("parseParameterFile", () => {
  const parsed = parseParameterFile(FILE, "config/test.yaml");

  it("reads sections with their node patterns and lines", () => {
    expect(parsed.sections.map((s) => [s.pattern, s.line])).toEqual([
      ["/**", 3],
      ["harness", 6],
      ["drone1/controller", 23],
      ["/drone1/*", 26],
    ]);
  });

  it("types values as rcl does and flattens nested keys with dots", () => {
    const h = parsed.sections[1]!.params;
    expect(h.get("lambda0")).toEqual({ type: "double", value: 0.3 });
    expect(h.get("clip")).toEqual({ type: "double", value: 0.5 });
    expect(h.get("enabled")).toEqual({ type: "bool", value: true });
    expect(h.get("window")).toEqual({ type: "integer", value: 3 });
    expect(h.get("camera_topic")).toEqual({ type: "string", value: "camera/image_raw" });
    expect(h.get("quoted_number")).toEqual({ type: "string", value: "42" });
    expect(h.get("limits.vx_m_s")).toEqual({ type: "integer", value: 2 });
    expect(h.get("limits.nested.deep")).toEqual({ type: "bool", value: false });
    expect(h.get("weights")).toEqual({ type: "double_array", value: [1.0, 2.5] });
    expect(h.get("ids")).toEqual({ type: "integer_array", value: [1, 2, 3] });
    expect(h.get("names")).toEqual({ type: "string_array", value: ["a", "b"] });
    expect(h.get("flags")).toEqual({ type: "bool_array", value: [true, false] });
  });

  it("keeps 1.0 a double and 1 an integer", () => {
    const f = parseParameterFile("n:\n  ros__parameters:\n    a: 1.0\n    b: 1\n    c: .inf\n    d: -3e2\n", "x.yaml");
    expect(f.sections[0]!.params.get("a")).toEqual({ type: "double", value: 1 });
    expect(f.sections[0]!.params.get("b")).toEqual({ type: "integer", value: 1 });
    expect(f.sections[0]!.params.get("c")).toEqual({ type: "double", value: Infinity });
    expect(f.sections[0]!.params.get("d")).toEqual({ type: "double", value: -300 });
  });

  it.each([
    ["n:\n  ros__parameters:\n    a: 1\n    m: [1, x]\n", "x.yaml:4: m: mixed array (integer and string); all elements must have one type"],
    ["n:\n  ros__parameters:\n    a: [1, 2.0]\n", "x.yaml:3: a: mixed array (integer and double)"],
    ["n:\n  ros__parameters:\n    a: []\n", "x.yaml:3: a: empty arrays have no type"],
    ["n:\n  ros__parameters:\n    a:\n", "x.yaml:3: a: has no value"],
    ["n:\n  ros__parameters:\n    a: [[1]]\n", "x.yaml:3: a: arrays may only hold scalars"],
    ["n:\n  ros__parameters: 3\n", "x.yaml:2: n: ros__parameters must be a mapping"],
    ["n: 3\n", "x.yaml:1: n: expected \"n: ros__parameters: {...}\""],
    ["n:\n  ros__parameters:\n    a: 1\n    a: 2\n", "x.yaml:4: invalid YAML: Map keys must be unique"],
    ["n:\n  ros__parameters:\n    a: 99999999999999999999\n", "x.yaml:3: a: integer 99999999999999999999 is outside"],
    ["- a\n", "x.yaml:1: expected a mapping"],
  ])("rejects %j with file, line and key", (text, message) => {
    expect(() => parseParameterFile(text, "x.yaml")).toThrow(ParameterFileError);
    expect(() => parseParameterFile(text, "x.yaml")).toThrow(message);
  });

  it("an empty file has no sections", () => {
    expect(parseParameterFile("", "e.yaml").sections).toEqual([]);
  });
});

describe("nodePatternMatches", () => {
  it.each([
    ["/**", "/harness", true],
    ["/**", "/a/b/harness", true],
    ["harness", "/harness", true],
    ["/harness", "/drone1/harness", false],
    ["/drone1/*", "/drone1/harness", true],
    ["/drone1/*", "/drone2/harness", false],
    ["/drone1/*", "/drone1/x/harness", false],
    ["/**/harness", "/a/b/harness", true],
    ["/**/harness", "/harness", true],
    ["/**/harness", "/a/b/controller", false],
    ["drone1/controller", "/drone1/controller", true],
    ["/a.b", "/axb", false],
  ])("%s vs %s -> %s", (pattern, fqn, expected) => {
    expect(nodePatternMatches(pattern, fqn)).toBe(expected);
  });
});

describe("parametersForNode", () => {
  it("applies wildcards first and exact names after, whatever the file order", () => {
    const f = parseParameterFile("/drone1/controller:\n  ros__parameters:\n    a: 1\n/**:\n  ros__parameters:\n    a: 2\n    b: 3\n", "p.yaml");
    const p = parametersForNode(f, "/drone1/controller");
    expect(p.get("a")).toEqual({ type: "integer", value: 1 });
    expect(p.get("b")).toEqual({ type: "integer", value: 3 });
    expect(parametersForNode(f, "/other").get("a")).toEqual({ type: "integer", value: 2 });
  });

  it("gives /drone1/* over /** for nodes in that namespace", () => {
    const parsed = parseParameterFile(FILE, "config/test.yaml");
    expect(parametersForNode(parsed, "/drone1/controller").get("use_sim_time")).toEqual({ type: "bool", value: false });
    expect(parametersForNode(parsed, "/drone1/controller").get("max_speed")).toEqual({ type: "double", value: 1.5 });
    expect(parametersForNode(parsed, "/harness").get("use_sim_time")).toEqual({ type: "bool", value: true });
  });
});

describe("parseParameterValue", () => {
  it.each([
    ["true", { type: "bool", value: true }],
    ["3", { type: "integer", value: 3 }],
    ["3.5", { type: "double", value: 3.5 }],
    ["[1.0, 2.0]", { type: "double_array", value: [1, 2] }],
    ["/camera/image_raw", { type: "string", value: "/camera/image_raw" }],
    ["a: b", { type: "string", value: "a: b" }],
    ["", { type: "string", value: "" }],
  ])("%j", (text, expected) => {
    expect(parseParameterValue("p", text)).toEqual(expected);
  });

  it("rejects a mixed array naming the parameter", () => {
    expect(() => parseParameterValue("weights", "[1, a]")).toThrow('parameter weights: value "[1, a]" is not a valid array: mixed array (integer and string)');
  });
});
