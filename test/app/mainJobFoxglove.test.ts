/**
 * `drone-harness sim --foxglove 0`: one Foxglove WebSocket server for the whole main job, checked
 * from another process (the real CLI, bin/drone-harness.js, so `npm run build` must have run, as
 * `npm test` does; the same job under jest's module loader flew 4x slower) with the protocol's own client (@foxglove/ws-protocol's FoxgloveClient over `ws`), as
 * test/ros/foxglove/FoxgloveBridge.test.ts checks the bridge. The client connects once, to the
 * port the job reports on stderr, and stays connected: it sees the first flight's channels,
 * their unadvertisement when that flight ends, and the second flight's channels; it subscribes to
 * /cmd_vel and /camera/image_raw of each flight and decodes what arrives with a reader built
 * from the advertised ros2msg schema alone. A busy port fails before any flight, naming the port.
 * Needs the trained models in models/ (committed).
 */
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";
import { FoxgloveClient } from "@foxglove/ws-protocol";
import type { Channel } from "@foxglove/ws-protocol";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import WebSocket from "ws";

// Model loading, a 1-s warm-up and two 1-s lock-step flights without bags or report frames:
// 12 s at load average 8 on the shared 2-core machine; the limit leaves room for a worse load.
jest.setTimeout(120_000);

const ROOT = path.join(__dirname, "..", "..");

/**
 * Runs `drone-harness sim ...args` in a child process; `onErr` sees its stderr as it comes.
 * Resolves with the exit code and the whole stderr.
 */
function runSim(args: string[], onErr: (text: string) => void = () => undefined): Promise<{ code: number | null; err: string }> {
  const child = spawn(process.execPath, [path.join(ROOT, "bin", "drone-harness.js"), "sim", ...args], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (t: string) => {
    err += t;
    onErr(err);
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, err }));
  });
}

type Twist = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; twist: { linear: { x: number } } };
type Image = { header: { frame_id: string }; width: number; height: number; encoding: string; step: number; data: Uint8Array };

const WATCHED = ["/cmd_vel", "/camera/image_raw"];

/** What a viewer that stays connected for the whole job saw. */
class Viewer {
  /** Advertised watched channels, in order, with the flight (1, 2, ...) each belongs to. */
  readonly channels: Array<Channel & { flight: number }> = [];
  readonly unadvertised = new Set<number>();
  /** Decoded messages: topic, flight, message. */
  readonly messages: Array<{ topic: string; flight: number; msg: unknown }> = [];
  readonly client: FoxgloveClient;
  /** Resolves when the server closed the connection (every message sent before is handled). */
  readonly closed: Promise<void>;
  readonly #bySubscription = new Map<number, { channel: Channel & { flight: number }; reader: MessageReader }>();
  /** The last flight whose channels were unadvertised (0: none yet). */
  #ended = 0;

  constructor(port: number) {
    this.client = new FoxgloveClient({ ws: new WebSocket(`ws://127.0.0.1:${port}`, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) });
    this.closed = new Promise((resolve) => this.client.on("close", () => resolve()));
    this.client.on("advertise", (channels) => this.#advertised(channels));
    this.client.on("unadvertise", (ids) => {
      for (const id of ids) {
        this.unadvertised.add(id);
        this.#ended = Math.max(this.#ended, this.channels.find((c) => c.id === id)?.flight ?? 0);
      }
    });
    this.client.on("message", (m) => {
      const s = this.#bySubscription.get(m.subscriptionId);
      if (s === undefined) return;
      const msg = s.reader.readMessage(new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength));
      this.messages.push({ topic: s.channel.topic, flight: s.channel.flight, msg });
    });
  }

  #advertised(channels: Channel[]): void {
    // A flight's channels are advertised when it starts, after the previous flight's were unadvertised.
    for (const c of channels) {
      if (!WATCHED.includes(c.topic)) continue;
      const channel = { ...c, flight: this.#ended + 1 };
      this.channels.push(channel);
      const id = this.client.subscribe(c.id);
      this.#bySubscription.set(id, { channel, reader: new MessageReader(parse(c.schema, { ros2: true })) });
    }
  }
}

describe("drone-harness sim --foxglove (the main job's live view)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "dh-mainjob-fox-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("serves every flight on one port; a client that stays connected receives and decodes /cmd_vel and the camera of both flights", async () => {
    let viewer: Viewer | undefined;
    const { code, err } = await runSim(["--flights", "1", "--duration", "1", "--out", path.join(dir, "run"), "--samples", "0", "--bag-flights", "0", "--foxglove", "0"], (text) => {
      const m = /Foxglove WebSocket on ws:\/\/127\.0\.0\.1:(\d+) for the whole job/.exec(text);
      if (m !== null && viewer === undefined) viewer = new Viewer(Number(m[1]));
    });
    expect({ code, stderr: err }).toMatchObject({ code: 0 });
    if (viewer === undefined) throw new Error(`no Foxglove address on stderr:\n${err}`);
    await viewer.closed;
    expect(err.match(/Foxglove WebSocket on/g)).toHaveLength(1);

    // Two flights (harness ON, then OFF), each advertised with its own channel ids and full schema;
    // the first flight's channels were unadvertised when it ended.
    const v = viewer;
    const of = (topic: string, flight: number): Channel | undefined => v.channels.find((c) => c.topic === topic && c.flight === flight);
    for (const flight of [1, 2]) {
      expect(of("/cmd_vel", flight)).toMatchObject({ encoding: "cdr", schemaName: "geometry_msgs/msg/TwistStamped", schemaEncoding: "ros2msg" });
      expect(of("/camera/image_raw", flight)).toMatchObject({ encoding: "cdr", schemaName: "sensor_msgs/msg/Image", schemaEncoding: "ros2msg" });
    }
    expect(v.channels.filter((c) => c.topic === "/cmd_vel")).toHaveLength(2);
    expect(of("/cmd_vel", 2)?.id).not.toBe(of("/cmd_vel", 1)?.id);
    expect(v.unadvertised.has(of("/cmd_vel", 1)?.id ?? -1)).toBe(true);

    // Messages of both topics in both flights, decoded with the advertised schema.
    for (const flight of [1, 2]) {
      const cmd = v.messages.find((m) => m.topic === "/cmd_vel" && m.flight === flight)?.msg as Twist | undefined;
      expect(cmd?.header.frame_id).toBe("base_link");
      expect(Number.isFinite(cmd?.twist.linear.x)).toBe(true);
      const image = v.messages.find((m) => m.topic === "/camera/image_raw" && m.flight === flight)?.msg as Image | undefined;
      expect(image).toMatchObject({ encoding: "rgb8", width: 256, height: 256, step: 768 });
      expect(image?.data.length).toBe(256 * 256 * 3);
    }
  });

  it("fails before any flight, naming the port, when the port is in use", async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as AddressInfo).port;
    let result: { code: number | null; err: string };
    try {
      result = await runSim(["--flights", "1", "--duration", "1", "--out", path.join(dir, "busy"), "--foxglove", String(port)]);
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
    expect(result.code).toBe(1);
    expect(result.err).toContain(`drone-harness sim: foxglove: cannot listen on 127.0.0.1:${port}`);
    expect(result.err).toContain(`port ${port} is in use`);
    // Before the models load and any flight.
    expect(result.err).not.toContain("main job:");
  });
});
