import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedGraph, QOS_DEFAULT, QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL } from "../../../src/ros/graph";
import { GraphClient, GraphServer, introspectionDir, type RawMessage } from "../../../src/ros/ipc";
import { FrameDecoder, encodeJsonFrame, encodeMessageHeader } from "../../../src/ros/ipc/frames";
import { Launcher } from "../../../src/ros/launch/Launcher";
import { launchIntrospection, toolQos } from "../../../src/ros/launch/launchIntrospection";
import type { NodeLaunchDescription } from "../../../src/ros/launch/LaunchPlan";
import { talker } from "../launch/testNodes";

const talkerDesc: NodeLaunchDescription = {
  package: "drone_harness",
  executable: "talker",
  name: "talker",
  namespace: "/",
  fullyQualifiedName: "/talker",
  parameters: {},
  remappings: [],
  respawn: false,
  respawnDelaySec: 0,
  output: "screen",
  args: [],
  source: { file: "t.launch.xml", line: 1 },
};

type SocketRig = { dir: string; graph: EmbeddedGraph; launcher: Launcher; server: GraphServer; client: GraphClient };

/** The talker launched on an embedded graph, served on a Unix socket in a fresh directory, with a client connected. */
async function startSocketRig(): Promise<SocketRig> {
  const dir = mkdtempSync(join(tmpdir(), "dh-ipc-"));
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  graph.spin();
  const launcher = new Launcher({ graph, registry: { talker }, log: () => undefined });
  await launcher.start({ nodes: [talkerDesc], skipped: [], arguments: [], warnings: [] });
  const server = new GraphServer(launchIntrospection(graph, (f) => launcher.node(f), { pid: process.pid, launchFile: "t.launch.xml", startedAtMs: 1 }));
  await server.listen(join(dir, "sockets", "launch-1.sock"));
  const client = await GraphClient.connect({ dir: join(dir, "sockets") });
  return { dir, graph, launcher, server, client };
}

async function stopSocketRig({ dir, graph, launcher, server, client }: SocketRig): Promise<void> {
  client.close();
  await server.close();
  await launcher.stop();
  await graph.shutdown();
  rmSync(dir, { recursive: true, force: true });
}

describe("GraphServer + GraphClient over a Unix socket", () => {
  let rig: SocketRig;
  let dir: string;
  let server: GraphServer;
  let client: GraphClient;
  beforeEach(async () => {
    rig = await startSocketRig();
    ({ dir, server, client } = rig);
  });
  afterEach(() => stopSocketRig(rig));

  it("keeps the socket private: directory 0700, socket 0600", () => {
    expect(statSync(join(dir, "sockets")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "sockets", "launch-1.sock")).mode & 0o777).toBe(0o600);
  });

  it("lists nodes and topics and reports launch info", async () => {
    expect(await client.listNodes()).toContain("/talker");
    expect(await client.listTopics()).toContainEqual({
      name: "/chatter",
      types: ["std_msgs/msg/String"],
      publishers: [{ node: "/talker", qos: QOS_DEFAULT }],
    });
    expect(await client.info()).toEqual({ pid: process.pid, launchFile: "t.launch.xml", startedAtMs: 1 });
  });

  it("gets and sets parameters with ROS 2 validation results", async () => {
    expect(await client.getParam("/talker", "greeting")).toEqual({ name: "greeting", type: "string", value: "Hello, world!" });
    expect(await client.getParam("talker", "period_ms")).toEqual({ name: "period_ms", type: "integer", value: 5 });
    expect(await client.setParam("talker", "greeting", "Hi")).toEqual({ successful: true, reason: "" });
    expect(await client.getParam("talker", "greeting")).toMatchObject({ value: "Hi" });
    // "1" for a double parameter is accepted as 1.0.
    expect((await client.setParam("talker", "gain", "1")).successful).toBe(true);
    expect(await client.getParam("talker", "gain")).toEqual({ name: "gain", type: "double", value: 1 });
    const rejected = await client.setParam("talker", "gain", "2.5");
    expect(rejected.successful).toBe(false);
    expect(rejected.reason).toMatch(/gain/);
    expect(await client.listParams("talker")).toEqual(expect.arrayContaining(["gain", "greeting", "period_ms"]));
    await expect(client.getParam("/nobody", "x")).rejects.toThrow("node /nobody not found (running: ");
    await expect(client.getParam("/talker", "nope")).rejects.toThrow('node /talker has no parameter "nope"');
  });

  it("tells clients when the launch closes", async () => {
    const closed = new Promise<void>((r) => client.onClose(r));
    await server.close();
    await closed;
    await expect(client.listNodes()).rejects.toThrow();
  });
});

describe("GraphServer + GraphClient over a Unix socket: messages", () => {
  let rig: SocketRig;
  let graph: EmbeddedGraph;
  let client: GraphClient;
  beforeEach(async () => {
    rig = await startSocketRig();
    ({ graph, client } = rig);
  });
  afterEach(() => stopSocketRig(rig));

  it("delivers raw CDR bytes identical to the graph's serialization, with type and receive time", async () => {
    const got: RawMessage[] = [];
    let done: () => void = () => undefined;
    const two = new Promise<void>((r) => (done = r));
    const before = BigInt(Date.now()) * 1_000_000n;
    const sub = await client.subscribeRaw("/chatter", (m) => {
      got.push(m);
      if (got.length === 2) done();
    });
    expect(sub.typeName).toBe("std_msgs/msg/String");
    await two;
    const first = got[0]!;
    const text = graph.registry.deserialize<{ data: string }>("std_msgs/msg/String", first.bytes).data;
    expect(text).toMatch(/^Hello, world! \d+$/);
    expect(Buffer.from(first.bytes).equals(Buffer.from(graph.registry.serialize("std_msgs/msg/String", { data: text })))).toBe(true);
    expect(first.typeName).toBe("std_msgs/msg/String");
    expect(first.receiveTimeNs).toBeGreaterThanOrEqual(before - 1_000_000_000n);
    await sub.unsubscribe();
  });

  it("carries a 256x256 rgb8 Image (196,608 data bytes) unchanged", async () => {
    const data = new Uint8Array(256 * 256 * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
    const image = { header: { stamp: { sec: 5, nanosec: 7 }, frame_id: "camera" }, height: 256, width: 256, encoding: "rgb8", is_bigendian: 0, step: 768, data };
    const bytes = graph.registry.serialize("sensor_msgs/msg/Image", image);
    let resolveMsg: (m: RawMessage) => void = () => undefined;
    const got = new Promise<RawMessage>((r) => (resolveMsg = r));
    await client.subscribeRaw("/camera/image_raw", resolveMsg);
    graph.publishRaw("/camera/image_raw", "sensor_msgs/msg/Image", bytes);
    const m = await got;
    expect(m.typeName).toBe("sensor_msgs/msg/Image");
    expect(Buffer.from(m.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it("matches a best-effort (sensor data) publisher's QoS, as ros2 topic echo does", async () => {
    const node = graph.createNode("camera");
    const pub = node.createPublisher<{ data: string }>("std_msgs/msg/String", "/sensor", { qos: QOS_SENSOR_DATA });
    let resolveMsg: (m: RawMessage) => void = () => undefined;
    const got = new Promise<RawMessage>((r) => (resolveMsg = r));
    await client.subscribeRaw("/sensor", resolveMsg);
    pub.publish({ data: "frame" });
    expect(graph.registry.deserialize<{ data: string }>("std_msgs/msg/String", (await got).bytes).data).toBe("frame");
    node.destroy();
  });
});

describe("toolQos", () => {
  it("is best effort if any publisher is, transient local only if all are", () => {
    expect(toolQos([{ qos: QOS_DEFAULT }, { qos: QOS_SENSOR_DATA }])).toMatchObject({ reliability: "best_effort", durability: "volatile" });
    expect(toolQos([{ qos: QOS_TRANSIENT_LOCAL }])).toMatchObject({ reliability: "reliable", durability: "transient_local" });
    expect(toolQos([{ qos: QOS_TRANSIENT_LOCAL }, { qos: QOS_DEFAULT }])).toMatchObject({ reliability: "reliable", durability: "volatile" });
    // No publisher yet: best effort, so whatever publisher comes later matches (issue 16 item 11).
    expect(toolQos([])).toMatchObject({ reliability: "best_effort", durability: "volatile" });
  });
});

describe("discovery", () => {
  it("names the directory it searched when no launch is running", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dh-none-"));
    try {
      await expect(GraphClient.connect({ dir })).rejects.toThrow(`no running drone-harness launch found (looked in ${dir})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("uses $XDG_RUNTIME_DIR/drone-harness, else <tmpdir>/drone-harness-<uid>", () => {
    expect(introspectionDir({ XDG_RUNTIME_DIR: "/run/user/1000" })).toBe("/run/user/1000/drone-harness");
    expect(introspectionDir({})).toBe(join(tmpdir(), `drone-harness-${process.getuid?.() ?? 0}`));
  });
});

describe("FrameDecoder", () => {
  it("reassembles JSON and MESSAGE frames split at every byte boundary", () => {
    const payload = new Uint8Array([0, 1, 0, 0, 9, 8, 7]);
    const wire = Buffer.concat([encodeJsonFrame({ id: 1, ok: true, result: ["a"] }), encodeMessageHeader(3, 123n, payload.length), Buffer.from(payload)]);
    for (let cut = 0; cut <= wire.length; cut++) {
      const d = new FrameDecoder();
      const frames = [...d.push(wire.subarray(0, cut)), ...d.push(wire.subarray(cut))];
      expect(frames).toEqual([
        { kind: "json", value: { id: 1, ok: true, result: ["a"] } },
        { kind: "message", subscriptionId: 3, receiveTimeNs: 123n, bytes: Buffer.from(payload) },
      ]);
    }
  });

  it("rejects oversized and unknown frames", () => {
    const huge = Buffer.alloc(5);
    huge.writeUInt32BE(0xffffffff, 0);
    expect(() => new FrameDecoder().push(huge)).toThrow("introspection frame length 4294967295 is outside [1, 268435456]");
    expect(() => new FrameDecoder().push(Buffer.from([0, 0, 0, 1, 9]))).toThrow("introspection frame kind 9 is not 1 (JSON), 2 (MESSAGE) or 3 (PUBLISH)");
  });
});
