import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedGraph, QOS_DEFAULT, QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL } from "../../../src/ros/graph";
import { GraphClient, GraphServer, parsePublishHeader, type IntrospectionTarget, type RawMessage } from "../../../src/ros/ipc";
import { FrameDecoder, encodePublishHeader } from "../../../src/ros/ipc/frames";
import { launchIntrospection } from "../../../src/ros/launch/launchIntrospection";
import { runTopic } from "../../../src/cli/commands/topic";

type Str = { data: string };

describe("publishRaw over the introspection socket", () => {
  let dir: string;
  let graph: EmbeddedGraph;
  let server: GraphServer;
  let client: GraphClient;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "dh-ipcpub-"));
    graph = new EmbeddedGraph({ stderrLevel: "silent" });
    graph.spin();
    server = new GraphServer(launchIntrospection(graph, () => undefined, { pid: 1, launchFile: "t.launch.xml", startedAtMs: 1 }));
    await server.listen(join(dir, "s", "launch-1.sock"));
    client = await GraphClient.connect({ socketPath: join(dir, "s", "launch-1.sock") });
  });
  afterEach(async () => {
    client.close();
    await server.close();
    await graph.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it("delivers published CDR bytes, decoded and in order, to a typed subscriber in the launch", async () => {
    const node = graph.createNode("listener");
    const got: string[] = [];
    let done: () => void = () => undefined;
    const all = new Promise<void>((r) => (done = r));
    node.createSubscription<Str>("std_msgs/msg/String", "/chatter", { qos: { ...QOS_DEFAULT, depth: 100 } }, (m) => {
      got.push(m.data);
      if (got.length === 50) done();
    });
    const sent: Array<Promise<void>> = [];
    for (let i = 0; i < 50; i++) sent.push(client.publishRaw("/chatter", "std_msgs/msg/String", graph.registry.serialize("std_msgs/msg/String", { data: `m${i}` })));
    await Promise.all(sent);
    await all;
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
  });

  it("publishes with the requested QoS (transient local reaches a late subscriber) and reports it in topic info", async () => {
    await client.publishRaw("/map", "std_msgs/msg/String", graph.registry.serialize("std_msgs/msg/String", { data: "latched" }), QOS_TRANSIENT_LOCAL);
    const info = await client.topicInfo("/map");
    expect(info).toEqual({ name: "/map", type: "std_msgs/msg/String", publishers: [{ node: "/_embedded_raw", qos: QOS_TRANSIENT_LOCAL }], subscriptions: [] });
    const node = graph.createNode("late");
    const got = new Promise<string>((resolve) => node.createSubscription<Str>("std_msgs/msg/String", "/map", { qos: QOS_TRANSIENT_LOCAL }, (m) => resolve(m.data)));
    expect(await got).toBe("latched");
  });

  it("rejects an unknown type, a relative topic and a bad QoS with errors naming the value", async () => {
    const bytes = new Uint8Array([0, 1, 0, 0, 0, 0, 0, 0]);
    await expect(client.publishRaw("/x", "nope_msgs/msg/Nothing", bytes)).rejects.toThrow("nope_msgs/msg/Nothing");
    await expect(client.publishRaw("x", "std_msgs/msg/String", bytes)).rejects.toThrow('publish topic="x", expected an absolute name');
    await expect(client.publishRaw("/x", "std_msgs/msg/String", bytes, { ...QOS_DEFAULT, reliability: "sometimes" as "reliable" })).rejects.toThrow(
      'qos.reliability="sometimes", expected one of reliable, best_effort',
    );
    // The connection stays usable after rejected publishes.
    expect(await client.listNodes()).toEqual([]);
  });

  it("lists each topic's publishers with their QoS and answers topic info with subscriptions", async () => {
    const cam = graph.createNode("camera", { namespace: "/drone1" });
    cam.createPublisher("sensor_msgs/msg/Image", "image_raw", { qos: QOS_SENSOR_DATA });
    const viewer = graph.createNode("viewer");
    viewer.createSubscription("sensor_msgs/msg/Image", "/drone1/image_raw", { qos: QOS_SENSOR_DATA }, () => undefined);
    const topics = await client.listTopics();
    expect(topics.find((t) => t.name === "/drone1/image_raw")).toEqual({
      name: "/drone1/image_raw",
      types: ["sensor_msgs/msg/Image"],
      publishers: [{ node: "/drone1/camera", qos: QOS_SENSOR_DATA }],
    });
    expect(await client.topicInfo("/drone1/image_raw")).toEqual({
      name: "/drone1/image_raw",
      type: "sensor_msgs/msg/Image",
      publishers: [{ node: "/drone1/camera", qos: QOS_SENSOR_DATA }],
      subscriptions: [{ node: "/viewer", qos: QOS_SENSOR_DATA }],
    });
    await expect(client.topicInfo("/nothing")).rejects.toThrow("Unknown topic '/nothing'");
  });
});

describe("PUBLISH frames", () => {
  it("round-trip through the FrameDecoder split at every byte", () => {
    const payload = Buffer.from([0, 1, 0, 0, 3, 0, 0, 0, 104, 105, 0]);
    const wire = Buffer.concat([encodePublishHeader(7, { topic: "/t", typeName: "std_msgs/msg/String" }, payload.length), payload]);
    for (let cut = 0; cut <= wire.length; cut++) {
      const d = new FrameDecoder();
      const frames = [...d.push(wire.subarray(0, cut)), ...d.push(wire.subarray(cut))];
      expect(frames).toEqual([{ kind: "publish", id: 7, header: { topic: "/t", typeName: "std_msgs/msg/String" }, bytes: payload }]);
    }
  });

  it("rejects a header length past the frame's end, naming both lengths", () => {
    const frame = encodePublishHeader(1, { topic: "/t" }, 0);
    frame.writeUInt32BE(999, 9);
    expect(() => new FrameDecoder().push(frame)).toThrow("introspection PUBLISH header length 999 exceeds the frame's remaining 14 bytes");
  });

  it("parsePublishHeader validates topic, type and every QoS policy", () => {
    expect(parsePublishHeader({ topic: "/a", typeName: "std_msgs/msg/String", qos: QOS_SENSOR_DATA })).toEqual({ topic: "/a", typeName: "std_msgs/msg/String", qos: QOS_SENSOR_DATA });
    expect(() => parsePublishHeader({ topic: "/a", typeName: "" })).toThrow('publish typeName="", expected "pkg/msg/Name"');
    expect(() => parsePublishHeader({ topic: "/a", typeName: "t", qos: { ...QOS_DEFAULT, history: "all" } })).toThrow('qos.history="all", expected one of keep_last, keep_all');
    expect(() => parsePublishHeader({ topic: "/a", typeName: "t", qos: { ...QOS_DEFAULT, durability: 1 } })).toThrow("qos.durability=1, expected one of volatile, transient_local");
    expect(() => parsePublishHeader({ topic: "/a", typeName: "t", qos: { ...QOS_DEFAULT, depth: -1 } })).toThrow("qos.depth=-1, expected an integer >= 0");
  });
});

describe("slow clients", () => {
  it("drops messages over the queue cap and reports the count through the stats op", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dh-ipcslow-"));
    let emit: (bytes: Uint8Array) => void = () => undefined;
    const target: IntrospectionTarget = {
      info: () => ({ pid: 1, launchFile: "fake", startedAtMs: 0 }),
      listNodes: () => [],
      listTopics: () => [],
      topicInfo: () => ({ name: "/big", type: "std_msgs/msg/String", publishers: [], subscriptions: [] }),
      publishRaw: () => undefined,
      topicType: () => "std_msgs/msg/String",
      subscribeRaw: (topic, cb) => {
        emit = (bytes) => cb(bytes, "std_msgs/msg/String", 1n);
        return { topic, droppedCount: () => 3, destroy: () => undefined };
      },
      listParams: () => [],
      getParam: () => ({ name: "x", type: "bool", value: true }),
      setParam: () => ({ successful: true, reason: "" }),
    };
    // Cap of 1 byte: once anything is queued on the socket (the kernel buffer is full), further messages are dropped.
    const server = new GraphServer(target, { maxQueuedBytes: 1 });
    await server.listen(join(dir, "s", "launch-1.sock"));
    const client = await GraphClient.connect({ socketPath: join(dir, "s", "launch-1.sock") });
    try {
      const received: RawMessage[] = [];
      const sub = await client.subscribeRaw("/big", (m) => received.push(m));
      // 40 messages of 1 MiB written in one synchronous burst: far more than a Unix socket buffers.
      const big = new Uint8Array(1 << 20);
      for (let i = 0; i < 40; i++) emit(big);
      const stats = await client.stats(); // answered after every MESSAGE frame written before it
      const s = stats.subscriptions[0]!;
      expect(stats.subscriptions).toHaveLength(1);
      expect(s).toMatchObject({ subscriptionId: sub.subscriptionId, topic: "/big", droppedQueue: 3 });
      expect(s.droppedSlowClient).toBeGreaterThan(0);
      expect(s.sent + s.droppedSlowClient).toBe(40);
      expect(received).toHaveLength(s.sent);
    } finally {
      client.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("slow clients: topic hz", () => {
  it("topic hz reports the launch's drops for its subscription", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dh-hzdrop-"));
    const target: IntrospectionTarget = {
      info: () => ({ pid: 1, launchFile: "fake", startedAtMs: 0 }),
      listNodes: () => [],
      listTopics: () => [],
      topicInfo: () => ({ name: "/big", type: "std_msgs/msg/String", publishers: [], subscriptions: [] }),
      publishRaw: () => undefined,
      topicType: () => "std_msgs/msg/String",
      subscribeRaw: (topic, cb) => {
        // A burst right after the subscription: 40 x 1 MiB, more than the socket buffers.
        const big = new Uint8Array(1 << 20);
        setImmediate(() => {
          for (let i = 0; i < 40; i++) cb(big, "std_msgs/msg/String", BigInt(i) * 1_000_000n);
        });
        return { topic, destroy: () => undefined };
      },
      listParams: () => [],
      getParam: () => ({ name: "x", type: "bool", value: true }),
      setParam: () => ({ successful: true, reason: "" }),
    };
    const server = new GraphServer(target, { maxQueuedBytes: 1 });
    await server.listen(join(dir, "s", "launch-1.sock"));
    try {
      let out = "";
      let stop: () => void = () => undefined;
      const until = (): Promise<void> => new Promise<void>((r) => (stop = r));
      const io = {
        out: (t: string) => {
          out += t;
          if (out.includes("dropped")) stop();
        },
        err: () => undefined,
      };
      expect(await runTopic(["hz", "/big"], io, { connect: { socketPath: join(dir, "s", "launch-1.sock") }, until, hzPeriodMs: 50 })).toBe(0);
      const m = /dropped (\d+) messages in total/.exec(out);
      expect(m).not.toBeNull();
      expect(Number(m?.[1])).toBeGreaterThan(0);
      expect(Number(m?.[1])).toBeLessThan(40);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
