import { EmbeddedGraph } from "../../../src/ros/graph";

describe("lifecycle nodes", () => {
  it("walks the primary states and rejects invalid transitions with the valid ones", async () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const n = g.createLifecycleNode("lc");
    const calls: string[] = [];
    n.setLifecycleCallbacks({
      onConfigure: () => (calls.push("configure"), "success"),
      onActivate: async (): Promise<"success"> => (calls.push("activate"), "success"),
      onDeactivate: () => (calls.push("deactivate"), "success"),
      onCleanup: () => (calls.push("cleanup"), "success"),
      onShutdown: () => (calls.push("shutdown"), "success"),
    });
    expect(n.state).toBe("unconfigured");
    await expect(n.activate()).rejects.toThrow("cannot activate node /lc in state unconfigured: valid transitions are configure, shutdown");
    expect(await n.configure()).toBe("success");
    expect(n.state).toBe("inactive");
    expect(await n.activate()).toBe("success");
    expect(n.state).toBe("active");
    expect(await n.deactivate()).toBe("success");
    expect(await n.cleanup()).toBe("success");
    expect(n.state).toBe("unconfigured");
    expect(await n.shutdown()).toBe("success");
    expect(n.state).toBe("finalized");
    await expect(n.configure()).rejects.toThrow("valid transitions are none (finalized)");
    expect(calls).toEqual(["configure", "activate", "deactivate", "cleanup", "shutdown"]);
  });

  it("stays in the previous state when a callback fails or throws", async () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const n = g.createLifecycleNode("lc");
    n.setLifecycleCallbacks({ onConfigure: () => "failure" });
    expect(await n.configure()).toBe("failure");
    expect(n.state).toBe("unconfigured");
    n.setLifecycleCallbacks({
      onConfigure: () => {
        throw new Error("no model file");
      },
    });
    expect(await n.configure()).toBe("failure");
    expect(n.state).toBe("unconfigured");
  });

  it("keeps lifecycle publishers silent unless active", async () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const n = g.createLifecycleNode("lc");
    const got: string[] = [];
    g.createNode("l").createSubscription<{ data: string }>("std_msgs/msg/String", "/out", {}, (m) => got.push(m.data));
    const p = n.createPublisher<{ data: string }>("std_msgs/msg/String", "/out");
    p.publish({ data: "unconfigured" });
    await n.configure();
    p.publish({ data: "inactive" });
    await n.activate();
    p.publish({ data: "active" });
    await n.deactivate();
    p.publish({ data: "deactivated" });
    g.spinUntilIdle();
    expect(got).toEqual(["active"]);
  });
});
