/**
 * A short lock-step flight for the fault tests: the faulty sim node (sim/faults) and the four real
 * nodes (perception, harness, controller, safety) on one EmbeddedGraph. Models are the
 * deterministic fakes of test/nodes/fixtures.ts (the student prefers "cruise", 4 m/s forward;
 * the harness runs with correction_enabled=false so the command stays cruise), at 64x64 so
 * rendering stays cheap. Records /cmd_vel with the sim time, the largest subscription queue seen
 * after each physics tick (before the executor runs) and the keep_last drop counters.
 */
import { controllerNode } from "../../nodes/controller";
import { createHarnessNode } from "../../nodes/harness";
import { createPerceptionNode } from "../../nodes/perception";
import { safetyNode } from "../../nodes/safety";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import type { Detector } from "../../nodes/common/models/models";
import type { Fault } from "../../sim/faults";
import { createFaultySimNode, type FaultySimLaunchedNode } from "../../nodes/faultySim";
import { EmbeddedGraph } from "../../src/ros/graph";
import { activateIfLifecycle, type LaunchedNode, type NodeFactory } from "../../src/ros/launch/NodeFactory";
import { FakeCorrector, FakeDetector } from "../nodes/fixtures";

export type CmdSample = { tNs: bigint; vx: number; vy: number; vz: number; wz: number };

export type FlightRig = {
  graph: EmbeddedGraph;
  sim: FaultySimLaunchedNode;
  cmd: CmdSample[];
  /** Largest keep_last queue length seen, and the depth it is bounded by, per topic. */
  maxQueue: Map<string, { length: number; depth: number }>;
  /** Advances `seconds` of sim time in lock-step; `each` runs after every tick. */
  fly(seconds: number, each?: (tNs: bigint) => void): void;
  /** keep_last drops per topic (messages discarded because a queue was full). */
  drops(): Map<string, number>;
  nodes: LaunchedNode[];
  shutdown(): Promise<void>;
};

export type FlightOptions = {
  faults?: readonly Fault[];
  seed?: number;
  detector?: () => Detector;
  /** Start no controller (a test launches its own, e.g. through a Launcher). */
  skipController?: boolean;
  controllerParams?: Record<string, number>;
  /** Parameters of the safety node (e.g. frozen_image_timeout_s). */
  safetyParams?: Record<string, number>;
};

export const SEC = 1_000_000_000n;

export async function startFlight(options: FlightOptions = {}): Promise<FlightRig> {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  const nodes: LaunchedNode[] = [];
  const sim = (await createFaultySimNode({ faults: options.faults ?? [] })(graph, {
    name: "sim",
    namespace: "/",
    remappings: {},
    parameterOverrides: { mode: "lockstep", seed: options.seed ?? 1, image_width: 64, image_height: 64, publish_ground_truth: false },
  })) as FaultySimLaunchedNode;
  const common = { use_sim_time: true, expected_width: 64, expected_height: 64 };
  const add = async (f: NodeFactory, name: string, params: Record<string, boolean | number | string> = {}): Promise<void> => {
    const l = await f(graph, { name, namespace: "/", parameterOverrides: { ...common, ...params }, remappings: {} });
    await activateIfLifecycle(l);
    nodes.push(l);
  };
  await add(createPerceptionNode({ createDetector: options.detector ?? (() => new FakeDetector()) }), "perception");
  await add(createHarnessNode({ createCorrector: () => new FakeCorrector() }), "harness", { correction_enabled: false });
  if (options.skipController !== true) await add(controllerNode, "controller", { max_accel_m_s2: 0, mode: "policy", ...options.controllerParams });
  await add(safetyNode, "safety", options.safetyParams);
  const cmd: CmdSample[] = [];
  graph.createNode("rec").createSubscription<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel", { qos: { history: "keep_last", depth: 100, reliability: "reliable", durability: "volatile" } }, (m) =>
    cmd.push({ tNs: sim.controller.timeNs(), vx: m.twist.linear.x, vy: m.twist.linear.y, vz: m.twist.linear.z, wz: m.twist.angular.z }),
  );
  const maxQueue = new Map<string, { length: number; depth: number }>();
  const topics = (): string[] => graph.topicNamesAndTypes().map((t) => t.name);
  const sampleQueues = (): void => {
    for (const topic of topics()) {
      for (const s of graph.bus.subscriptions(topic)) {
        if (s.qos.history !== "keep_last") continue;
        const prev = maxQueue.get(topic);
        if (prev === undefined || s.pending.length > prev.length) maxQueue.set(topic, { length: s.pending.length, depth: s.qos.depth });
      }
    }
  };
  return {
    graph,
    sim,
    cmd,
    maxQueue,
    nodes,
    fly(seconds, each) {
      const n = Math.round(seconds / sim.controller.tick_s);
      for (let i = 0; i < n; i++) {
        sim.controller.tick();
        sampleQueues();
        graph.spinUntilIdle();
        each?.(sim.controller.timeNs());
      }
    },
    drops() {
      const out = new Map<string, number>();
      for (const topic of topics()) for (const s of graph.bus.subscriptions(topic)) out.set(topic, (out.get(topic) ?? 0) + s.dropped);
      return out;
    },
    async shutdown() {
      for (const l of nodes) await l.stop();
      await sim.stop();
      await graph.shutdown();
    },
  };
}

export const isHover = (c: CmdSample): boolean => c.vx === 0 && c.vy === 0 && c.vz === 0 && c.wz === 0;

/** Commands received in [fromNs, toNs). */
export const between = (cmd: readonly CmdSample[], fromNs: bigint, toNs: bigint): CmdSample[] => cmd.filter((c) => c.tNs >= fromNs && c.tNs < toNs);
