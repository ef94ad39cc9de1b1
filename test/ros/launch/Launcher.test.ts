import { EmbeddedGraph } from "../../../src/ros/graph";
import { Launcher, type LaunchEvent } from "../../../src/ros/launch/Launcher";
import type { LaunchPlan, NodeLaunchDescription } from "../../../src/ros/launch/LaunchPlan";
import type { NodeFactory } from "../../../src/ros/launch/NodeFactory";
import { lifecycleNode, listener, talker, type StringMsg } from "./testNodes";

const desc = (exec: string, name: string, extra: Partial<NodeLaunchDescription> = {}): NodeLaunchDescription => ({
  package: "drone_harness",
  executable: exec,
  name,
  namespace: "/",
  fullyQualifiedName: `/${name}`,
  parameters: {},
  remappings: [],
  respawn: false,
  respawnDelaySec: 0,
  output: "screen",
  args: [],
  source: { file: "launch/t.launch.xml", line: 3 },
  ...extra,
});
const plan = (nodes: NodeLaunchDescription[]): LaunchPlan => ({ nodes, skipped: [], arguments: [], warnings: [] });

/** Resolves when `predicate` holds for an event. */
function waitForEvent(events: LaunchEvent[], listeners: Array<() => void>, predicate: (e: LaunchEvent[]) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (predicate(events)) resolve();
      else listeners.push(check);
    };
    check();
  });
}

// One graph per test and the launcher it made (stopped after the test), for every describe below.
let graph: EmbeddedGraph;
let launcher: Launcher | undefined;
const logs: string[] = [];
const events: LaunchEvent[] = [];
const listeners: Array<() => void> = [];
const make = (registry: Record<string, NodeFactory>): Launcher =>
  (launcher = new Launcher({
    graph,
    registry,
    log: (l) => logs.push(l),
    crashCheckIntervalMs: 10,
    onEvent: (e) => {
      events.push(e);
      for (const l of listeners.splice(0)) l();
    },
  }));

beforeEach(() => {
  graph = new EmbeddedGraph({ stderrLevel: "silent" });
  graph.spin();
  logs.length = 0;
  events.length = 0;
});
afterEach(async () => {
  await launcher?.stop();
  await graph.shutdown();
});

describe("Launcher", () => {
  it("starts talker and listener with remaps and parameters; messages flow on the remapped topic", async () => {
    const got: StringMsg[] = [];
    let done: () => void = () => undefined;
    const three = new Promise<void>((r) => (done = r));
    const l = make({
      talker,
      listener: listener((_fqn, m) => {
        got.push(m);
        if (got.length === 3) done();
      }),
    });
    await l.start(
      plan([
        desc("talker", "talker", { namespace: "/ns", fullyQualifiedName: "/ns/talker", parameters: { greeting: { type: "string", value: "Hi" } }, remappings: [{ from: "chatter", to: "/chat" }, { from: "chatter", to: "/ignored" }] }),
        desc("listener", "listener", { remappings: [{ from: "chatter", to: "/chat" }] }),
      ]),
    );
    await three;
    expect(got.slice(0, 3)).toEqual([{ data: "Hi 0" }, { data: "Hi 1" }, { data: "Hi 2" }]);
    expect(l.runningNodes()).toEqual(["/ns/talker", "/listener"]);
    expect(graph.topicNamesAndTypes().map((t) => t.name)).toContain("/chat");
    expect(logs).toContain("[launch] started /ns/talker (drone_harness/talker)");
  });

  it("configures then activates lifecycle nodes", async () => {
    const transitions: string[] = [];
    const l = make({ lc: lifecycleNode(transitions) });
    await l.start(plan([desc("lc", "lc")]));
    expect(transitions).toEqual(["configure", "activate"]);
    expect((l.node("/lc") as { state?: string }).state).toBe("active");
  });

  it("takes lifecycle nodes through shutdown on stop(), but not when a crashed one is respawned", async () => {
    const calls: string[] = [];
    let created = 0;
    const managed: NodeFactory = async (g, o) => {
      created++;
      const generation = created;
      const node = g.createLifecycleNode(o.name, { namespace: o.namespace });
      node.setLifecycleCallbacks({ onShutdown: () => (calls.push(`shutdown ${generation} from ${node.state}`), "success") });
      node.createSubscription<StringMsg>("std_msgs/msg/String", "/chatter", {}, () => {
        if (generation === 1) throw new Error("boom");
      });
      return { node, stop: async () => node.destroy() };
    };
    const l = make({ managed, talker });
    await l.start(plan([desc("managed", "m", { respawn: true, respawnDelaySec: 0 }), desc("talker", "t")]));
    await waitForEvent(events, listeners, (es) => es.filter((e) => e.type === "started" && e.node === "/m").length >= 2);
    expect(calls).toEqual([]); // the crashed generation was stopped without its onShutdown
    await l.stop();
    launcher = undefined;
    expect(calls).toEqual(["shutdown 2 from active"]);
  }, 10000);

  it("refuses a plan with an unregistered executable or duplicate names before starting anything", async () => {
    const l = make({ talker });
    await expect(l.start(plan([desc("talker", "a"), desc("nope", "b")]))).rejects.toThrow(
      'launch/t.launch.xml:3: no drone_harness node executable "nope" in the node registry (known: talker)',
    );
    expect(l.runningNodes()).toEqual([]);
    await expect(make({ talker }).start(plan([desc("talker", "a"), desc("talker", "a")]))).rejects.toThrow("node name /a is already used at launch/t.launch.xml:3");
  });
});

describe("Launcher: respawn after a failed start or a crash", () => {
  it("respawns a node whose factory fails, after respawn_delay", async () => {
    let attempts = 0;
    const flaky: NodeFactory = async (g, o) => {
      attempts++;
      if (attempts === 1) throw new Error("camera not ready");
      return talker(g, o);
    };
    const l = make({ flaky });
    await l.start(plan([desc("flaky", "flaky", { respawn: true, respawnDelaySec: 0.02 })]));
    await waitForEvent(events, listeners, (es) => es.some((e) => e.type === "started"));
    expect(events.map((e) => e.type)).toEqual(["failed", "respawning", "started"]);
    expect(logs.some((x) => x.includes("/flaky (drone_harness/flaky) failed to start: camera not ready"))).toBe(true);
    expect(logs).toContain('[launch] respawning /flaky in 0.02 s (respawn="true")');
    expect(l.runningNodes()).toEqual(["/flaky"]);
  });

  it("stops and recreates a respawn node whose subscription callback throws; a non-respawn failure is only logged", async () => {
    let created = 0;
    const crashing: NodeFactory = async (g, o) => {
      created++;
      const node = g.createNode(o.name, { namespace: o.namespace });
      const generation = created;
      node.createSubscription<StringMsg>("std_msgs/msg/String", "/chatter", {}, () => {
        if (generation === 1) throw new Error("boom");
      });
      return { node, stop: async () => node.destroy() };
    };
    const broken: NodeFactory = async () => {
      throw new Error("no model file");
    };
    const l = make({ crashing, broken, talker });
    await l.start(plan([desc("crashing", "c", { respawn: true, respawnDelaySec: 0 }), desc("broken", "b"), desc("talker", "t")]));
    await waitForEvent(events, listeners, (es) => es.filter((e) => e.type === "started" && e.node === "/c").length >= 2);
    expect(events.filter((e) => e.node === "/c").map((e) => e.type)).toEqual(["started", "crashed", "stopped", "respawning", "started"]);
    expect(created).toBe(2);
    expect(events.filter((e) => e.node === "/b").map((e) => e.type)).toEqual(["failed"]);
    expect(l.runningNodes()).toEqual(["/c", "/t"]);
  }, 10000);

  it("stops and recreates a respawn node whose timer callback throws (the executor blames the timer's node)", async () => {
    let created = 0;
    const ticking: NodeFactory = async (g, o) => {
      created++;
      const node = g.createNode(o.name, { namespace: o.namespace });
      const generation = created;
      const timer = node.createTimer(2_000_000n, () => {
        if (generation === 1) throw new Error("tick failed");
      });
      return { node, stop: async () => (timer.cancel(), node.destroy()) };
    };
    const l = make({ ticking, talker });
    await l.start(plan([desc("ticking", "tk", { respawn: true, respawnDelaySec: 0 }), desc("talker", "t")]));
    await waitForEvent(events, listeners, (es) => es.filter((e) => e.type === "started" && e.node === "/tk").length >= 2);
    expect(events.filter((e) => e.node === "/tk").map((e) => e.type)).toEqual(["started", "crashed", "stopped", "respawning", "started"]);
    expect(events.some((e) => e.node === "/t" && e.type === "crashed")).toBe(false);
    expect(logs.some((x) => /\/tk crashed: \d+ callback error\(s\); stopping it/.test(x))).toBe(true);
    expect(created).toBe(2);
  }, 10000);
});
