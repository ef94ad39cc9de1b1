import { connect, type Socket } from "node:net";
import type { Parameter, QoSProfile, SetParametersResult } from "../graph/types";
import { encodeJsonFrame, encodePublishHeader, FrameDecoder } from "./frames";
import type { LaunchInfo, PublishHeader, Request, Response, ServerEvent, StatsResult, SubscribeResult, TopicEntry, TopicInfo } from "./protocol";
import { introspectionDir, listLaunchSockets } from "./socketDir";

/** Raised when no launch is listening; the message names the directory that was searched. */
export class NoLaunchFoundError extends Error {
  override readonly name = "NoLaunchFoundError";
  constructor(
    readonly dir: string,
    /** Launches that were running but did not match the scope, described (empty: none running). */
    readonly skipped: string[] = [],
    scope = "",
  ) {
    super(
      skipped.length === 0
        ? `no running drone-harness launch found (looked in ${dir})`
        : `no running drone-harness launch ${scope} found in ${dir}; running: ${skipped.join("; ")} (set ROS_DOMAIN_ID or pass --launch NAME to choose one)`,
    );
  }
}

/** "launch/sim.launch.xml (pid 42, ROS_DOMAIN_ID 0)": how the CLI says which launch it attached to. */
export function describeLaunch(info: LaunchInfo): string {
  return `${info.launchFile} (pid ${info.pid}, ROS_DOMAIN_ID ${info.domainId ?? 0})`;
}

/** The ROS_DOMAIN_ID of `env` (0 when unset, as ROS 2); throws naming a value that is not an integer 0..232. */
export function domainIdOf(env: Record<string, string | undefined> = process.env): number {
  const text = env.ROS_DOMAIN_ID;
  if (text === undefined || text.trim() === "") return 0;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 232) throw new RangeError(`ROS_DOMAIN_ID=${JSON.stringify(text)}, expected an integer in [0, 232]`);
  return n;
}

/** Whether `info` is the launch named `name`: its file path, file name, or file name without .launch.xml / .xml. */
function launchNamed(info: LaunchInfo, name: string): boolean {
  const file = info.launchFile.split(/[\\/]/).pop() ?? info.launchFile;
  return info.launchFile === name || file === name || file.replace(/\.launch\.xml$|\.xml$/, "") === name;
}

/** A message delivered to a raw subscription: CDR bytes (with the 4-byte encapsulation header). */
export type RawMessage = { bytes: Uint8Array; typeName: string | undefined; receiveTimeNs: bigint };

/** A raw subscription held by a GraphClient. */
export type ClientSubscription = {
  readonly subscriptionId: number;
  readonly topic: string;
  /** Type once known (at subscribe time if the topic exists, else with the first message). */
  readonly typeName: string | undefined;
  unsubscribe(): Promise<void>;
};

export type ConnectOptions = {
  /** A socket path (e.g. from `--socket`); default: the newest live launch in `dir`. */
  socketPath?: string;
  /** Directory to search; default introspectionDir(). */
  dir?: string;
  /** Attach only to a launch of this ROS_DOMAIN_ID (default: this process's ROS_DOMAIN_ID, else 0). */
  domainId?: number;
  /** Attach only to a launch of this file (path, file name, or name without .launch.xml). */
  launch?: string;
};

/** A request without its id (distributive, so each op keeps its own fields). */
type RequestBody = Request extends infer R ? (R extends Request ? Omit<R, "id"> : never) : never;

type Pending = { resolve: (r: Response) => void; reject: (e: Error) => void };
type SubState = { topic: string; typeName: string | undefined; callback: (m: RawMessage) => void };

/**
 * Client of a running launch's introspection socket (GraphServer): the channel `drone-harness
 * topic|node|param` and `bag record` use from their own processes.
 *
 *   const client = await GraphClient.connect();
 *   const topics = await client.listTopics();
 *   const sub = await client.subscribeRaw("/camera/image_raw", (m) => writer.write(m.bytes));
 *   await client.publishRaw("/clock", "rosgraph_msgs/msg/Clock", clockCdr);
 *   await sub.unsubscribe(); client.close();
 */
export class GraphClient {
  readonly #socket: Socket;
  readonly #pending = new Map<number, Pending>();
  readonly #subs = new Map<number, SubState>();
  #nextId = 1;
  #closed = false;
  #closeError: Error | undefined;
  readonly #closedListeners: Array<() => void> = [];
  readonly socketPath: string;
  /** The launch attached to, when found by discovery (connect without socketPath). */
  launchInfo: LaunchInfo | undefined;

  private constructor(socket: Socket, socketPath: string) {
    this.#socket = socket;
    this.socketPath = socketPath;
    const decoder = new FrameDecoder();
    socket.on("data", (chunk: Buffer) => {
      let frames;
      try {
        frames = decoder.push(chunk);
      } catch (err) {
        this.#fail(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      for (const f of frames) {
        if (f.kind === "message") {
          const s = this.#subs.get(f.subscriptionId);
          s?.callback({ bytes: f.bytes, typeName: s.typeName, receiveTimeNs: f.receiveTimeNs });
          continue;
        }
        if (f.kind !== "json") {
          this.#fail(new Error("the launch sent a PUBLISH frame, which only clients send"));
          socket.destroy();
          return;
        }
        const v = f.value as Response | ServerEvent;
        if ("event" in v) {
          if (v.event === "subscriptionType") {
            const s = this.#subs.get(v.subscriptionId);
            if (s !== undefined) s.typeName = v.typeName;
          }
          continue;
        }
        const p = this.#pending.get(v.id);
        this.#pending.delete(v.id);
        p?.resolve(v);
      }
    });
    socket.on("error", (err) => this.#fail(err));
    socket.on("close", () => this.#fail(new Error("the launch closed the introspection connection")));
  }

  /**
   * Connects to `options.socketPath`, or to the newest launch in the same ROS domain (and of the
   * named launch file, if given) that accepts a connection, as ROS 2 tools only see their domain.
   */
  static async connect(options: ConnectOptions = {}): Promise<GraphClient> {
    if (options.socketPath !== undefined) return GraphClient.#open(options.socketPath);
    const dir = options.dir ?? introspectionDir();
    const domainId = options.domainId ?? domainIdOf();
    const skipped: string[] = [];
    for (const candidate of listLaunchSockets(dir)) {
      let client: GraphClient;
      try {
        client = await GraphClient.#open(candidate.path);
      } catch {
        // A stale socket of a launch that died without cleaning up: try the next one.
        continue;
      }
      let info: LaunchInfo;
      try {
        info = await client.info();
      } catch {
        client.close();
        continue;
      }
      if ((info.domainId ?? 0) === domainId && (options.launch === undefined || launchNamed(info, options.launch))) {
        client.launchInfo = info;
        return client;
      }
      skipped.push(describeLaunch(info));
      client.close();
    }
    throw new NoLaunchFoundError(dir, skipped, `in ROS_DOMAIN_ID ${domainId}${options.launch === undefined ? "" : ` of ${options.launch}`}`);
  }

  static #open(path: string): Promise<GraphClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      socket.once("error", reject);
      socket.once("connect", () => {
        socket.off("error", reject);
        resolve(new GraphClient(socket, path));
      });
    });
  }

  /** Resolves when the connection ends (the launch stopped or close() was called). */
  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#closedListeners.push(listener);
  }

  info(): Promise<LaunchInfo> {
    return this.#call({ op: "info" }) as Promise<LaunchInfo>;
  }

  /** Fully qualified node names, sorted. */
  listNodes(): Promise<string[]> {
    return this.#call({ op: "listNodes" }) as Promise<string[]>;
  }

  listTopics(): Promise<TopicEntry[]> {
    return this.#call({ op: "listTopics" }) as Promise<TopicEntry[]>;
  }

  /** Publishers and subscriptions of `topic` (absolute name) with node names and QoS, as `ros2 topic info -v`. */
  topicInfo(topic: string): Promise<TopicInfo> {
    return this.#call({ op: "topicInfo", topic }) as Promise<TopicInfo>;
  }

  /** Delivery counts of this client's subscriptions, including messages the server dropped because this client read too slowly. */
  stats(): Promise<StatsResult> {
    return this.#call({ op: "stats" }) as Promise<StatsResult>;
  }

  /**
   * Publishes CDR bytes (with the 4-byte encapsulation header) on `topic` (absolute name) in the
   * launch's graph, with `qos` (default: the graph's default profile). Resolves once the launch has
   * published it; rejects with the launch's error (unknown type, bad QoS). Calls keep their order.
   */
  publishRaw(topic: string, typeName: string, bytes: Uint8Array, qos?: QoSProfile): Promise<void> {
    if (this.#closed) return Promise.reject(this.#closeError ?? new Error("connection closed"));
    const id = this.#nextId++;
    const header: PublishHeader = qos === undefined ? { topic, typeName } : { topic, typeName, qos };
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve: (r) => (r.ok ? resolve() : reject(new Error(r.error))), reject });
      this.#socket.cork();
      this.#socket.write(encodePublishHeader(id, header, bytes.byteLength));
      this.#socket.write(bytes);
      this.#socket.uncork();
    });
  }

  /** Teaches the launch `typeName` from its full ros2msg text (a bag's schema); resolves once it knows it. */
  async registerType(typeName: string, schemaText: string): Promise<void> {
    await this.#call({ op: "registerType", typeName, schemaText });
  }

  listParams(node: string): Promise<string[]> {
    return this.#call({ op: "listParams", node }) as Promise<string[]>;
  }

  getParam(node: string, name: string): Promise<Parameter> {
    return this.#call({ op: "getParam", node, name }) as Promise<Parameter>;
  }

  /** `value` is typed as on a command line: "1" integer, "1.0" double, "true" bool, "[1, 2]" array. */
  setParam(node: string, name: string, value: string): Promise<SetParametersResult> {
    return this.#call({ op: "setParam", node, name, value }) as Promise<SetParametersResult>;
  }

  /** Every message on `topic` (absolute name) as CDR bytes; decode with the MessageRegistry. */
  async subscribeRaw(topic: string, callback: (message: RawMessage) => void): Promise<ClientSubscription> {
    const r = (await this.#call({ op: "subscribe", topic })) as SubscribeResult;
    const state: SubState = { topic: r.topic, typeName: r.typeName, callback };
    // Messages can arrive right after the response; register before yielding to the event loop.
    this.#subs.set(r.subscriptionId, state);
    return {
      subscriptionId: r.subscriptionId,
      topic: r.topic,
      get typeName() {
        return state.typeName;
      },
      unsubscribe: async () => {
        this.#subs.delete(r.subscriptionId);
        if (!this.#closed) await this.#call({ op: "unsubscribe", subscriptionId: r.subscriptionId });
      },
    };
  }

  close(): void {
    this.#socket.end();
    this.#fail(new Error("client closed"));
  }

  #call(req: RequestBody): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closeError ?? new Error("connection closed"));
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, {
        resolve: (r) => (r.ok ? resolve(r.result) : reject(new Error(r.error))),
        reject,
      });
      this.#socket.write(encodeJsonFrame({ ...req, id }));
    });
  }

  #fail(err: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#closeError = err;
    for (const p of this.#pending.values()) p.reject(err);
    this.#pending.clear();
    for (const l of this.#closedListeners.splice(0)) l();
  }
}
