import { EmbeddedGraph, QOS_TRANSIENT_LOCAL } from "../../../src/ros/graph";

const SEC = 1_000_000_000n;

describe("sim time", () => {
  it("follows /clock and fires timers as sim time advances in lock-step", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const sim = g.createNode("sim");
    const clockPub = sim.createPublisher("rosgraph_msgs/msg/Clock", "/clock");
    const n = g.createNode("ctl", { parameterOverrides: { use_sim_time: true } });
    expect(n.getClock().isSimTime).toBe(true);
    expect(n.getClock().nowNs()).toBe(0n);
    const fired: bigint[] = [];
    n.createTimer(SEC / 10n, () => fired.push(n.getClock().nowNs()));
    for (let ms = 10; ms <= 350; ms += 10) {
      clockPub.publish({ clock: { sec: 0, nanosec: ms * 1_000_000 } });
      g.spinUntilIdle();
    }
    // Period 100 ms from t=0: due at 100, 200, 300 ms of sim time, nothing else.
    expect(fired).toEqual([100_000_000n, 200_000_000n, 300_000_000n]);
    // A jump of several periods fires once and re-aligns to the period grid (rcl_timer_call).
    clockPub.publish({ clock: { sec: 1, nanosec: 50_000_000 } });
    g.spinUntilIdle();
    expect(fired).toHaveLength(4);
    clockPub.publish({ clock: { sec: 1, nanosec: 100_000_000 } });
    g.spinUntilIdle();
    expect(fired).toHaveLength(5);
  });

  it("switches between wall and sim time through the use_sim_time parameter", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const n = g.createNode("n");
    const wall = n.getClock().nowNs();
    expect(wall).toBeGreaterThan(1_600_000_000n * SEC);
    expect(n.setParameters([{ name: "use_sim_time", type: "bool", value: true }])[0]?.successful).toBe(true);
    expect(n.getClock().nowNs()).toBe(0n);
    g.createNode("sim").createPublisher("rosgraph_msgs/msg/Clock", "/clock").publish({ clock: { sec: 42, nanosec: 5 } });
    g.spinUntilIdle();
    expect(n.getClock().now()).toEqual({ sec: 42, nanosec: 5 });
  });
});

describe("logger", () => {
  it("publishes rcl_interfaces/msg/Log on /rosout at or above the level, and throttles on the node clock", () => {
    const lines: string[] = [];
    const g = new EmbeddedGraph({ stderrLevel: "warn", writeLine: (l) => lines.push(l) });
    const n = g.createNode("talker", { namespace: "/d1", parameterOverrides: { use_sim_time: true } });
    const logs: Array<{ level: number; name: string; msg: string; stamp: { sec: number } }> = [];
    g.createNode("rec").createSubscription<(typeof logs)[number]>("rcl_interfaces/msg/Log", "/rosout", { qos: QOS_TRANSIENT_LOCAL }, (m) =>
      logs.push(m),
    );
    const log = n.getLogger();
    log.debug("hidden");
    log.info("hello");
    log.setLevel("debug");
    log.debug("now visible");
    for (let i = 0; i < 5; i++) log.throttle("warn", "bad-frame", SEC, `bad frame ${i}`);
    g.spinUntilIdle();
    expect(logs.map((l) => [l.level, l.name, l.msg])).toEqual([
      [20, "d1.talker", "hello"],
      [10, "d1.talker", "now visible"],
      [30, "d1.talker", "bad frame 0"],
    ]);
    expect(lines).toEqual(["[WARN] [0.000000000] [d1.talker]: bad frame 0"]);
  });
});

describe("sim time in real-time mode", () => {
  it("fires a sim-time timer when a /clock sample makes it due, without other traffic", async () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const clockPub = g.createNode("sim").createPublisher("rosgraph_msgs/msg/Clock", "/clock");
    const n = g.createNode("ctl", { parameterOverrides: { use_sim_time: true } });
    const fired = new Promise<bigint>((resolve) => n.createTimer(SEC, () => resolve(n.getClock().nowNs())));
    g.spin();
    clockPub.publish({ clock: { sec: 2, nanosec: 0 } });
    expect(await fired).toBe(2n * SEC);
    await g.shutdown();
  });

  it("does not switch to sim time when another on-set callback rejects the change", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const n = g.createNode("n");
    n.addOnSetParametersCallback(() => ({ successful: false, reason: "frozen" }));
    expect(n.setParameters([{ name: "use_sim_time", type: "bool", value: true }])[0]?.reason).toBe("frozen");
    expect(n.getClock().isSimTime).toBe(false);
  });
});

describe("raw subscriptions with a clock", () => {
  it("stamp messages with the given clock at delivery (sim time for a recorder)", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const sim = g.createNode("sim");
    const rec = g.createNode("recorder", { parameterOverrides: { use_sim_time: true } });
    const stamps: bigint[] = [];
    const wallStamps: bigint[] = [];
    g.subscribeRaw("/chatter", (_b, _t, at) => stamps.push(at), { clock: rec.getClock() });
    g.subscribeRaw("/chatter", (_b, _t, at) => wallStamps.push(at));
    const clockPub = sim.createPublisher("rosgraph_msgs/msg/Clock", "/clock");
    const chatter = sim.createPublisher("std_msgs/msg/String", "/chatter");
    clockPub.publish({ clock: { sec: 5, nanosec: 0 } });
    g.spinUntilIdle();
    chatter.publish({ data: "a" });
    g.spinUntilIdle();
    expect(stamps).toEqual([5n * SEC]);
    expect(wallStamps[0]).toBeGreaterThan(1_600_000_000n * SEC);
  });
});
