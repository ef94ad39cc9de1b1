import type { QoSProfile } from "../graph/types";
import { BUILTIN_TOPIC, check, loadCyclone } from "./cyclone";
import type { CycloneApi } from "./cyclone";
import { ddsTopicName, ddsTypeName, rosTopicName, rosTypeName } from "./ddsNames";
import { topicOps } from "./topicOps";
import type { DefinitionLookup } from "./topicOps";

/**
 * Cyclone DDS configuration used when CYCLONEDDS_URI is not set: loopback only, unicast discovery
 * of the participants on this host (no multicast, nothing leaves the machine). For a LAN, set
 * CYCLONEDDS_URI (Cyclone's own variable) to a configuration naming the interface; it is then used
 * as it is.
 *
 * Sized for camera images (a 256x256 rgb8 Image is 196,660 B of CDR), as ROS 2's DDS tuning guide
 * advises for large messages over Cyclone (a larger SocketReceiveBufferSize;
 * https://docs.ros.org/en/humble/How-To-Guides/DDS-tuning.html):
 * - the socket receive buffer is requested at 4 MiB (`max` only: Cyclone asks for it and accepts
 *   what the OS allows, net.core.rmem_max; the default asks for 1 MiB). With 1 MiB a burst of
 *   images overflows the socket and reliable readers wait for retransmits.
 * - UDP messages and fragments of up to 65,500 / 62,000 B (defaults 14,720 / 1,344 B): on
 *   loopback (MTU 65,536) an image goes out in 4 datagrams per reader instead of about 146.
 * Measured with bench/ddsImageLoop.ts across two processes, one run of each, interleaved, on the
 * loaded 2-core machine (2026-12-02 12:50 UTC): 494-526 Images/s with the defaults, 1553-1666 with
 * the 4 MiB buffer, 1812-1892 with both (p50 0.61-0.74 ms -> 0.45-0.53 ms).
 */
export const LOOPBACK_CONFIG = loopbackConfig();

/**
 * The loopback-only configuration, sized for images (LOOPBACK_CONFIG) or with Cyclone's own
 * message, fragment and socket buffer sizes (`sizedForImages: false`, as a stock install has them).
 */
export function loopbackConfig(sizedForImages = true): string {
  const sizes = sizedForImages ? "<MaxMessageSize>65500B</MaxMessageSize><FragmentSize>62000B</FragmentSize>" : "";
  const buffer = sizedForImages ? '<Internal><SocketReceiveBufferSize max="4MiB"/></Internal>' : "";
  return (
    '<CycloneDDS><Domain id="any"><General><Interfaces><NetworkInterface name="lo"/></Interfaces>' +
    `<AllowMulticast>false</AllowMulticast>${sizes}</General>` +
    "<Discovery><ParticipantIndex>auto</ParticipantIndex>" +
    '<MaxAutoParticipantIndex>60</MaxAutoParticipantIndex><Peers><Peer address="127.0.0.1"/></Peers></Discovery>' +
    `${buffer}</Domain></CycloneDDS>`
  );
}

/** rmw: ROS_DOMAIN_ID, default 0; 0..232 are the ids whose ports fit (ROS 2 docs, "The ROS_DOMAIN_ID"). */
export function rosDomainId(env: NodeJS.ProcessEnv = process.env): number {
  const text = env["ROS_DOMAIN_ID"];
  if (text === undefined || text.trim() === "") return 0;
  const id = Number(text);
  if (!Number.isInteger(id) || id < 0 || id > 232) throw new RangeError(`ROS_DOMAIN_ID=${text}, expected an integer in 0..232`);
  return id;
}

export type DdsParticipantOptions = {
  /** DDS domain; default ROS_DOMAIN_ID or 0. */
  domainId?: number;
  /** Cyclone XML used when CYCLONEDDS_URI is unset; default LOOPBACK_CONFIG. */
  config?: string;
  /** Message definitions for the topic types. */
  lookup: DefinitionLookup;
};

/** Where an endpoint's DDS topic name comes from. */
export type DdsEndpointOptions = {
  /**
   * Use the topic name as the DDS topic name, without the "rt" prefix (rmw's QoS flag of the same
   * name, which rmw sets for its own ros_discovery_info topic). Default false.
   */
  avoidRosNamespaceConventions?: boolean;
};

export type DdsWriter = {
  /** The DDS writer's GUID (16 bytes): the key of its DCPSPublication sample. */
  readonly guid: Uint8Array;
  /** Writes CDR bytes (with their 4-byte encapsulation header) as one sample. */
  write(bytes: Uint8Array): void;
  /** Readers matched outside this participant. */
  matchedCount(): number;
  destroy(): void;
};

export type DdsReader = {
  /** The DDS reader's GUID (16 bytes): the key of its DCPSSubscription sample. */
  readonly guid: Uint8Array;
  destroy(): void;
};

type TopicEntry = { entity: number; typeName: string; sertype: unknown };

// Cyclone enum values (dds/ddsc/dds_public_qosdefs.h).
const RELIABILITY = { best_effort: 0, reliable: 1 } as const;
const DURABILITY = { volatile: 0, transient_local: 1 } as const;
const HISTORY = { keep_last: 0, keep_all: 1 } as const;
const IGNORELOCAL_PARTICIPANT = 1;
const SDK_DATA = 2;
/** DDS default max_blocking_time for reliable writers (100 ms), as rmw_cyclonedds leaves it. */
const MAX_BLOCKING_NS = 100_000_000n;
/** sizeof(dds_sample_info_t) and offsetof(valid_data) in Cyclone 0.10 (checked with gcc). */
const SAMPLE_INFO_SIZE = 64;
const SAMPLE_INFO_VALID_DATA = 12;
/** offsetof(struct ddsi_serdata, type) (dds/ddsi/ddsi_serdata.h: ops, hash, refc, kind, type). */
const SERDATA_TYPE_OFFSET = 24;
const PROBE_PARTITION = "__drone_harness_sertype_probe";
const WAIT_SLICE_NS = 500_000_000n;
/** Sample, view and instance states of live instances (dds.h: read | not read | new | not new | alive). */
const ALIVE_MASK = 1 | 2 | 4 | 8 | 16;
const DISCOVERY_BATCH = 256;
/** Participant user data: rmw_cyclonedds_cpp's "enclave=/;" plus our node list (ignored by ROS 2). */
const NODES_KEY = "drone_harness_nodes";

/** What the discovery (builtin) topics show of the whole DDS domain, this participant included. */
export type Discovered = {
  topics: Array<{ name: string; types: string[] }>;
  nodes: string[];
  /** Each discovered writer on a ROS 2 topic with its offered QoS, its GUID, and whether it is this participant's. */
  publishers: Array<{ topic: string; qos: QoSProfile; guid: Uint8Array; local: boolean }>;
  /** Each discovered reader on a ROS 2 topic with its GUID, and whether it is this participant's. */
  subscriptions: Array<{ topic: string; guid: Uint8Array; local: boolean }>;
  /** The GUIDs (hex) of the participants alive on the domain, this one included. */
  participants: string[];
};

/**
 * One DDS participant (one per process, as rmw_cyclonedds_cpp has one per context) that moves
 * CDR bytes: each writer and reader is a ROS 2 endpoint on `rt/<topic>` with type
 * `<pkg>::msg::dds_::<Type>_`. Samples are received on the event loop: a waitset is waited on
 * in koffi's worker thread and the readers are drained when it wakes.
 */
export class DdsParticipant {
  readonly domainId: number;
  readonly #api: CycloneApi;
  readonly #pp: number;
  readonly #ws: number;
  readonly #guard: number;
  readonly #lookup: DefinitionLookup;
  readonly #topics = new Map<string, TopicEntry>();
  readonly #readers = new Map<number, { reader: number; onSample: (bytes: Uint8Array) => void }>();
  readonly #xs = Buffer.alloc(8 * 64);
  readonly #si = Buffer.alloc(SAMPLE_INFO_SIZE * 1);
  #waiting: Promise<void> | undefined;
  #closed = false;

  constructor(options: DdsParticipantOptions) {
    const api = loadCyclone();
    this.#api = api;
    this.#lookup = options.lookup;
    this.domainId = options.domainId ?? rosDomainId();
    const uri = process.env["CYCLONEDDS_URI"];
    if (uri === undefined || uri === "") {
      // PRECONDITION_NOT_MET: this process configured the domain already (a second participant).
      const ret = Number(api.create_domain(this.domainId, options.config ?? LOOPBACK_CONFIG));
      if (ret < 0 && ret !== -4) check(api, ret, `dds_create_domain(${this.domainId})`);
    }
    const qos: unknown = api.create_qos();
    // rmw_cyclonedds_cpp puts the security enclave in the participant's user data.
    const userData = Buffer.from("enclave=/;");
    api.qset_userdata(qos, userData, userData.length);
    try {
      this.#pp = check(api, Number(api.create_participant(this.domainId, qos, null)), `dds_create_participant(domain ${this.domainId})`);
    } finally {
      api.delete_qos(qos);
    }
    this.#ws = check(api, Number(api.create_waitset(this.#pp)), "dds_create_waitset");
    this.#guard = check(api, Number(api.create_guardcondition(this.#pp)), "dds_create_guardcondition");
    check(api, Number(api.waitset_attach(this.#ws, this.#guard, 0)), "dds_waitset_attach(guard)");
  }

  createWriter(rosTopic: string, rosType: string, qos: QoSProfile, options: DdsEndpointOptions = {}): DdsWriter {
    const api = this.#api;
    const topic = this.#topic(rosTopic, rosType, options);
    const writer = this.#withQos(qos, (q) => check(api, Number(api.create_writer(this.#pp, topic.entity, q, null)), `dds_create_writer(${rosTopic})`));
    const status = {};
    return {
      guid: this.#guidOf(writer),
      write: (bytes) => {
        const iov = [{ iov_base: bytes, iov_len: bytes.byteLength }];
        const serdata: unknown = api.serdata_from_ser_iov(topic.sertype, SDK_DATA, 1, iov, bytes.byteLength);
        if (serdata === null) throw new Error(`DDS rejected ${bytes.byteLength} CDR bytes on ${rosTopic}: they do not match ${rosType}`);
        // dds_writecdr consumes the serdata reference (as rmw_cyclonedds_cpp's publish relies on).
        check(api, Number(api.writecdr(writer, serdata)), `dds_writecdr(${rosTopic})`);
      },
      matchedCount: () => {
        if (Number(api.get_publication_matched_status(writer, status)) < 0) return 0;
        return (status as { current_count?: number }).current_count ?? 0;
      },
      destroy: () => {
        if (!this.#closed) api.delete(writer);
      },
    };
  }

  createReader(rosTopic: string, rosType: string, qos: QoSProfile, onSample: (bytes: Uint8Array) => void, options: DdsEndpointOptions = {}): DdsReader {
    const api = this.#api;
    const topic = this.#topic(rosTopic, rosType, options);
    const reader = this.#withQos(qos, (q) => check(api, Number(api.create_reader(this.#pp, topic.entity, q, null)), `dds_create_reader(${rosTopic})`));
    const cond = check(api, Number(api.create_readcondition(reader, 0)), "dds_create_readcondition");
    this.#readers.set(cond, { reader, onSample });
    check(api, Number(api.waitset_attach(this.#ws, cond, cond)), "dds_waitset_attach");
    this.#startWaiting();
    return {
      guid: this.#guidOf(reader),
      destroy: () => {
        if (this.#closed || !this.#readers.delete(cond)) return;
        api.waitset_detach(this.#ws, cond);
        api.delete(reader);
      },
    };
  }

  /**
   * Announces this process's node names in the participant's user data (next to rmw's
   * "enclave=/;"), so `node list` in another process finds them through discovery.
   */
  setNodeNames(names: readonly string[]): void {
    const api = this.#api;
    const q: unknown = api.create_qos();
    try {
      const userData = Buffer.from(`enclave=/;${NODES_KEY}=${names.join(",")};`);
      api.qset_userdata(q, userData, userData.length);
      check(api, Number(api.set_qos(this.#pp, q)), "dds_set_qos(participant user data)");
    } finally {
      api.delete_qos(q);
    }
  }

  /** ROS 2 topics (rt/ prefix) with their ROS type names, and our node names, seen on the domain now. */
  discover(): Discovered {
    const api = this.#api;
    const types = new Map<string, Set<string>>();
    const publishers: Discovered["publishers"] = [];
    const subscriptions: Discovered["subscriptions"] = [];
    for (const kind of ["publication", "subscription"] as const) {
      this.#readBuiltin(kind, (sample) => {
        const e = api.koffi.decode(sample, api.BuiltinEndpoint) as { key: number[]; topic_name: string; type_name: string; qos: unknown; participant_key: number[] };
        const name = rosTopicName(e.topic_name);
        const type = rosTypeName(e.type_name);
        if (name === undefined || type === undefined) return;
        const endpoint = { topic: name, guid: Uint8Array.from(e.key), local: this.#isSelf(e.participant_key) };
        if (kind === "publication") publishers.push({ ...endpoint, qos: this.#qosOf(e.qos) });
        else subscriptions.push(endpoint);
        let set = types.get(name);
        if (set === undefined) types.set(name, (set = new Set()));
        set.add(type);
      });
    }
    const nodes = new Set<string>();
    const participants: string[] = [];
    this.#readBuiltin("participant", (sample) => {
      const p = api.koffi.decode(sample, api.BuiltinParticipant) as { key: number[]; qos: unknown };
      participants.push(Buffer.from(p.key).toString("hex"));
      const value: unknown[] = [null];
      const size: number[] = [0];
      if (p.qos === null || !(api.qget_userdata(p.qos, value, size) as boolean) || value[0] === null) return;
      const text = Buffer.from(api.koffi.decode(value[0], "uint8", size[0] ?? 0) as number[]).toString("utf8");
      api.free(value[0]);
      const m = new RegExp(`(?:^|;)${NODES_KEY}=([^;]*);`).exec(text);
      for (const n of m?.[1]?.split(",") ?? []) if (n !== "") nodes.add(n);
    });
    return {
      topics: [...types].map(([name, set]) => ({ name, types: [...set].sort() })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      nodes: [...nodes].sort(),
      publishers,
      subscriptions,
      participants,
    };
  }

  #guid: Uint8Array | undefined;

  /** The participant's GUID (16 bytes): the key of its DCPSParticipant sample. */
  get guid(): Uint8Array {
    this.#guid ??= this.#guidOf(this.#pp);
    return this.#guid;
  }

  /** dds_get_guid: a participant's, writer's or reader's 16-byte DDSI GUID (prefix + entity id). */
  #guidOf(entity: number): Uint8Array {
    const guid = Buffer.alloc(16);
    check(this.#api, Number(this.#api.get_guid(entity, guid)), "dds_get_guid");
    return new Uint8Array(guid);
  }

  #isSelf(participantKey: ArrayLike<number>): boolean {
    return Buffer.from(Array.from(participantKey)).equals(this.guid);
  }

  /** A discovered endpoint's QoS in our terms (defaults where the sample does not say). */
  #qosOf(qos: unknown): QoSProfile {
    const api = this.#api;
    const kind = [0];
    const depth = [1];
    const blocking = [0n];
    const reliable = qos !== null && (api.qget_reliability(qos, kind, blocking) as boolean) && kind[0] === RELIABILITY.reliable;
    const transientLocal = qos !== null && (api.qget_durability(qos, kind) as boolean) && kind[0] === DURABILITY.transient_local;
    const keepAll = qos !== null && (api.qget_history(qos, kind, depth) as boolean) && kind[0] === HISTORY.keep_all;
    return {
      history: keepAll ? "keep_all" : "keep_last",
      depth: keepAll ? 0 : Math.max(1, depth[0] ?? 1),
      reliability: reliable ? "reliable" : "best_effort",
      durability: transientLocal ? "transient_local" : "volatile",
    };
  }

  readonly #builtin = new Map<string, number>();

  #readBuiltin(kind: keyof typeof BUILTIN_TOPIC, each: (sample: unknown) => void): void {
    const api = this.#api;
    let reader = this.#builtin.get(kind);
    if (reader === undefined) {
      reader = check(api, Number(api.create_reader(this.#pp, BUILTIN_TOPIC[kind], null, null)), `builtin ${kind} reader`);
      this.#builtin.set(kind, reader);
    }
    const buf: unknown[] = new Array<unknown>(DISCOVERY_BATCH).fill(null);
    const si = Buffer.alloc(SAMPLE_INFO_SIZE * DISCOVERY_BATCH);
    const n = check(api, Number(api.read_mask(reader, buf, si, DISCOVERY_BATCH, DISCOVERY_BATCH, ALIVE_MASK)), `dds_read(builtin ${kind})`);
    try {
      for (let i = 0; i < n; i++) if (si[i * SAMPLE_INFO_SIZE + SAMPLE_INFO_VALID_DATA] !== 0) each(buf[i]);
    } finally {
      if (n > 0) api.return_loan(reader, buf, n);
    }
  }

  /** Stops the receive loop and deletes the participant with everything in it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#api.set_guardcondition(this.#guard, true);
    await this.#waiting;
    this.#api.delete(this.#pp);
  }

  #topic(rosTopic: string, rosType: string, options: DdsEndpointOptions): TopicEntry {
    const name = options.avoidRosNamespaceConventions === true ? rosTopic : ddsTopicName(rosTopic);
    const have = this.#topics.get(name);
    if (have !== undefined) {
      if (have.typeName !== rosType) throw new Error(`DDS topic ${name} has type ${have.typeName} in this process; cannot use it as ${rosType}`);
      return have;
    }
    const api = this.#api;
    const { ops, sampleSize } = topicOps(rosType, this.#lookup);
    const desc = {
      m_size: sampleSize,
      m_align: 8,
      m_flagset: 1, // DDS_TOPIC_NO_OPTIMIZE: the zero offsets must never be taken for a memcpy layout
      m_nkeys: 0,
      m_typename: ddsTypeName(rosType),
      m_keys: null,
      m_nops: ops.length,
      m_ops: [...ops],
      m_meta: null,
      type_information_data: null,
      type_information_sz: 0,
      type_mapping_data: null,
      type_mapping_sz: 0,
      restrict_data_representation: 0,
    };
    const entity = check(api, Number(api.create_topic(this.#pp, desc, name, null, null)), `dds_create_topic(${name}, ${desc.m_typename})`);
    const entry: TopicEntry = { entity, typeName: rosType, sertype: this.#probeSertype(entity, sampleSize, name) };
    this.#topics.set(name, entry);
    return entry;
  }

  /**
   * The topic's sertype pointer, which ddsi_serdata_from_ser_iov needs and Cyclone 0.10's API
   * does not return: a writer and reader pair in a private partition exchange one all-zero sample,
   * and the received serdata names its sertype. The pair is deleted at once.
   */
  #probeSertype(topic: number, sampleSize: number, name: string): unknown {
    const api = this.#api;
    const q: unknown = api.create_qos();
    try {
      api.qset_reliability(q, RELIABILITY.reliable, MAX_BLOCKING_NS);
      api.qset_partition1(q, PROBE_PARTITION);
      const w = check(api, Number(api.create_writer(this.#pp, topic, q, null)), `sertype probe writer (${name})`);
      const r = check(api, Number(api.create_reader(this.#pp, topic, q, null)), `sertype probe reader (${name})`);
      try {
        check(api, Number(api.write(w, Buffer.alloc(sampleSize))), `sertype probe write (${name})`);
        const out: unknown[] = [null];
        const n = check(api, Number(api.takecdr(r, out, 1, this.#si, 0)), `sertype probe take (${name})`);
        if (n !== 1 || out[0] === null) throw new Error(`sertype probe on ${name}: the local sample did not arrive`);
        const sertype: unknown = api.koffi.decode(out[0], SERDATA_TYPE_OFFSET, "void *");
        api.serdata_unref(out[0]);
        return sertype;
      } finally {
        api.delete(w);
        api.delete(r);
      }
    } finally {
      api.delete_qos(q);
    }
  }

  #withQos<T>(qos: QoSProfile, fn: (q: unknown) => T): T {
    const api = this.#api;
    const q: unknown = api.create_qos();
    try {
      api.qset_reliability(q, RELIABILITY[qos.reliability], MAX_BLOCKING_NS);
      api.qset_durability(q, DURABILITY[qos.durability]);
      api.qset_history(q, HISTORY[qos.history], qos.history === "keep_last" ? qos.depth : -1);
      // In-process subscribers are served by the embedded bus; DDS carries only what leaves it.
      api.qset_ignorelocal(q, IGNORELOCAL_PARTICIPANT);
      return fn(q);
    } finally {
      api.delete_qos(q);
    }
  }

  #startWaiting(): void {
    if (this.#waiting !== undefined || this.#closed) return;
    this.#waiting = new Promise<void>((resolve) => {
      const loop = (): void => {
        this.#api.waitset_wait.async(this.#ws, this.#xs, this.#xs.length / 8, WAIT_SLICE_NS, (err: unknown, count: number) => {
          if (this.#closed) return resolve();
          if (err === null || err === undefined) {
            for (let i = 0; i < count; i++) {
              const x = Number(this.#xs.readBigInt64LE(8 * i));
              if (x !== 0) this.#drain(x);
            }
          }
          loop();
        });
      };
      loop();
    });
  }

  #drain(cond: number): void {
    const entry = this.#readers.get(cond);
    if (entry === undefined) return;
    const api = this.#api;
    const out: unknown[] = [null];
    for (;;) {
      const n = Number(api.takecdr(entry.reader, out, 1, this.#si, 0));
      if (n <= 0) return;
      const serdata = out[0];
      const valid = this.#si[SAMPLE_INFO_VALID_DATA] !== 0;
      let bytes: Uint8Array | undefined;
      if (valid) {
        const size = Number(api.serdata_size(serdata));
        bytes = Buffer.allocUnsafe(size);
        api.serdata_to_ser(serdata, 0, size, bytes);
      }
      api.serdata_unref(serdata);
      if (bytes !== undefined) entry.onSample(bytes);
    }
  }
}
