import type { MessageRegistry } from "../msgs/MessageRegistry";
import { incompatiblePolicy } from "./qos";
import type { QoSProfile } from "./types";

/**
 * One published message, shared by every subscription queue it was delivered to. Exactly one of
 * `message` / `bytes` is set at publish time; the other is produced lazily, once, when a
 * subscriber needs it (typed subscribers need the object, raw subscribers the CDR bytes).
 */
export type Delivery = {
  readonly seq: number;
  readonly typeName: string;
  message: unknown;
  bytes: Uint8Array | undefined;
  readonly receiveTimeNs: bigint;
};

export type PublisherEndpoint = {
  readonly id: number;
  readonly owner: string;
  readonly topic: string;
  readonly typeName: string;
  readonly qos: QoSProfile;
  /** Compatible subscriptions, updated as endpoints come and go. */
  matched: SubscriptionEndpoint[];
  /** transient_local: the last `depth` deliveries, oldest first. */
  readonly history: Delivery[];
  /** Subscriptions matched outside this process (a DDS writer's matched count), when bridged. */
  remoteSubscriptionCount?: () => number;
};

export type SubscriptionEndpoint = {
  readonly id: number;
  readonly owner: string;
  readonly topic: string;
  /** undefined for raw subscriptions, which accept any type. */
  readonly typeName: string | undefined;
  readonly qos: QoSProfile;
  readonly handler: (delivery: Delivery) => void;
  /** Items waiting in this subscription's queue, oldest first (bounded by depth for keep_last). */
  readonly pending: QueueItem[];
  /** Messages discarded because the keep_last queue was full. */
  dropped: number;
  received: number;
  destroyed: boolean;
};

type QueueItem = { sub: SubscriptionEndpoint; delivery: Delivery; dropped: boolean };

export type BusHooks = {
  /** Incompatible-QoS warning for the subscription's owner (as rclcpp's QoS event warnings). */
  warn(owner: string, message: string): void;
  /** Something was queued: the real-time executor schedules a drain. */
  queued(): void;
  /** A subscription handler threw. */
  callbackError(sub: SubscriptionEndpoint, error: unknown): void;
};

/**
 * Watches endpoints and publishes, for a transport that bridges this bus to another graph (the
 * DDS middleware mirrors every endpoint as a DDS writer or reader). Called synchronously.
 */
export type BusObserver = {
  publisherAdded(pub: PublisherEndpoint): void;
  publisherRemoved(pub: PublisherEndpoint): void;
  subscriptionAdded(sub: SubscriptionEndpoint): void;
  subscriptionRemoved(sub: SubscriptionEndpoint): void;
  published(pub: PublisherEndpoint, delivery: Delivery): void;
};

type TopicEntry = { typeName: string | undefined; pubs: Set<PublisherEndpoint>; subs: Set<SubscriptionEndpoint> };

/**
 * Topics, endpoints and per-subscription queues of the embedded graph. Delivery is queued at
 * publish and run by `drain`, in global publish order (FIFO by sequence number). KEEP_LAST queues
 * hold at most `depth` messages: when full, the oldest queued message is discarded and counted in
 * `dropped` (a DDS reader history of depth N behaves the same, whatever the reliability).
 */
export class MessageBus {
  readonly #topics = new Map<string, TopicEntry>();
  readonly #queue: QueueItem[] = [];
  #head = 0;
  #seq = 0;
  #nextId = 1;
  readonly #registry: MessageRegistry;
  readonly #hooks: BusHooks;
  /** When false, typed subscribers always get a fresh decode of the CDR bytes (no sharing). */
  readonly #intraProcess: boolean;
  #observer: BusObserver | undefined;

  constructor(registry: MessageRegistry, hooks: BusHooks, intraProcess: boolean) {
    this.#registry = registry;
    this.#hooks = hooks;
    this.#intraProcess = intraProcess;
  }

  /** Installs the bridge observer (one per bus); endpoints that exist already are reported now. */
  observe(observer: BusObserver): void {
    if (this.#observer !== undefined) throw new Error("MessageBus.observe: an observer is installed already");
    this.#observer = observer;
    for (const entry of this.#topics.values()) {
      for (const pub of entry.pubs) observer.publisherAdded(pub);
      for (const sub of entry.subs) observer.subscriptionAdded(sub);
    }
  }

  /**
   * Queues CDR bytes that arrived from outside this bus (a DDS reader) for one subscription only:
   * each DDS reader serves exactly the subscription it mirrors, as an rmw subscription does.
   */
  deliverTo(sub: SubscriptionEndpoint, typeName: string, bytes: Uint8Array, receiveTimeNs: bigint): void {
    if (sub.destroyed) return;
    this.#enqueue(sub, { seq: ++this.#seq, typeName, message: undefined, bytes, receiveTimeNs });
    this.#hooks.queued();
  }

  get pendingCount(): number {
    return this.#queue.length - this.#head;
  }

  addPublisher(owner: string, topic: string, typeName: string, qos: QoSProfile): PublisherEndpoint {
    const entry = this.#entry(topic, typeName, "publisher");
    const pub: PublisherEndpoint = { id: this.#nextId++, owner, topic, typeName, qos: { ...qos }, matched: [], history: [] };
    entry.pubs.add(pub);
    for (const sub of entry.subs) this.#match(pub, sub);
    this.#observer?.publisherAdded(pub);
    return pub;
  }

  addSubscription(
    owner: string,
    topic: string,
    typeName: string | undefined,
    qos: QoSProfile,
    handler: (delivery: Delivery) => void,
  ): SubscriptionEndpoint {
    const entry = this.#entry(topic, typeName, "subscription");
    const sub: SubscriptionEndpoint = {
      id: this.#nextId++,
      owner,
      topic,
      typeName,
      qos: { ...qos },
      handler,
      pending: [],
      dropped: 0,
      received: 0,
      destroyed: false,
    };
    entry.subs.add(sub);
    // Late joiner: transient_local publishers replay their history, oldest first by sequence.
    const replay: Delivery[] = [];
    for (const pub of entry.pubs) {
      if (this.#match(pub, sub) && pub.qos.durability === "transient_local" && sub.qos.durability === "transient_local") {
        replay.push(...pub.history);
      }
    }
    replay.sort((a, b) => a.seq - b.seq);
    for (const d of replay) this.#enqueue(sub, d);
    if (replay.length > 0) this.#hooks.queued();
    this.#observer?.subscriptionAdded(sub);
    return sub;
  }

  removePublisher(pub: PublisherEndpoint): void {
    const entry = this.#topics.get(pub.topic);
    if (entry === undefined) return;
    if (!entry.pubs.delete(pub)) return;
    pub.matched = [];
    this.#observer?.publisherRemoved(pub);
    this.#cleanup(pub.topic, entry);
  }

  removeSubscription(sub: SubscriptionEndpoint): void {
    const entry = this.#topics.get(sub.topic);
    sub.destroyed = true;
    for (const item of sub.pending) item.dropped = true;
    sub.pending.length = 0;
    if (entry === undefined || !entry.subs.delete(sub)) return;
    this.#observer?.subscriptionRemoved(sub);
    for (const pub of entry.pubs) pub.matched = pub.matched.filter((s) => s !== sub);
    this.#cleanup(sub.topic, entry);
  }

  /** Queues a message (already validated) or CDR bytes for every matched subscription. */
  publish(pub: PublisherEndpoint, message: unknown, bytes: Uint8Array | undefined, receiveTimeNs: bigint): void {
    const delivery: Delivery = { seq: ++this.#seq, typeName: pub.typeName, message, bytes, receiveTimeNs };
    if (!this.#intraProcess && bytes === undefined) {
      delivery.bytes = this.#registry.serialize(pub.typeName, message);
    }
    if (pub.qos.durability === "transient_local") {
      pub.history.push(delivery);
      if (pub.qos.history === "keep_last" && pub.history.length > pub.qos.depth) pub.history.shift();
    }
    const matched = pub.matched;
    for (let i = 0; i < matched.length; i++) {
      const sub = matched[i];
      if (sub !== undefined) this.#enqueue(sub, delivery);
    }
    if (matched.length > 0) this.#hooks.queued();
    this.#observer?.published(pub, delivery);
  }

  /**
   * Runs queued deliveries in publish order: all items queued before this call (items queued by
   * the callbacks run now wait for the next drain). Returns the number of callbacks run.
   */
  drain(): number {
    const end = this.#queue.length;
    let ran = 0;
    while (this.#head < end) {
      const item = this.#queue[this.#head];
      this.#queue[this.#head] = undefined as unknown as QueueItem;
      this.#head++;
      if (item === undefined || item.dropped) continue;
      const sub = item.sub;
      sub.pending.shift();
      if (sub.destroyed) continue;
      sub.received++;
      ran++;
      try {
        sub.handler(item.delivery);
      } catch (error) {
        this.#hooks.callbackError(sub, error);
      }
    }
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
    return ran;
  }

  /** The decoded message of a delivery for a typed subscriber. */
  messageFor(delivery: Delivery): unknown {
    if (!this.#intraProcess) {
      return this.#registry.deserialize(delivery.typeName, this.bytesFor(delivery));
    }
    if (delivery.message === undefined) {
      delivery.message = this.#registry.deserialize(delivery.typeName, delivery.bytes ?? new Uint8Array(0));
    }
    return delivery.message;
  }

  /** The CDR bytes of a delivery, serialized at most once. */
  bytesFor(delivery: Delivery): Uint8Array {
    delivery.bytes ??= this.#registry.serialize(delivery.typeName, delivery.message);
    return delivery.bytes;
  }

  topicNamesAndTypes(): Array<{ name: string; types: string[] }> {
    const out: Array<{ name: string; types: string[] }> = [];
    for (const [name, entry] of this.#topics) {
      if (entry.typeName !== undefined) out.push({ name, types: [entry.typeName] });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  topicType(topic: string): string | undefined {
    return this.#topics.get(topic)?.typeName;
  }

  publishers(topic: string): PublisherEndpoint[] {
    return [...(this.#topics.get(topic)?.pubs ?? [])];
  }

  subscriptions(topic: string): SubscriptionEndpoint[] {
    return [...(this.#topics.get(topic)?.subs ?? [])];
  }

  #enqueue(sub: SubscriptionEndpoint, delivery: Delivery): void {
    const item: QueueItem = { sub, delivery, dropped: false };
    sub.pending.push(item);
    if (sub.qos.history === "keep_last" && sub.pending.length > sub.qos.depth) {
      const oldest = sub.pending.shift();
      if (oldest !== undefined) oldest.dropped = true;
      sub.dropped++;
    }
    this.#queue.push(item);
  }

  #match(pub: PublisherEndpoint, sub: SubscriptionEndpoint): boolean {
    const policy = incompatiblePolicy(pub.qos, sub.qos);
    if (policy !== undefined) {
      // Both sides warn, with the texts of rclcpp's default incompatible-QoS callbacks
      // (rclcpp/src/rclcpp/subscription_base.cpp and publisher_base.cpp).
      this.#hooks.warn(
        sub.owner,
        `New publisher discovered on topic '${sub.topic}', offering incompatible QoS. No messages will be received from it. Last incompatible policy: ${policy}`,
      );
      this.#hooks.warn(
        pub.owner,
        `New subscription discovered on topic '${pub.topic}', requesting incompatible QoS. No messages will be sent to it. Last incompatible policy: ${policy}`,
      );
      return false;
    }
    if (!pub.matched.includes(sub)) pub.matched.push(sub);
    return true;
  }

  #entry(topic: string, typeName: string | undefined, what: string): TopicEntry {
    let entry = this.#topics.get(topic);
    if (entry === undefined) {
      entry = { typeName, pubs: new Set(), subs: new Set() };
      this.#topics.set(topic, entry);
    } else if (typeName !== undefined) {
      if (entry.typeName === undefined) entry.typeName = typeName;
      else if (entry.typeName !== typeName) {
        throw new Error(`topic '${topic}' has type ${entry.typeName}; cannot create a ${what} of type ${typeName}`);
      }
    }
    return entry;
  }

  #cleanup(topic: string, entry: TopicEntry): void {
    if (entry.pubs.size === 0 && entry.subs.size === 0) {
      this.#topics.delete(topic);
      return;
    }
    // The topic type is held by typed endpoints only; raw subscriptions accept any type.
    const typed = entry.pubs.size > 0 || [...entry.subs].some((s) => s.typeName !== undefined);
    if (!typed) entry.typeName = undefined;
  }
}
