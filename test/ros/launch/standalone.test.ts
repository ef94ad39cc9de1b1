import { EmbeddedGraph } from "../../../src/ros/graph";
import { runNodeStandalone } from "../../../src/ros/launch/standalone";
import { lifecycleNode, listener } from "./testNodes";

describe("runNodeStandalone", () => {
  it("runs one node from --ros-args (name, namespace, remap, -p), activates it, then stops node and graph", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    graph.spin();
    const transitions: string[] = [];
    let stop: () => void = () => undefined;
    const lines: string[] = [];
    let seen: { fqn: string; data: string } | undefined;
    let run: Promise<number> = Promise.resolve(-1);
    const started = new Promise<void>((resolve) => {
      const factory = lifecycleNode(transitions);
      const wrapped: typeof factory = async (g, o) => {
        const launched = await factory(g, o);
        // A listener on the remapped topic proves the remapping reached the node options.
        await listener((fqn, m) => (seen = { fqn, data: m.data }))(g, { ...o, name: `${o.name}_listener` });
        expect(o).toEqual({ name: "renamed", namespace: "/d1", parameterOverrides: { rate: 5 }, remappings: { chatter: "/talk" } });
        resolve();
        return launched;
      };
      run = runNodeStandalone(wrapped, ["--ros-args", "-r", "__node:=renamed", "-r", "__ns:=/d1", "-r", "chatter:=/talk", "-p", "rate:=5"], {
        createGraph: () => graph,
        defaultName: "lc",
        untilShutdown: new Promise<void>((r) => (stop = r)),
        log: (l) => lines.push(l),
      });
    });
    await started;
    const delivered = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (seen !== undefined) {
          clearInterval(check);
          resolve();
        }
      }, 1);
    });
    graph.publishRaw("/talk", "std_msgs/msg/String", graph.registry.serialize("std_msgs/msg/String", { data: "x" }));
    await delivered;
    expect(seen).toEqual({ fqn: "/d1/renamed_listener", data: "x" });
    expect(transitions).toEqual(["configure", "activate"]);
    expect(lines).toContain("[INFO] [/d1/renamed]: running (Ctrl-C to stop)");
    stop();
    expect(await run).toBe(0);
    expect(graph.nodeNames()).toEqual([]);
  });

  it("returns 1 and logs FATAL when the factory fails", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const lines: string[] = [];
    const code = await runNodeStandalone(
      async () => {
        throw new Error("model file missing");
      },
      [],
      { createGraph: () => graph, defaultName: "perception", untilShutdown: Promise.resolve(), log: (l) => lines.push(l) },
    );
    expect(code).toBe(1);
    expect(lines).toEqual(["[FATAL] [/perception]: model file missing"]);
  });
});

describe("runNodeStandalone --log-level", () => {
  it("applies a global level and a level for this node's name, ignoring other nodes' levels", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const levels: string[] = [];
    const code = await runNodeStandalone(
      async (g, o) => {
        const node = g.createNode(o.name);
        const logger = node.getLogger();
        const setLevel = logger.setLevel.bind(logger);
        logger.setLevel = (level) => {
          levels.push(level);
          setLevel(level);
        };
        const wrapped = Object.create(node, { getLogger: { value: () => logger } }) as typeof node;
        return { node: wrapped, stop: async () => node.destroy() };
      },
      ["--ros-args", "--log-level", "warn", "--log-level", "other:=error", "--log-level", "perception:=debug"],
      { createGraph: () => graph, defaultName: "perception", untilShutdown: Promise.resolve(), log: () => undefined },
    );
    expect(code).toBe(0);
    expect(levels).toEqual(["warn", "debug"]);
  });
});
