import { EmbeddedGraph } from "../graph/EmbeddedGraph";
import type { EmbeddedGraphOptions } from "../graph/EmbeddedGraph";
import type { EmbeddedNode } from "../graph/EmbeddedNode";
import type { PublisherEndpoint, SubscriptionEndpoint } from "../graph/MessageBus";
import type { LifecycleRosNode, NodeOptions } from "../graph/types";
import { wallNowNs } from "../graph/wallClock";
import { DdsParticipant } from "./DdsParticipant";
import type { DdsReader, DdsWriter } from "./DdsParticipant";
import { RosDiscoveryInfo } from "./RosDiscoveryInfo";
import type { NodeEntities } from "./RosDiscoveryInfo";

export type DdsGraphOptions = EmbeddedGraphOptions & {
  /** DDS domain; default ROS_DOMAIN_ID or 0. */
  domainId?: number;
  /** Cyclone XML used when CYCLONEDDS_URI is unset (default: loopback only, see LOOPBACK_CONFIG). */
  ddsConfig?: string;
};

/**
 * The embedded graph with every endpoint mirrored on Cyclone DDS, the way rmw_cyclonedds_cpp
 * maps an rcl endpoint: each publisher is a DDS writer and each subscription a DDS reader with
 * the same QoS, on `rt/<topic>`. Nodes, timers, parameters, logging and in-process delivery are
 * the embedded graph's, so every node runs unchanged; what other processes or machines publish
 * arrives through the readers, and what this process publishes leaves through the writers
 * (readers ignore this participant's own writers, so nothing is delivered twice).
 *
 * The node graph goes out as rmw announces it: the participant's ParticipantEntitiesInfo on
 * ros_discovery_info (RosDiscoveryInfo), written again whenever a node or one of its endpoints is
 * created or destroyed, so `ros2 node list` on a ROS 2 machine can list these nodes.
 */
export class DdsGraph extends EmbeddedGraph {
  readonly participant: DdsParticipant;
  readonly #writers = new Map<PublisherEndpoint, DdsWriter>();
  readonly #readers = new Map<SubscriptionEndpoint, DdsReader>();
  /** Samples that failed to go out (logged once per topic). */
  writeErrors = 0;
  readonly #warned = new Set<string>();
  readonly #discoveryInfo: RosDiscoveryInfo | undefined;

  constructor(options: DdsGraphOptions = {}) {
    super(options);
    const registry = this.registry;
    this.participant = new DdsParticipant({ domainId: options.domainId, config: options.ddsConfig, lookup: (t) => registry.definition(t) });
    const participant = this.participant;
    this.#discoveryInfo = RosDiscoveryInfo.create(participant, registry);
    this.bus.observe({
      publisherAdded: (pub) => {
        const writer = participant.createWriter(pub.topic, pub.typeName, pub.qos);
        this.#writers.set(pub, writer);
        pub.remoteSubscriptionCount = () => writer.matchedCount();
        this.#publishDiscoveryInfo();
      },
      publisherRemoved: (pub) => {
        this.#writers.get(pub)?.destroy();
        this.#writers.delete(pub);
        this.#publishDiscoveryInfo();
      },
      subscriptionAdded: (sub) => {
        // A raw subscription (bag recorder, topic echo) takes its type from the local graph or,
        // failing that, from DDS discovery (the type another process announced for the topic).
        const typeName = sub.typeName ?? this.bus.topicType(sub.topic) ?? this.#discoveredType(sub.topic);
        if (typeName === undefined) return;
        const reader = participant.createReader(sub.topic, typeName, sub.qos, (bytes) => this.bus.deliverTo(sub, typeName, bytes, wallNowNs()));
        this.#readers.set(sub, reader);
        this.#publishDiscoveryInfo();
      },
      subscriptionRemoved: (sub) => {
        this.#readers.get(sub)?.destroy();
        this.#readers.delete(sub);
        this.#publishDiscoveryInfo();
      },
      published: (pub, delivery) => {
        const writer = this.#writers.get(pub);
        if (writer === undefined) return;
        try {
          writer.write(this.bus.bytesFor(delivery));
        } catch (error) {
          this.writeErrors++;
          if (!this.#warned.has(pub.topic)) {
            this.#warned.add(pub.topic);
            this.node(pub.owner)?.getLogger().error(`DDS write on '${pub.topic}' failed: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      },
    });
  }

  override createNode(name: string, options?: NodeOptions): EmbeddedNode {
    const node = super.createNode(name, options);
    this.#nodesChanged();
    return node;
  }

  override createLifecycleNode(name: string, options?: NodeOptions): LifecycleRosNode & EmbeddedNode {
    const node = super.createLifecycleNode(name, options);
    this.#nodesChanged();
    return node;
  }

  protected override nodeRemoved(): void {
    this.#nodesChanged();
  }

  /** Announces the node list: in the participant's user data (ours) and on ros_discovery_info (rmw's). */
  #nodesChanged(): void {
    this.participant.setNodeNames(super.nodeNames());
    this.#publishDiscoveryInfo();
  }

  /**
   * This participant's nodes with the GUIDs of their DDS readers and writers, on ros_discovery_info.
   * Endpoints of no node (raw subscriptions and publishers of tools, owner "/_embedded_raw") are in
   * no node's list, as rmw lists only endpoints created by a node.
   */
  #publishDiscoveryInfo(): void {
    const info = this.#discoveryInfo;
    if (info === undefined) return;
    const nodes = new Map<string, { fullyQualifiedName: string; readers: Uint8Array[]; writers: Uint8Array[] }>();
    for (const name of super.nodeNames()) nodes.set(name, { fullyQualifiedName: name, readers: [], writers: [] });
    for (const [pub, writer] of this.#writers) nodes.get(pub.owner)?.writers.push(writer.guid);
    for (const [sub, reader] of this.#readers) nodes.get(sub.owner)?.readers.push(reader.guid);
    try {
      info.publish([...nodes.values()] satisfies NodeEntities[]);
    } catch (error) {
      this.writeErrors++;
      if (!this.#warned.has("ros_discovery_info")) {
        this.#warned.add("ros_discovery_info");
        process.emitWarning(`DDS write on 'ros_discovery_info' failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /**
   * This process's nodes, those other drone-harness processes announce in their participant user
   * data, and those any participant (a ROS 2 Humble process included) announces on ros_discovery_info.
   */
  override nodeNames(): string[] {
    const found = this.participant.discover();
    const rosNodes = this.#discoveryInfo?.remoteNodeNames(found.participants) ?? [];
    return [...new Set([...super.nodeNames(), ...found.nodes, ...rosNodes])].sort();
  }

  /** Local topics and every ROS 2 topic (rt/...) discovered on the domain, ROS 2 peers included. */
  override topicNamesAndTypes(): Array<{ name: string; types: string[] }> {
    const merged = new Map<string, Set<string>>();
    for (const t of [...super.topicNamesAndTypes(), ...this.participant.discover().topics]) {
      const set = merged.get(t.name) ?? new Set<string>();
      for (const type of t.types) set.add(type);
      merged.set(t.name, set);
    }
    return [...merged].map(([name, set]) => ({ name, types: [...set].sort() })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Local endpoints, plus the publishers discovered in other processes (node "(dds)"), so tools pick a compatible QoS. */
  override topicInfo(topic: string): ReturnType<EmbeddedGraph["topicInfo"]> {
    const local = super.topicInfo(topic);
    const found = this.participant.discover();
    const remote = found.publishers.filter((p) => p.topic === topic && !p.local);
    return {
      type: local.type ?? found.topics.find((t) => t.name === topic)?.types[0],
      publishers: [...local.publishers, ...remote.map((p) => ({ node: "(dds)", qos: p.qos }))],
      subscriptions: local.subscriptions,
    };
  }

  #discoveredType(topic: string): string | undefined {
    return this.participant.discover().topics.find((t) => t.name === topic)?.types[0];
  }

  override async shutdown(): Promise<void> {
    await super.shutdown();
    await this.participant.close();
  }
}
