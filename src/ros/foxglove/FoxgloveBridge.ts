import { FoxgloveServer } from "@foxglove/ws-protocol";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
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
};

export const FOXGLOVE_DEFAULT_PORT = 8765;

/**
 * A Foxglove WebSocket protocol server (foxglove.websocket.v1, @foxglove/ws-protocol) over a
 * graph: every topic is a channel with encoding "cdr" and its full ros2msg schema, so Foxglove or
 * Lichtblick decode the camera, detections, /cmd_vel and /diagnostics live. A topic is read (one
 * raw subscription, QoS chosen as ros2cli does) only while some client subscribes to it. On the
 * DDS middleware the graph's discovery also shows the topics of other processes.
 */
export class FoxgloveBridge {
  readonly host: string;
  readonly port: number;
  readonly #wss: WebSocketServer;
  readonly #server: FoxgloveServer;
  readonly #graph: EmbeddedGraph;
  readonly #channels = new Map<string, number>();
  readonly #topicOf = new Map<number, string>();
  readonly #reading = new Map<number, RawSubscription>();
  readonly #refresh: NodeJS.Timeout;

  private constructor(graph: EmbeddedGraph, wss: WebSocketServer, server: FoxgloveServer, host: string, port: number, refreshMs: number) {
    this.#graph = graph;
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
    this.refreshChannels();
    this.#refresh = setInterval(() => this.refreshChannels(), refreshMs);
    this.#refresh.unref();
  }

  /** Listens on host:port (default 127.0.0.1:8765); rejects naming the address when it cannot bind. */
  static async start(graph: EmbeddedGraph, options: FoxgloveBridgeOptions = {}): Promise<FoxgloveBridge> {
    const host = options.host ?? "127.0.0.1";
    const port = options.port ?? FOXGLOVE_DEFAULT_PORT;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`foxglove port=${port}, expected an integer in 0..65535`);
    const server = new FoxgloveServer({ name: "drone-harness" });
    const wss = new WebSocketServer({ host, port, handleProtocols: (protocols) => server.handleProtocols(protocols) });
    await new Promise<void>((resolve, reject) => {
      wss.once("listening", resolve);
      wss.once("error", (error) => reject(new Error(`foxglove: cannot listen on ${host}:${port}: ${error.message}`)));
    });
    wss.on("connection", (ws, req) => server.handleConnection(ws, `${req.socket.remoteAddress ?? "?"}:${req.socket.remotePort ?? 0}`));
    const bound = (wss.address() as AddressInfo).port;
    return new FoxgloveBridge(graph, wss, server, host, bound, options.refreshMs ?? 1000);
  }

  /** Advertises topics that appeared since the last look (and removes those that are gone). */
  refreshChannels(): void {
    const now = new Map<string, string>();
    for (const t of this.#graph.topicNamesAndTypes()) {
      const type = t.types[0];
      if (type !== undefined && this.#graph.registry.has(type)) now.set(t.name, type);
    }
    for (const [topic, type] of now) {
      if (this.#channels.has(topic)) continue;
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
    for (const client of this.#wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #subscribe(channel: number): void {
    const topic = this.#topicOf.get(channel);
    if (topic === undefined || this.#reading.has(channel)) return;
    const qos = toolQos(this.#graph.topicInfo(topic).publishers);
    const sub = this.#graph.subscribeRaw(topic, (bytes, _type, receiveTimeNs) => this.#server.sendMessage(channel, receiveTimeNs, bytes), { qos });
    this.#reading.set(channel, sub);
  }
}
