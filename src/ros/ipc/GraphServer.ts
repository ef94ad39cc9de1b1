import { chmodSync, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import { encodeJsonFrame, encodeMessageHeader, FrameDecoder, SERVER_FRAME_LIMITS, type FrameLimits } from "./frames";
import { BadRequestError, parseRequest } from "./parseRequest";
import type { IntrospectionTarget, TargetSubscription } from "./IntrospectionTarget";
import type { QoSProfile } from "../graph/types";
import type { Frame } from "./frames";
import type { PublishHeader, Request, Response, ResponseResult, ServerEvent, StatsResult } from "./protocol";
import { ensurePrivateDir } from "./socketDir";

export type GraphServerOptions = {
  /** Bytes queued on one client socket beyond which messages to it are dropped (default 64 MiB). */
  maxQueuedBytes?: number;
  /** Connections served at once; one more is told why and closed (default 16). */
  maxClients?: number;
  /** Bytes of partial incoming frames buffered over all clients; the client that would pass it is dropped (default 128 MiB). */
  maxBufferedBytes?: number;
  /** Largest incoming frame by kind and message type (default SERVER_FRAME_LIMITS). */
  frameLimits?: FrameLimits;
  log?: (line: string) => void;
};

type ClientSubscription = { sub: TargetSubscription; typeName: string | undefined; sent: number; dropped: number };

const HISTORY = ["keep_last", "keep_all"] as const;
const RELIABILITY = ["reliable", "best_effort"] as const;
const DURABILITY = ["volatile", "transient_local"] as const;

function oneOf<T extends string>(what: string, value: unknown, valid: readonly T[]): T {
  if (typeof value === "string" && (valid as readonly string[]).includes(value)) return value as T;
  throw new RangeError(`${what}=${JSON.stringify(value)}, expected one of ${valid.join(", ")}`);
}

/** Checks the header of a PUBLISH frame; errors name the field and the valid values. */
export function parsePublishHeader(value: unknown): PublishHeader {
  const h = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof h.topic !== "string" || !h.topic.startsWith("/")) throw new RangeError(`publish topic=${JSON.stringify(h.topic)}, expected an absolute name (start with "/")`);
  if (typeof h.typeName !== "string" || h.typeName === "") throw new RangeError(`publish typeName=${JSON.stringify(h.typeName)}, expected "pkg/msg/Name"`);
  if (h.qos === undefined) return { topic: h.topic, typeName: h.typeName };
  const q = (typeof h.qos === "object" && h.qos !== null ? h.qos : {}) as Record<string, unknown>;
  const qos: QoSProfile = {
    history: oneOf("qos.history", q.history, HISTORY),
    depth: typeof q.depth === "number" ? q.depth : NaN,
    reliability: oneOf("qos.reliability", q.reliability, RELIABILITY),
    durability: oneOf("qos.durability", q.durability, DURABILITY),
  };
  if (!Number.isInteger(qos.depth) || qos.depth < 0) throw new RangeError(`qos.depth=${JSON.stringify(q.depth)}, expected an integer >= 0`);
  return { topic: h.topic, typeName: h.typeName, qos };
}

/**
 * Serves an IntrospectionTarget on a Unix domain socket in a private (0700) directory: JSON
 * requests and raw CDR PUBLISH frames in, JSON responses and raw CDR MESSAGE frames out
 * (frames.ts). No network listener. A client that reads slower than its subscriptions produce
 * loses messages once `maxQueuedBytes` are queued on its socket; the `stats` op reports how many.
 */
export class GraphServer {
  readonly #target: IntrospectionTarget;
  readonly #maxQueued: number;
  readonly #maxClients: number;
  readonly #maxBuffered: number;
  readonly #limits: FrameLimits;
  readonly #log: (line: string) => void;
  /** Each connected client with its frame decoder (its partial frame counts against maxBufferedBytes). */
  readonly #sockets = new Map<Socket, FrameDecoder>();
  #server: Server | undefined;
  #path: string | undefined;
  /** Removes the socket file if the process exits without close() (a crash must not leave a stale socket). */
  readonly #unlinkOnExit = (): void => {
    if (this.#path !== undefined) unlinkQuietly(this.#path);
  };

  constructor(target: IntrospectionTarget, options: GraphServerOptions = {}) {
    this.#target = target;
    this.#maxQueued = options.maxQueuedBytes ?? 64 * 1024 * 1024;
    this.#maxClients = options.maxClients ?? 16;
    this.#maxBuffered = options.maxBufferedBytes ?? 128 * 1024 * 1024;
    this.#limits = options.frameLimits ?? SERVER_FRAME_LIMITS;
    this.#log = options.log ?? (() => undefined);
  }

  /** Clients connected now. */
  get clientCount(): number {
    return this.#sockets.size;
  }

  get socketPath(): string | undefined {
    return this.#path;
  }

  /** Listens on `socketPath` (its directory is created 0700 or checked); the socket file is 0600. */
  async listen(socketPath: string): Promise<void> {
    ensurePrivateDir(dirname(socketPath));
    unlinkQuietly(socketPath);
    const server = createServer((socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
    chmodSync(socketPath, 0o600);
    this.#server = server;
    this.#path = socketPath;
    process.on("exit", this.#unlinkOnExit);
  }

  /** Tells clients, closes every connection and removes the socket file. */
  async close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    this.#server = undefined;
    for (const socket of this.#sockets.keys()) {
      const closing: ServerEvent = { event: "closing" };
      socket.end(encodeJsonFrame(closing));
    }
    await new Promise<void>((resolve) => server.close(() => resolve()));
    process.off("exit", this.#unlinkOnExit);
    if (this.#path !== undefined) unlinkQuietly(this.#path);
  }

  /** Bytes of partial frames buffered over all clients. */
  #bufferedBytes(): number {
    let total = 0;
    for (const d of this.#sockets.values()) total += d.bufferedBytes;
    return total;
  }

  #accept(socket: Socket): void {
    if (this.#sockets.size >= this.#maxClients) {
      this.#log(`introspection: refusing a client: ${this.#maxClients} clients are connected (the limit)`);
      const refused: Response = { id: -1, ok: false, error: `the launch serves at most ${this.#maxClients} introspection clients at once; try again later` };
      socket.on("error", () => socket.destroy());
      socket.end(encodeJsonFrame(refused), () => socket.destroy());
      return;
    }
    const decoder = new FrameDecoder(this.#limits);
    this.#sockets.set(socket, decoder);
    const subs = new Map<number, ClientSubscription>();
    let nextSub = 1;
    const send = (value: Response | ServerEvent): void => {
      if (!socket.destroyed) socket.write(encodeJsonFrame(value));
    };
    const cleanup = (): void => {
      for (const s of subs.values()) s.sub.destroy();
      subs.clear();
      this.#sockets.delete(socket);
    };
    socket.on("close", cleanup);
    socket.on("error", () => socket.destroy());
    /** Answers with the problem, then closes: a client that breaks the protocol is dropped, never the launch. */
    const drop = (err: unknown, id = -1): void => {
      const message = err instanceof Error ? err.message : String(err);
      this.#log(`introspection: dropping client: ${message}`);
      const response: Response = { id, ok: false, error: message };
      dropped = true;
      cleanup();
      if (!socket.destroyed) socket.end(encodeJsonFrame(response), () => socket.destroy());
    };
    let dropped = false;
    socket.on("data", (chunk: Buffer) => {
      if (dropped) return;
      try {
        this.#serve(decoder.push(chunk), socket, subs, () => nextSub++, send);
        if (decoder.bufferedBytes > 0 && this.#bufferedBytes() > this.#maxBuffered) {
          throw new RangeError(`partial frames of all clients exceed ${this.#maxBuffered} bytes (this client holds ${decoder.bufferedBytes})`);
        }
      } catch (err) {
        drop(err, err instanceof BadRequestError ? err.id : -1);
      }
    });
  }

  /** Handles decoded frames; throws (dropping the client) on a frame a client must not send or a bad request shape. */
  #serve(frames: Frame[], socket: Socket, subs: Map<number, ClientSubscription>, newId: () => number, send: (value: Response | ServerEvent) => void): void {
    for (const frame of frames) {
      if (frame.kind === "publish") {
        try {
          const header = parsePublishHeader(frame.header);
          // A copy: the frame is a view of the socket's read buffer, and the graph may keep the
          // message (transient_local history, queued deliveries).
          this.#target.publishRaw(header.topic, header.typeName, Uint8Array.prototype.slice.call(frame.bytes), header.qos);
          send({ id: frame.id, ok: true, result: null });
        } catch (err) {
          send({ id: frame.id, ok: false, error: err instanceof Error ? err.message : String(err) });
        }
        continue;
      }
      if (frame.kind !== "json") throw new RangeError("introspection MESSAGE frame from a client (only the launch sends them)");
      const req = parseRequest(frame.value);
      try {
        const result = this.#handle(req, subs, newId, socket, send);
        send({ id: req.id, ok: true, result });
      } catch (err) {
        send({ id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    }
}

  #handle(
    req: Request,
    subs: Map<number, ClientSubscription>,
    newId: () => number,
    socket: Socket,
    send: (value: Response | ServerEvent) => void,
  ): ResponseResult {
    const t = this.#target;
    switch (req.op) {
      case "info":
        return t.info();
      case "listNodes":
        return t.listNodes();
      case "listTopics":
        return t.listTopics();
      case "topicInfo":
        if (typeof req.topic !== "string" || !req.topic.startsWith("/")) throw new RangeError(`topic "${String(req.topic)}" must be an absolute name (start with "/")`);
        return t.topicInfo(req.topic);
      case "stats": {
        const result: StatsResult = { subscriptions: [] };
        for (const [subscriptionId, s] of subs) {
          result.subscriptions.push({ subscriptionId, topic: s.sub.topic, sent: s.sent, droppedSlowClient: s.dropped, droppedQueue: s.sub.droppedCount?.() ?? 0 });
        }
        return result;
      }
      case "listParams":
        return t.listParams(req.node);
      case "getParam":
        return t.getParam(req.node, req.name);
      case "setParam":
        return t.setParam(req.node, req.name, req.value);
      case "registerType":
        if (typeof req.typeName !== "string" || typeof req.schemaText !== "string") throw new RangeError("registerType needs typeName and schemaText strings");
        if (t.registerType === undefined) throw new Error(`this launch cannot learn message types (${req.typeName})`);
        t.registerType(req.typeName, req.schemaText);
        return null;
      case "unsubscribe": {
        subs.get(req.subscriptionId)?.sub.destroy();
        subs.delete(req.subscriptionId);
        return null;
      }
      case "subscribe": {
        if (typeof req.topic !== "string" || !req.topic.startsWith("/")) throw new RangeError(`topic "${String(req.topic)}" must be an absolute name (start with "/")`);
        const subscriptionId = newId();
        const entry: ClientSubscription = { sub: { topic: req.topic, destroy: () => undefined }, typeName: t.topicType(req.topic), sent: 0, dropped: 0 };
        entry.sub = t.subscribeRaw(req.topic, (bytes, typeName, receiveTimeNs) => {
          if (socket.destroyed) return;
          if (typeName !== entry.typeName) {
            entry.typeName = typeName;
            send({ event: "subscriptionType", subscriptionId, typeName });
          }
          if (socket.writableLength > this.#maxQueued) {
            entry.dropped++;
            return;
          }
          entry.sent++;
          socket.cork();
          socket.write(encodeMessageHeader(subscriptionId, receiveTimeNs, bytes.byteLength));
          socket.write(bytes);
          socket.uncork();
        });
        subs.set(subscriptionId, entry);
        return { subscriptionId, topic: req.topic, typeName: entry.typeName };
      }
      default: {
        const op: never = req;
        throw new RangeError(`unknown request op ${JSON.stringify((op as { op?: unknown }).op)}`);
      }
    }
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already removed (or never created).
  }
}
