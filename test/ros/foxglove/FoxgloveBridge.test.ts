/**
 * The Foxglove live view, checked with the protocol's own client (@foxglove/ws-protocol's
 * FoxgloveClient over `ws`): the channel list carries each topic's ros2msg schema, a subscription
 * brings the messages, and they decode with a reader built from that schema alone (not our
 * registry), as Foxglove itself would.
 */
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";
import { FoxgloveClient } from "@foxglove/ws-protocol";
import type { Channel, MessageData } from "@foxglove/ws-protocol";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { FoxgloveBridge } from "../../../src/ros/foxglove";
import { EmbeddedGraph, QOS_DEFAULT, QOS_SENSOR_DATA } from "../../../src/ros/graph";
import { runLaunch } from "../../../src/cli/runLaunch";

type Twist = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; twist: { linear: { x: number; y: number; z: number }; angular: { x: number; y: number; z: number } } };

function connect(port: number): { client: FoxgloveClient; ws: WebSocket } {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]);
  return { client: new FoxgloveClient({ ws }), ws };
}

describe("FoxgloveBridge (Foxglove WebSocket protocol)", () => {
  it("advertises every topic with its ros2msg schema; a subscriber receives CDR that decodes with that schema", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    graph.spin();
    const node = graph.createNode("controller");
    const cmd = node.createPublisher<Twist>("geometry_msgs/msg/TwistStamped", "/cmd_vel", { qos: QOS_DEFAULT });
    node.createPublisher("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA });
    const bridge = await FoxgloveBridge.start(graph, { port: 0 });
    expect(bridge.host).toBe("127.0.0.1");
    const { client } = connect(bridge.port);
    let timer: NodeJS.Timeout | undefined;
    try {
      const channels = await new Promise<Channel[]>((resolve) => client.on("advertise", resolve));
      const byTopic = new Map(channels.map((c) => [c.topic, c]));
      expect(byTopic.get("/camera/image_raw")?.schemaName).toBe("sensor_msgs/msg/Image");
      const ch = byTopic.get("/cmd_vel");
      if (ch === undefined) throw new Error(`no /cmd_vel channel among ${channels.map((c) => c.topic).join(", ")}`);
      expect(ch).toMatchObject({ encoding: "cdr", schemaName: "geometry_msgs/msg/TwistStamped", schemaEncoding: "ros2msg" });
      expect(ch.schema).toContain("MSG: geometry_msgs/Twist");
      const reader = new MessageReader(parse(ch.schema, { ros2: true }));
      const got = new Promise<MessageData>((resolve) => client.on("message", resolve));
      client.subscribe(ch.id);
      const sent: Twist = { header: { stamp: { sec: 3, nanosec: 4 }, frame_id: "base_link" }, twist: { linear: { x: 1.5, y: 0, z: -0.25 }, angular: { x: 0, y: 0, z: 0.75 } } };
      // Until the subscription reaches the server (no delivery signal exists before the first message).
      timer = setInterval(() => cmd.publish(sent), 20);
      const msg = await got;
      expect(msg.subscriptionId).toBeGreaterThanOrEqual(0);
      const decoded = reader.readMessage<Twist>(new Uint8Array(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength));
      expect(decoded).toEqual(sent);
    } finally {
      if (timer !== undefined) clearInterval(timer);
      client.close();
      await bridge.close();
      await graph.shutdown();
    }
  });

  it("launch --foxglove 0 serves the launch's graph on 127.0.0.1", async () => {
    let release: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (release = resolve));
    const file = join(mkdtempSync(join(tmpdir(), "dh-fox-")), "empty.launch.xml");
    writeFileSync(file, "<launch/>\n");
    const err: string[] = [];
    const ready = new Promise<{ host: string; port: number } | undefined>((resolve, reject) => {
      runLaunch([file, "--foxglove", "0", "--no-introspection"], { out: () => undefined, err: (t) => err.push(t) }, {
        registry: {},
        until: () => stopped,
        onReady: (info) => resolve(info.foxglove),
      }).then((code) => reject(new Error(`launch exited ${code} before it was ready: ${err.join("")}`)), reject);
    });
    try {
      const fox = await ready;
      expect(fox?.host).toBe("127.0.0.1");
      const { client } = connect(fox?.port ?? -1);
      const info = await new Promise<{ name: string }>((resolve) => client.on("serverInfo", resolve));
      expect(info.name).toBe("drone-harness");
      client.close();
    } finally {
      release();
    }
  });
});

describe("FoxgloveBridge.attach (one server, one graph after another)", () => {
  it("attaches to one graph after another on the same port: the old channels are unadvertised, the new advertised", async () => {
    const graphs = [new EmbeddedGraph({ stderrLevel: "silent" }), new EmbeddedGraph({ stderrLevel: "silent" })];
    graphs[0]!.createNode("first").createPublisher("geometry_msgs/msg/TwistStamped", "/cmd_vel", { qos: QOS_DEFAULT });
    graphs[1]!.createNode("second").createPublisher("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA });
    const bridge = await FoxgloveBridge.listen({ port: 0 });
    const { client } = connect(bridge.port);
    try {
      await new Promise((resolve) => client.on("serverInfo", resolve));
      const advertised: Channel[] = [];
      const unadvertised: number[] = [];
      let changed: () => void = () => undefined;
      client.on("advertise", (channels) => {
        advertised.push(...channels);
        changed();
      });
      client.on("unadvertise", (ids) => {
        unadvertised.push(...ids);
        changed();
      });
      const seen = (probe: () => boolean): Promise<void> =>
        new Promise((resolve) => {
          changed = () => probe() && resolve();
          changed();
        });
      bridge.attach(graphs[0]!);
      await seen(() => advertised.some((c) => c.topic === "/cmd_vel"));
      const first = advertised.find((c) => c.topic === "/cmd_vel")!;
      bridge.attach(graphs[1]!);
      await seen(() => unadvertised.includes(first.id) && advertised.some((c) => c.topic === "/camera/image_raw"));
      expect(advertised.find((c) => c.topic === "/camera/image_raw")).toMatchObject({ schemaName: "sensor_msgs/msg/Image", schemaEncoding: "ros2msg" });
      bridge.detach();
      await seen(() => unadvertised.length === advertised.length);
      expect(new Set(unadvertised)).toEqual(new Set(advertised.map((c) => c.id)));
    } finally {
      client.close();
      await bridge.close();
      for (const g of graphs) await g.shutdown();
    }
  });
});
