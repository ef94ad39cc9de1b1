import { parseRemapRules } from "../graph/names";
import type { RawSubscription } from "../graph/raw";
import { QOS_DEFAULT } from "../graph/types";
import type { Clock, LifecycleRosNode, NodeOptions, QoSProfile, RosGraph, RosNode } from "../graph/types";
import { toRclQoS } from "./conversions";
import { loadRclnodejs } from "./loadRclnodejs";
import type { RclnodejsModule, RclNode, RclPublisher } from "./rclnodejsApi";
import { RclnodejsLifecycleNode } from "./RclnodejsLifecycleNode";
import { RclnodejsNode } from "./RclnodejsNode";

export type RclnodejsGraphOptions = {
  /** Global remapping rules "from:=to", passed to rcl as `--ros-args -r from:=to`. */
  globalRemappings?: Record<string, string>;
  /** Extra command-line arguments for rcl (e.g. process.argv with --ros-args from ros2 launch). */
  argv?: string[];
  /** For tests: the rclnodejs module (default: `require("rclnodejs")`, loaded lazily). */
  rclnodejs?: RclnodejsModule;
};

/**
 * The RosGraph over real ROS 2 through rclnodejs. Each node is spun by rclnodejs on the Node.js
 * event loop (real time only: there is no lock-step executor on real ROS 2). Graph queries and
 * raw (CDR) access go through a hidden helper node.
 */
export class RclnodejsGraph implements RosGraph {
  readonly globalRemappings: Record<string, string>;
  readonly #rcl: RclnodejsModule;
  readonly #nodes: RosNode[] = [];
  readonly #helper: RclNode;
  readonly #rawPublishers = new Map<string, RclPublisher>();

  private constructor(rcl: RclnodejsModule, globalRemappings: Record<string, string>) {
    this.#rcl = rcl;
    this.globalRemappings = globalRemappings;
    this.#helper = rcl.createNode("_drone_harness_graph");
    rcl.spin(this.#helper);
  }

  static async create(options: RclnodejsGraphOptions = {}): Promise<RclnodejsGraph> {
    const rcl = options.rclnodejs ?? loadRclnodejs<RclnodejsModule>();
    const remaps = { ...(options.globalRemappings ?? {}) };
    parseRemapRules(remaps);
    const argv = [...(options.argv ?? [])];
    const rules = Object.entries(remaps);
    if (rules.length > 0) {
      if (!argv.includes("--ros-args")) argv.push("--ros-args");
      for (const [from, to] of rules) argv.push("-r", `${from}:=${to}`);
    }
    await rcl.init(undefined, argv);
    return new RclnodejsGraph(rcl, remaps);
  }

  createNode(name: string, options: NodeOptions = {}): RosNode {
    const inner = this.#rcl.createNode(name, options.namespace ?? "", undefined, RclnodejsNode.nodeOptions(this.#rcl));
    const node = new RclnodejsNode(this.#rcl, inner, options);
    this.#rcl.spin(inner);
    this.#nodes.push(node);
    return node;
  }

  createLifecycleNode(name: string, options: NodeOptions = {}): LifecycleRosNode {
    const inner = this.#rcl.createLifecycleNode(name, options.namespace ?? "", undefined, RclnodejsNode.nodeOptions(this.#rcl));
    const node = new RclnodejsLifecycleNode(this.#rcl, inner, options);
    this.#rcl.spin(inner);
    this.#nodes.push(node);
    return node;
  }

  nodeNames(): string[] {
    return this.#helper
      .getNodeNamesAndNamespaces()
      .map((n) => (n.namespace === "/" ? `/${n.name}` : `${n.namespace}/${n.name}`))
      .filter((n) => n !== "/_drone_harness_graph")
      .sort();
  }

  topicNamesAndTypes(): Array<{ name: string; types: string[] }> {
    return this.#helper.getTopicNamesAndTypes();
  }

  /** Raw CDR subscription (rclnodejs `isRaw`); the topic must already be known to the graph. */
  subscribeRaw(
    topic: string,
    callback: (bytes: Uint8Array, typeName: string, receiveTimeNs: bigint) => void,
    options: { qos?: QoSProfile; clock?: Clock } = {},
  ): RawSubscription {
    const type = this.topicNamesAndTypes().find((t) => t.name === topic)?.types[0];
    if (type === undefined) throw new Error(`subscribeRaw: topic '${topic}' is not in the ROS 2 graph yet (its type is unknown)`);
    const sub = this.#helper.createSubscription(type, topic, { qos: toRclQoS(this.#rcl, options.qos ?? QOS_DEFAULT), isRaw: true }, (m) =>
      callback(m as Uint8Array, type, options.clock?.nowNs() ?? this.#helper.getClock().now().nanoseconds),
    );
    return { topic, droppedCount: () => 0, destroy: () => this.#helper.destroySubscription(sub) };
  }

  publishRaw(topic: string, typeName: string, bytes: Uint8Array, qos: QoSProfile = QOS_DEFAULT): void {
    const key = `${topic}\u0000${typeName}`;
    let pub = this.#rawPublishers.get(key);
    if (pub === undefined) {
      pub = this.#helper.createPublisher(typeName, topic, { qos: toRclQoS(this.#rcl, qos) });
      this.#rawPublishers.set(key, pub);
    }
    pub.publish(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  async shutdown(): Promise<void> {
    for (const n of this.#nodes.splice(0)) n.destroy();
    if (!this.#rcl.isShutdown()) this.#rcl.shutdown();
  }
}

export function createRclnodejsGraph(options: RclnodejsGraphOptions = {}): Promise<RosGraph> {
  return RclnodejsGraph.create(options);
}
