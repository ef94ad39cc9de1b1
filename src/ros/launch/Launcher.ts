import type { RosGraph, RosNode } from "../graph/types";
import { toOverrides } from "../params";
import type { LaunchPlan, NodeLaunchDescription } from "./LaunchPlan";
import { activateIfLifecycle, isLifecycleNode, type LaunchedNode, type NodeFactoryOptions, type NodeRegistry } from "./NodeFactory";

/** What happened to a launched node (for logs and tests, which wait on these instead of sleeping). */
export type LaunchEvent =
  | { type: "started"; node: string }
  | { type: "failed"; node: string; error: string }
  | { type: "crashed"; node: string; reason: string }
  | { type: "respawning"; node: string; delaySec: number }
  | { type: "stopped"; node: string };

export type LauncherOptions = {
  graph: RosGraph;
  /** exec name -> factory (nodes/index.ts). */
  registry: NodeRegistry;
  log?: (line: string) => void;
  onEvent?: (event: LaunchEvent) => void;
  /** How often respawnable nodes are checked for callback crashes (ms, default 100). */
  crashCheckIntervalMs?: number;
};

type Entry = {
  description: NodeLaunchDescription;
  launched: LaunchedNode | undefined;
  /** Callback errors counted by the node when it was started (crash = the count grew). */
  errorsAtStart: number;
  respawnTimer: NodeJS.Timeout | undefined;
  /** Start attempts, including respawns. */
  starts: number;
};

/** A node's callback error count, when the graph implementation keeps one (EmbeddedNode does). */
function callbackErrorsOf(node: RosNode): number {
  const n = (node as { callbackErrors?: unknown }).callbackErrors;
  return typeof n === "number" ? n : 0;
}

/** Factory options from a launch description; the first remap rule for a name wins, as in rcl. */
export function factoryOptions(d: NodeLaunchDescription): NodeFactoryOptions {
  const remappings: Record<string, string> = {};
  for (const r of d.remappings) if (!(r.from in remappings)) remappings[r.from] = r.to;
  return { name: d.name, namespace: d.namespace, parameterOverrides: toOverrides(new Map(Object.entries(d.parameters))), remappings };
}

/**
 * Starts the drone_harness nodes of a LaunchPlan in this process on one graph (the embedded
 * launcher). Lifecycle nodes are configured, then activated. A node with respawn="true" whose
 * factory fails or whose callbacks throw is stopped and created again after respawn_delay, as
 * launch_ros restarts a process that exits; other failures are logged and the rest keep running.
 */
export class Launcher {
  readonly #graph: RosGraph;
  readonly #registry: NodeRegistry;
  readonly #log: (line: string) => void;
  readonly #onEvent: (event: LaunchEvent) => void;
  readonly #entries: Entry[] = [];
  readonly #checkMs: number;
  #crashTimer: NodeJS.Timeout | undefined;
  #stopping = false;

  constructor(options: LauncherOptions) {
    this.#graph = options.graph;
    this.#registry = options.registry;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.#onEvent = options.onEvent ?? (() => undefined);
    this.#checkMs = options.crashCheckIntervalMs ?? 100;
  }

  /**
   * Checks the whole plan first (every executable registered, no duplicate node names), then
   * starts the nodes in plan order. Throws an Error naming the launch file line on a bad plan.
   */
  async start(plan: LaunchPlan): Promise<void> {
    const seen = new Map<string, NodeLaunchDescription>();
    for (const d of plan.nodes) {
      if (this.#registry[d.executable] === undefined) {
        const known = Object.keys(this.#registry).sort();
        throw new Error(
          `${d.source.file}:${d.source.line}: no drone_harness node executable "${d.executable}" in the node registry (known: ${known.length === 0 ? "none" : known.join(", ")})`,
        );
      }
      const dup = seen.get(d.fullyQualifiedName);
      if (dup !== undefined) {
        throw new Error(`${d.source.file}:${d.source.line}: node name ${d.fullyQualifiedName} is already used at ${dup.source.file}:${dup.source.line}`);
      }
      seen.set(d.fullyQualifiedName, d);
    }
    for (const s of plan.skipped) this.#log(`[launch] skipping ${s.what} (${s.file}:${s.line}): ${s.reason}`);
    for (const w of plan.warnings) this.#log(`[launch] ${w}`);
    for (const d of plan.nodes) {
      const entry: Entry = { description: d, launched: undefined, errorsAtStart: 0, respawnTimer: undefined, starts: 0 };
      this.#entries.push(entry);
      await this.#startEntry(entry);
    }
    if (this.#entries.some((e) => e.description.respawn)) {
      this.#crashTimer = setInterval(() => this.#checkCrashes(), this.#checkMs);
      this.#crashTimer.unref();
    }
  }

  /** The running node named `fullyQualifiedName`, if any. */
  node(fullyQualifiedName: string): RosNode | undefined {
    return this.#entries.find((e) => e.description.fullyQualifiedName === fullyQualifiedName)?.launched?.node;
  }

  /** Fully qualified names of the nodes currently running. */
  runningNodes(): string[] {
    return this.#entries.filter((e) => e.launched !== undefined).map((e) => e.description.fullyQualifiedName);
  }

  /**
   * Stops every node (reverse start order) and cancels pending respawns. Lifecycle nodes first
   * take the shutdown transition so their onShutdown can release devices (ros2/rclcpp#997;
   * rclcpp_lifecycle tried this in its destructor, rclcpp#2450, reverted it in rclcpp#2557 and
   * leaves it to the application, which this launcher is). A crashed node being respawned does
   * not (its process would have died).
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#crashTimer !== undefined) clearInterval(this.#crashTimer);
    for (const e of [...this.#entries].reverse()) {
      if (e.respawnTimer !== undefined) clearTimeout(e.respawnTimer);
      e.respawnTimer = undefined;
      await this.#shutdownLifecycle(e);
      await this.#stopEntry(e);
    }
  }

  async #shutdownLifecycle(entry: Entry): Promise<void> {
    const node = entry.launched?.node;
    if (node === undefined || !isLifecycleNode(node) || node.state === "finalized") return;
    try {
      const result = await node.shutdown();
      if (result !== "success") this.#log(`[launch] [WARN] ${entry.description.fullyQualifiedName}: shutdown transition returned ${result}`);
    } catch (err) {
      this.#log(`[launch] [WARN] ${entry.description.fullyQualifiedName}: shutdown transition failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async #startEntry(entry: Entry): Promise<void> {
    const d = entry.description;
    const factory = this.#registry[d.executable];
    if (factory === undefined) return;
    entry.starts++;
    try {
      const launched = await factory(this.#graph, factoryOptions(d));
      entry.launched = launched;
      entry.errorsAtStart = callbackErrorsOf(launched.node);
      await activateIfLifecycle(launched);
      this.#log(`[launch] started ${d.fullyQualifiedName} (${d.package}/${d.executable})`);
      this.#onEvent({ type: "started", node: d.fullyQualifiedName });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.#log(`[launch] [ERROR] ${d.fullyQualifiedName} (${d.package}/${d.executable}) failed to start: ${message}`);
      this.#onEvent({ type: "failed", node: d.fullyQualifiedName, error: message });
      await this.#stopEntry(entry);
      this.#scheduleRespawn(entry);
    }
  }

  async #stopEntry(entry: Entry): Promise<void> {
    const launched = entry.launched;
    entry.launched = undefined;
    if (launched === undefined) return;
    try {
      await launched.stop();
    } catch (err) {
      this.#log(`[launch] [ERROR] stopping ${entry.description.fullyQualifiedName}: ${err instanceof Error ? err.message : String(err)}`);
    }
    this.#onEvent({ type: "stopped", node: entry.description.fullyQualifiedName });
  }

  #scheduleRespawn(entry: Entry): void {
    const d = entry.description;
    if (!d.respawn || this.#stopping) return;
    this.#log(`[launch] respawning ${d.fullyQualifiedName} in ${d.respawnDelaySec} s (respawn="true")`);
    this.#onEvent({ type: "respawning", node: d.fullyQualifiedName, delaySec: d.respawnDelaySec });
    entry.respawnTimer = setTimeout(() => {
      entry.respawnTimer = undefined;
      if (!this.#stopping) void this.#startEntry(entry);
    }, d.respawnDelaySec * 1000);
  }

  #checkCrashes(): void {
    for (const e of this.#entries) {
      const launched = e.launched;
      if (!e.description.respawn || launched === undefined) continue;
      const errors = callbackErrorsOf(launched.node);
      if (errors <= e.errorsAtStart) continue;
      const reason = `${errors - e.errorsAtStart} callback error(s)`;
      this.#log(`[launch] [ERROR] ${e.description.fullyQualifiedName} crashed: ${reason}; stopping it`);
      this.#onEvent({ type: "crashed", node: e.description.fullyQualifiedName, reason });
      void this.#stopEntry(e).then(() => this.#scheduleRespawn(e));
    }
  }
}
