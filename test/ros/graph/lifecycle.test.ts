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

describe("lifecycle transition events and graph shutdown", () => {
  type Ev = { timestamp: bigint; transition: { id: number; label: string }; start_state: { id: number; label: string }; goal_state: { id: number; label: string } };
  const short = (e: Ev): string => `${e.start_state.label}(${e.start_state.id}) -${e.transition.label}(${e.transition.id})-> ${e.goal_state.label}(${e.goal_state.id})`;

  it("publishes lifecycle_msgs/msg/TransitionEvent on ~/transition_event for each step, in every state", async () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const n = g.createLifecycleNode("cam", { namespace: "/drone1" });
    const events: Ev[] = [];
    g.createNode("watch").createSubscription<Ev>("lifecycle_msgs/msg/TransitionEvent", "/drone1/cam/transition_event", { qos: { history: "keep_last", depth: 100, reliability: "reliable", durability: "volatile" } }, (e) => events.push(e));
    let fail = true;
    n.setLifecycleCallbacks({ onActivate: () => (fail ? ((fail = false), "failure") : "success") });
    await n.configure();
    await n.activate(); // fails: back to inactive
    await n.activate();
    await n.shutdown(); // from active: TRANSITION_ACTIVE_SHUTDOWN
    g.spinUntilIdle();
    // Ids from lifecycle_msgs State.msg / Transition.msg; labels from rcl_lifecycle's default state machine.
    expect(events.map(short)).toEqual([
      "unconfigured(1) -configure(1)-> configuring(10)",
      "configuring(10) -transition_success(10)-> inactive(2)",
      "inactive(2) -activate(3)-> activating(13)",
      "activating(13) -transition_failure(31)-> inactive(2)",
      "inactive(2) -activate(3)-> activating(13)",
      "activating(13) -transition_success(30)-> active(3)",
      "active(3) -shutdown(7)-> shuttingdown(12)",
      "shuttingdown(12) -transition_success(50)-> finalized(4)",
    ]);
    expect(g.topicInfo("/drone1/cam/transition_event").publishers).toEqual([
      { node: "/drone1/cam", qos: { history: "keep_last", depth: 10, reliability: "reliable", durability: "volatile" } },
    ]);
    expect(events.every((e) => typeof e.timestamp === "bigint" && e.timestamp > 0n)).toBe(true);
    await g.shutdown();
  });

  it("graph.shutdown() runs onShutdown of lifecycle nodes that are not finalized, once", async () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const calls: string[] = [];
    const a = g.createLifecycleNode("a");
    a.setLifecycleCallbacks({ onShutdown: async (): Promise<"success"> => (calls.push("a"), "success") });
    await a.configure();
    await a.activate();
    const b = g.createLifecycleNode("b");
    b.setLifecycleCallbacks({ onShutdown: () => (calls.push("b"), "success") });
    await b.shutdown(); // already finalized: not run again
    const c = g.createLifecycleNode("c");
    c.setLifecycleCallbacks({
      onShutdown: () => {
        calls.push("c");
        throw new Error("driver hung");
      },
    });
    await g.shutdown();
    expect(calls).toEqual(["b", "a", "c"]);
    expect(a.state).toBe("finalized");
    expect(c.state).toBe("unconfigured"); // the failed shutdown leaves it where it was; it is destroyed anyway
    expect(a.isDestroyed && b.isDestroyed && c.isDestroyed).toBe(true);
  });
});

describe("timer callback errors", () => {
  it("are counted on the owning node and logged to /rosout under its name", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const logs: Array<{ name: string; msg: string }> = [];
    g.createNode("rosout_watch").createSubscription<{ name: string; msg: string }>("rcl_interfaces/msg/Log", "/rosout", { qos: { history: "keep_last", depth: 100, reliability: "reliable", durability: "transient_local" } }, (m) => logs.push(m));
    const n = g.createNode("ticker", { namespace: "/ns", parameterOverrides: { use_sim_time: true } });
    const other = g.createNode("other");
    n.createTimer(10_000_000n, () => {
      throw new Error("tick failed");
    });
    g.publishRaw("/clock", "rosgraph_msgs/msg/Clock", g.registry.serialize("rosgraph_msgs/msg/Clock", { clock: { sec: 1, nanosec: 0 } }));
    g.spinUntilIdle();
    g.publishRaw("/clock", "rosgraph_msgs/msg/Clock", g.registry.serialize("rosgraph_msgs/msg/Clock", { clock: { sec: 2, nanosec: 0 } }));
    g.spinUntilIdle();
    expect(n.callbackErrors).toBeGreaterThanOrEqual(1);
    expect(other.callbackErrors).toBe(0);
    expect(g.callbackErrors).toBe(n.callbackErrors);
    const mine = logs.filter((l) => l.name === "ns.ticker");
    expect(mine.length).toBe(n.callbackErrors);
    expect(mine[0]?.msg).toMatch(/^timer callback threw: Error: tick failed/);
  });
});
