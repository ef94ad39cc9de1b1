import { EmbeddedGraph } from "../../../src/ros/graph";

describe("parameters", () => {
  const graph = (): EmbeddedGraph => new EmbeddedGraph({ stderrLevel: "silent" });

  it("declares use_sim_time on every node and applies overrides at declare time", () => {
    const n = graph().createNode("n", { parameterOverrides: { max_speed: 4.5 } });
    expect(n.getParameter("use_sim_time")).toEqual({ name: "use_sim_time", type: "bool", value: false });
    expect(n.declareParameter("max_speed", 2, { type: "double", range: { from: 0, to: 10 } })).toBe(4.5);
    expect(n.declareParameter("rate_hz", 30, { type: "integer" })).toBe(30);
    expect(() => n.declareParameter("rate_hz", 30, { type: "integer" })).toThrow("parameter 'rate_hz' has already been declared");
  });

  it("rejects overrides that break the descriptor, naming the range", () => {
    const n = graph().createNode("n", { parameterOverrides: { max_speed: 12 } });
    expect(() => n.declareParameter("max_speed", 2, { type: "double", range: { from: 0, to: 10 } })).toThrow(
      "/n: override for parameter 'max_speed'=12 is out of range [0, 10]",
    );
  });

  it("validates type, range, step, choices, read-only and callbacks with reasons", () => {
    const n = graph().createNode("n");
    n.declareParameter("max_speed", 2, { type: "double", range: { from: 0, to: 10, step: 0.5 } });
    n.declareParameter("mode", "auto", { type: "string", choices: ["auto", "manual"] });
    n.declareParameter("model_path", "m.json", { type: "string", readOnly: true });
    n.declareParameter("depth", 3, { type: "integer" });
    n.addOnSetParametersCallback((ps) =>
      ps.some((p) => p.name === "depth" && p.value === 7) ? { successful: false, reason: "depth 7 is unlucky" } : { successful: true, reason: "" },
    );
    const results = n.setParameters([
      { name: "max_speed", type: "double", value: 12 },
      { name: "max_speed", type: "double", value: 2.25 },
      { name: "max_speed", type: "double", value: 2.5 },
      { name: "mode", type: "string", value: "turbo" },
      { name: "model_path", type: "string", value: "x" },
      { name: "depth", type: "integer", value: 1.5 },
      { name: "depth", type: "string", value: "4" },
      { name: "depth", type: "integer", value: 7 },
      { name: "nope", type: "bool", value: true },
    ]);
    expect(results.map((r) => r.reason)).toEqual([
      "parameter 'max_speed'=12 is out of range [0, 10] (step 0.5)",
      "parameter 'max_speed'=2.25 is not on the step grid of [0, 10] (step 0.5)",
      "",
      'parameter \'mode\'="turbo" is not one of [auto, manual]',
      "parameter 'model_path' is read-only",
      "parameter 'depth': expected integer, got non-integer 1.5",
      "parameter 'depth' has type integer, cannot set a string value",
      "depth 7 is unlucky",
      "parameter 'nope' is not declared",
    ]);
    expect(results.map((r) => r.successful)).toEqual([false, false, true, false, false, false, false, false, false]);
    expect(n.getParameter("max_speed").value).toBe(2.5);
    expect(n.getParameter("depth").value).toBe(3);
  });
});

describe("/parameter_events", () => {
  it("publishes rcl_interfaces/msg/ParameterEvent for declarations and accepted changes", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    type Ev = { node: string; new_parameters: Array<{ name: string; value: { type: number; integer_value: bigint } }>; changed_parameters: Array<{ name: string; value: { type: number; double_value: number } }> };
    const events: Ev[] = [];
    g.createNode("watcher").createSubscription<Ev>("rcl_interfaces/msg/ParameterEvent", "/parameter_events", {}, (e) => events.push(e));
    const n = g.createNode("n", { namespace: "/d1" });
    n.declareParameter("depth", 3, { type: "integer" });
    n.declareParameter("gain", 0.3, { type: "double", range: { from: 0, to: 1 } });
    n.setParameters([
      { name: "gain", type: "double", value: 5 },
      { name: "gain", type: "double", value: 0.5 },
    ]);
    g.spinUntilIdle();
    const mine = events.filter((e) => e.node === "/d1/n");
    expect(mine.map((e) => [...e.new_parameters.map((p) => `new ${p.name}`), ...e.changed_parameters.map((p) => `changed ${p.name}`)])).toEqual([
      ["new use_sim_time"],
      ["new depth"],
      ["new gain"],
      ["changed gain"],
    ]);
    expect(mine[1]?.new_parameters[0]?.value).toMatchObject({ type: 2, integer_value: 3n });
    expect(mine[3]?.changed_parameters[0]?.value).toMatchObject({ type: 3, double_value: 0.5 });
  });
});
