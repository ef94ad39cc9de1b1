import { QOS_SENSOR_DATA } from "../../../src/ros/graph";
import { RclnodejsGraph } from "../../../src/ros/rclnodejs/RclnodejsGraph";
import { makeFakeRcl } from "./fakeRclnodejs";

describe("RclnodejsGraph over an in-memory rclnodejs", () => {
  it("passes global remappings to rcl as --ros-args and applies node-local ones itself", async () => {
    const rcl = makeFakeRcl();
    const g = await RclnodejsGraph.create({ rclnodejs: rcl, globalRemappings: { "/cmd_vel": "/ap/cmd_vel" } });
    expect(rcl.initArgv).toEqual(["--ros-args", "-r", "/cmd_vel:=/ap/cmd_vel"]);
    const n = g.createNode("controller", { namespace: "/drone1", remappings: { "~/out": "cmd" } });
    expect(n.fullyQualifiedName).toBe("/drone1/controller");
    n.createPublisher("geometry_msgs/msg/TwistStamped", "~/out", { qos: QOS_SENSOR_DATA });
    const created = rcl.created.find((c) => c.kind === "pub");
    expect(created?.topic).toBe("/drone1/cmd");
    // rmw codes: keep_last 1, best_effort 2, volatile 2 (rclnodejs qos.d.ts).
    expect(created?.options?.qos).toMatchObject({ history: 1, depth: 5, reliabilityCode: 2, durability: 2 });
    expect(rcl.spun).toEqual(["_drone_harness_graph", "controller"]);
    await g.shutdown();
  });

  it("round-trips messages and catches callback errors into the logger", async () => {
    const rcl = makeFakeRcl();
    const g = await RclnodejsGraph.create({ rclnodejs: rcl });
    const n = g.createNode("n");
    const got: unknown[] = [];
    n.createSubscription("std_msgs/msg/String", "chatter", {}, (m) => got.push(m));
    n.createSubscription("std_msgs/msg/String", "chatter", {}, () => {
      throw new Error("boom");
    });
    const pub = n.createPublisher("std_msgs/msg/String", "chatter");
    pub.publish({ data: "hi" });
    expect(got).toEqual([{ data: "hi" }]);
    expect(pub.subscriptionCount()).toBe(2);
    expect(rcl.logs.some((l) => l.level === "error" && l.message.includes("subscription callback on '/chatter' threw: Error: boom"))).toBe(true);
    const t = n.createTimer(100_000_000n, () => undefined);
    expect(rcl.timers[0]?.period).toBe(100_000_000n);
    expect(t.periodNs).toBe(100_000_000n);
  });

  it("declares typed parameters (integers as bigint), applies overrides and enforces descriptors on set", async () => {
    const rcl = makeFakeRcl();
    const g = await RclnodejsGraph.create({ rclnodejs: rcl });
    const n = g.createNode("p", { parameterOverrides: { rate_hz: 20 } });
    expect(n.declareParameter("rate_hz", 30, { type: "integer", range: { from: 1, to: 100 } })).toBe(20);
    expect(n.declareParameter("mode", "auto", { type: "string", choices: ["auto", "manual"] })).toBe("auto");
    expect(n.getParameter("rate_hz")).toEqual({ name: "rate_hz", type: "integer", value: 20 });
    const [bad, ok, choice] = n.setParameters([
      { name: "rate_hz", type: "integer", value: 500 },
      { name: "rate_hz", type: "integer", value: 50 },
      { name: "mode", type: "string", value: "turbo" },
    ]);
    expect(bad).toEqual({ successful: false, reason: "parameter 'rate_hz'=500 is out of range [1, 100]" });
    expect(ok).toEqual({ successful: true, reason: "" });
    expect(choice?.reason).toBe('parameter \'mode\'="turbo" is not one of [auto, manual]');
    expect(n.getParameter("rate_hz").value).toBe(50);
    expect(n.getClock().isSimTime).toBe(false);
  });

  it("drives lifecycle transitions with async callbacks and activates lifecycle publishers", async () => {
    const rcl = makeFakeRcl();
    const g = await RclnodejsGraph.create({ rclnodejs: rcl });
    const n = g.createLifecycleNode("lc");
    const got: unknown[] = [];
    g.createNode("l").createSubscription("std_msgs/msg/String", "/out", {}, (m) => got.push(m));
    const pub = n.createPublisher("std_msgs/msg/String", "/out");
    n.setLifecycleCallbacks({ onConfigure: async (): Promise<"success"> => "success", onActivate: () => "success" });
    expect(await n.configure()).toBe("success");
    pub.publish({ data: "inactive" });
    expect(await n.activate()).toBe("success");
    expect(n.state).toBe("active");
    pub.publish({ data: "active" });
    expect(got).toEqual([{ data: "active" }]);
    n.setLifecycleCallbacks({ onDeactivate: () => "failure" });
    expect(await n.deactivate()).toBe("failure");
    expect(n.state).toBe("active");
  });
});
