import { EmbeddedGraph } from "../graph/EmbeddedGraph";
import type { EmbeddedGraphOptions } from "../graph/EmbeddedGraph";
import type { EmbeddedNode } from "../graph/EmbeddedNode";
import type { PublisherEndpoint, SubscriptionEndpoint } from "../graph/MessageBus";
import type { LifecycleRosNode, NodeOptions } from "../graph/types";
import { wallNowNs } from "../graph/wallClock";
import { DdsParticipant } from "./DdsParticipant";
import type { DdsReader, DdsWriter } from "./DdsParticipant";

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
 */
export class DdsGraph extends EmbeddedGraph {
  readonly participant: DdsParticipant;
  readonly #writers = new Map<PublisherEndpoint, DdsWriter>();
  readonly #readers = new Map<SubscriptionEndpoint, DdsReader>();
  /** Samples that failed to go out (logged once per topic). */
  writeErrors = 0;
  readonly #warned = new Set<string>();

  constructor(options: DdsGraphOptions = {}) {
    super(options);
    const registry = this.registry;
    this.participant = new DdsParticipant({ domainId: options.domainId, config: options.ddsConfig, lookup: (t) => registry.definition(t) });
    const participant = this.participant;
    this.bus.observe({
      publisherAdded: (pub) => {
        const writer = participant.createWriter(pub.topic, pub.typeName, pub.qos);
        this.#writers.set(pub, writer);
        pub.remoteSubscriptionCount = () => writer.matchedCount();
      },
      publisherRemoved: (pub) => {
        this.#writers.get(pub)?.destroy();
        this.#writers.delete(pub);
      },
      subscriptionAdded: (sub) => {
        // A raw subscription (bag recorder, topic echo) takes its type from the local graph or,
        // failing that, from DDS discovery (the type another process announced for the topic).
        const typeName = sub.typeName ?? this.bus.topicType(sub.topic) ?? this.#discoveredType(sub.topic);
        if (typeName === undefined) return;
        const reader = participant.createReader(sub.topic, typeName, sub.qos, (bytes) => this.bus.deliverTo(sub, typeName, bytes, wallNowNs()));
        this.#readers.set(sub, reader);
      },
      subscriptionRemoved: (sub) => {
        this.#readers.get(sub)?.destroy();
        this.#readers.delete(sub);
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
    this.participant.setNodeNames(super.nodeNames());
    return node;
  }

  override createLifecycleNode(name: string, options?: NodeOptions): LifecycleRosNode & EmbeddedNode {
    const node = super.createLifecycleNode(name, options);
    this.participant.setNodeNames(super.nodeNames());
    return node;
  }

  /** This process's nodes and those other drone-harness processes announce on the domain. */
  override nodeNames(): string[] {
    return [...new Set([...super.nodeNames(), ...this.participant.discover().nodes])].sort();
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
