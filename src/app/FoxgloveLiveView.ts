/**
 * The main job's Foxglove live view (`drone-harness sim --foxglove [port]`): one Foxglove
 * WebSocket server for the whole job, attached to each flight's graph in turn. A viewer that
 * stays connected sees the channels of one flight unadvertised when it ends and those of the next
 * advertised when it starts (Foxglove and Lichtblick subscribe again by topic name). The
 * lock-step flights are never slowed down for a viewer: they run faster than real time, and
 * messages a slow viewer cannot take are dropped (FoxgloveBridge's maxBufferedBytes).
 */
import type { EmbeddedGraph } from "../ros/graph/EmbeddedGraph";
import { FoxgloveBridge } from "../ros/foxglove/FoxgloveBridge";

export class FoxgloveLiveView {
  readonly #bridge: FoxgloveBridge;
  readonly #err: (text: string) => void;

  private constructor(bridge: FoxgloveBridge, err: (text: string) => void) {
    this.#bridge = bridge;
    this.#err = err;
  }

  /** Binds host:port before any flight (a busy port rejects with FoxgloveListenError) and says where it listens on stderr. */
  static async start(address: { host: string; port: number }, io: { err: (text: string) => void }): Promise<FoxgloveLiveView> {
    const bridge = await FoxgloveBridge.listen(address);
    io.err(
      `main job: Foxglove WebSocket on ws://${bridge.host}:${bridge.port} for the whole job, each flight's topics in turn ` +
        `(open it in Foxglove or Lichtblick: "Foxglove WebSocket" connection; flights run faster than real time, a slow viewer misses messages)\n`,
    );
    return new FoxgloveLiveView(bridge, io.err);
  }

  get port(): number {
    return this.#bridge.port;
  }

  /** A flight's nodes run: serve its graph (flyFlight's onGraph). */
  attach(graph: EmbeddedGraph): Promise<void> {
    this.#bridge.attach(graph);
    return Promise.resolve();
  }

  /** The flight ended: its channels are unadvertised. */
  detach(): void {
    this.#bridge.detach();
  }

  async close(): Promise<void> {
    const dropped = this.#bridge.droppedMessages;
    if (dropped > 0) this.#err(`main job: Foxglove: ${dropped} messages dropped for viewers that could not keep up\n`);
    await this.#bridge.close();
  }
}
