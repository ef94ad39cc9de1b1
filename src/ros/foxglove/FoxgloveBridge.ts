import { FoxgloveServer } from "@foxglove/ws-protocol";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import type { EmbeddedGraph } from "../graph/EmbeddedGraph";
import type { RawSubscription } from "../graph/raw";
import { toolQos } from "../launch/launchIntrospection";

export type FoxgloveBridgeOptions = {
  /** TCP port; default 8765 (Foxglove's default for its WebSocket protocol); 0 picks a free one. */
  port?: number;
  /** Bind address; default 127.0.0.1, so nothing off this machine can connect unless asked for. */
  host?: string;
  /** How often new topics are looked for and advertised, ms (default 1000). */
  refreshMs?: number;
  /**
   * Bytes that may wait in a client's send buffer before further messages to that client are
   * dropped (default 8 MiB, about 40 256x256 camera images): a slow viewer misses messages
   * instead of growing this process's memory or slowing the graph down.
   */
  maxBufferedBytes?: number;
};

export const FOXGLOVE_DEFAULT_PORT = 8765;

const DEFAULT_MAX_BUFFERED_BYTES = 8 * 2 ** 20;

/** The server could not bind its address (most often: the port is in use). */
export class FoxgloveListenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
    cause: string,
  ) {
    super(`foxglove: cannot listen on ${host}:${port}: ${cause}${code === "EADDRINUSE" ? ` (port ${port} is in use; choose another port, or 0 for a free one)` : ""}`);
    this.name = "FoxgloveListenError";
  }
}

/**
 * A Foxglove WebSocket protocol server (foxglove.websocket.v1, @foxglove/ws-protocol) over a
 * graph: every topic is a channel with encoding "cdr" and its full ros2msg schema, so Foxglove or
 * Lichtblick decode the camera, detections, /cmd_vel and /diagnostics live. A topic is read (one
 * raw subscription, QoS chosen as ros2cli does) only while some client subscribes to it. On the
 * DDS middleware the graph's discovery also shows the topics of other processes.
 *
 * The server outlives graphs: `attach` serves another graph on the same port (the main job's
 * flights, one after the other), unadvertising the previous graph's channels and advertising
 * the new ones to the clients that stay connected.
 */
export class FoxgloveBridge {
  readonly host: string;
  readonly port: number;
  readonly #wss: WebSocketServer;
  readonly #server: FoxgloveServer;
  #graph: EmbeddedGraph | undefined;
  readonly #channels = new Map<string, number>();
  readonly #topicOf = new Map<number, string>();
  readonly #reading = new Map<number, RawSubscription>();
  readonly #refresh: NodeJS.Timeout;
  #dropped = 0;

  private constructor(wss: WebSocketServer, server: FoxgloveServer, host: string, port: number, refreshMs: number) {
    this.#wss = wss;
    this.#server = server;
    this.host = host;
    this.port = port;
    server.on("subscribe", (channel) => this.#subscribe(channel));
    server.on("unsubscribe", (channel) => {
      this.#reading.get(channel)?.destroy();
      this.#reading.delete(channel);
    });
    server.on("error", () => undefined);
    this.#refresh = setInterval(() => this.refreshChannels(), refreshMs);
    this.#refresh.unref();
  }

  /** Listens on host:port (default 127.0.0.1:8765) and serves `graph`; rejects with a FoxgloveListenError when it cannot bind. */
  static async start(graph: EmbeddedGraph, options: FoxgloveBridgeOptions = {}): Promise<FoxgloveBridge> {
    const bridge = await FoxgloveBridge.listen(options);
    bridge.attach(graph);
    return bridge;
  }

  /** Listens on host:port (default 127.0.0.1:8765) with no graph yet (no channels until `attach`). */
  static async listen(options: FoxgloveBridgeOptions = {}): Promise<FoxgloveBridge> {
    const host = options.host ?? "127.0.0.1";
    const port = options.port ?? FOXGLOVE_DEFAULT_PORT;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`foxglove port=${port}, expected an integer in 0..65535`);
    const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    const server = new FoxgloveServer({ name: "drone-harness" });
    const wss = new WebSocketServer({ host, port, handleProtocols: (protocols) => server.handleProtocols(protocols) });
    await new Promise<void>((resolve, reject) => {
      wss.once("listening", resolve);
      wss.once("error", (error: NodeJS.ErrnoException) => reject(new FoxgloveListenError(host, port, error.code, error.message)));
    });
    const bound = (wss.address() as AddressInfo).port;
    const bridge = new FoxgloveBridge(wss, server, host, bound, options.refreshMs ?? 1000);
    wss.on("connection", (ws, req) =>
      server.handleConnection(dropWhenBacklogged(ws, maxBuffered, () => bridge.#dropped++), `${req.socket.remoteAddress ?? "?"}:${req.socket.remotePort ?? 0}`),
    );
    return bridge;
  }

  /** Messages not sent to a client because its send buffer was full (summed over clients). */
  get droppedMessages(): number {
    return this.#dropped;
  }

  /** Serves `graph` from now on: the previous graph's channels are unadvertised, this one's advertised. */
  attach(graph: EmbeddedGraph): void {
    this.detach();
    this.#graph = graph;
    this.refreshChannels();
  }

  /** Stops reading the current graph and unadvertises its channels (clients stay connected). */
  detach(): void {
    this.#graph = undefined;
    this.refreshChannels();
  }

  /** Advertises topics that appeared since the last look (and removes those that are gone). */
  refreshChannels(): void {
    const now = new Map<string, string>();
    for (const t of this.#graph?.topicNamesAndTypes() ?? []) {
      const type = t.types[0];
      if (type !== undefined && this.#graph?.registry.has(type) === true) now.set(t.name, type);
    }
    for (const [topic, type] of now) {
      if (this.#channels.has(topic) || this.#graph === undefined) continue;
      const id = this.#server.addChannel({ topic, encoding: "cdr", schemaName: type, schema: this.#graph.registry.ros2msgText(type), schemaEncoding: "ros2msg" });
      this.#channels.set(topic, id);
      this.#topicOf.set(id, topic);
    }
    for (const [topic, id] of this.#channels) {
      if (now.has(topic)) continue;
      this.#reading.get(id)?.destroy();
      this.#reading.delete(id);
      this.#server.removeChannel(id);
      this.#channels.delete(topic);
      this.#topicOf.delete(id);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#refresh);
    for (const sub of this.#reading.values()) sub.destroy();
    this.#reading.clear();
    this.#graph = undefined;
    for (const client of this.#wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #subscribe(channel: number): void {
    const topic = this.#topicOf.get(channel);
    const graph = this.#graph;
    if (topic === undefined || graph === undefined || this.#reading.has(channel)) return;
    const qos = toolQos(graph.topicInfo(topic).publishers);
    const sub = graph.subscribeRaw(topic, (bytes, _type, receiveTimeNs) => this.#server.sendMessage(channel, receiveTimeNs, bytes), { qos });
    this.#reading.set(channel, sub);
  }
}

/**
 * Makes `ws` drop message data (binary frames) while more than `maxBufferedBytes` wait to be
 * sent to it; text frames (advertise, unadvertise, status) always go. The replacement `send`
 * takes one argument, so FoxgloveServer sends each message as one frame instead of a header
 * fragment and a payload fragment (it checks `send.length`): a message is dropped whole.
 */
function dropWhenBacklogged(ws: WebSocket, maxBufferedBytes: number, onDrop: () => void): WebSocket {
  const send = ws.send.bind(ws);
  const oneFrame = (data: string | Uint8Array): void => {
    if (typeof data !== "string" && ws.bufferedAmount > maxBufferedBytes) onDrop();
    else send(data);
  };
  ws.send = oneFrame as WebSocket["send"];
  return ws;
}
