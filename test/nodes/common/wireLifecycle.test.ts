/**
 * wireLifecycle on the in-memory FakeGraph: the transition order of the managed-node state
 * machine (design.ros2.org/articles/node_lifecycle.html) reaches the node's own work, and a
 * failed configure (sync throw or async rejection) is logged, releases and leaves the node
 * unconfigured, as the four node files did before they shared this helper.
 */
import { wireLifecycle, type LifecycleWork } from "../../../nodes/common/ros/wireLifecycle";
import type { LifecycleCallbacks } from "../../../src/ros/graph/types";
import { FakeGraph } from "../FakeGraph";

function rig(configure: LifecycleWork["configure"], withReset = true) {
  const graph = new FakeGraph();
  const node = graph.createLifecycleNode("wired");
  const events: string[] = [];
  const launched = wireLifecycle(node, {
    logger: node.getLogger(),
    configure,
    activate: () => events.push("activate"),
    deactivate: () => events.push("deactivate"),
    release: () => events.push("release"),
    ...(withReset ? { resetOnCleanup: () => events.push("resetOnCleanup") } : {}),
  });
  return { graph, node, events, launched };
}

describe("wireLifecycle", () => {
  it("runs the node's work per transition; cleanup releases then resets, shutdown and stop release", async () => {
    const { node, events, launched } = rig(() => {
      events.push("configure");
    });
    expect(launched.node).toBe(node);
    expect(await node.configure()).toBe("success");
    expect(await node.activate()).toBe("success");
    expect(await node.deactivate()).toBe("success");
    expect(await node.cleanup()).toBe("success");
    expect(node.state).toBe("unconfigured");
    expect(events).toEqual(["configure", "activate", "deactivate", "release", "resetOnCleanup"]);
    expect(await node.shutdown()).toBe("success");
    await launched.stop();
    expect(events.slice(5)).toEqual(["release", "release"]);
  });

  it("without resetOnCleanup, cleanup only releases", async () => {
    const { node, events } = rig(() => undefined, false);
    await node.configure();
    expect(await node.cleanup()).toBe("success");
    expect(events).toEqual(["release"]);
  });

  it("a synchronous configure returns its result synchronously, an async one a promise", async () => {
    const graph = new FakeGraph();
    const node = graph.createLifecycleNode("wired");
    const seen: LifecycleCallbacks[] = [];
    const forward = node.setLifecycleCallbacks.bind(node);
    node.setLifecycleCallbacks = (cbs: LifecycleCallbacks): void => {
      seen.push(cbs);
      forward(cbs);
    };
    const work = { logger: node.getLogger(), activate: () => undefined, deactivate: () => undefined, release: () => undefined };
    wireLifecycle(node, { ...work, configure: () => undefined });
    wireLifecycle(node, { ...work, configure: async () => undefined });
    expect(seen[0]?.onConfigure?.()).toBe("success");
    const pending = seen[1]?.onConfigure?.();
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toBe("success");
  });

  it.each([
    ["throws", (): void => {
      throw new RangeError("width=0, expected > 0");
    }],
    ["rejects", async (): Promise<void> => {
      await Promise.resolve();
      throw new RangeError("width=0, expected > 0");
    }],
  ])("a configure that %s logs the message, releases and fails the transition", async (_label, configure) => {
    const { graph, node, events } = rig(configure);
    expect(await node.configure()).toBe("failure");
    expect(node.state).toBe("unconfigured");
    expect(events).toEqual(["release"]);
    expect(graph.logs.filter((l) => l.level === "error").map((l) => l.message)).toEqual(["configure failed: width=0, expected > 0"]);
  });

  it("an async configure that resolves succeeds after its work ran", async () => {
    const { node, events } = rig(async () => {
      await Promise.resolve();
      events.push("configure");
    });
    expect(await node.configure()).toBe("success");
    expect(events).toEqual(["configure"]);
  });
});
