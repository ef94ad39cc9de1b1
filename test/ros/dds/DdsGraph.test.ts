/**
 * The DDS middleware between two participants (two DdsGraphs in this process: Cyclone delivers
 * between participants exactly as between processes, through its discovery and readers), on a
 * domain of its own so parallel test files do not meet.
 */
import { DdsGraph } from "../../../src/ros/dds";
import { QOS_DEFAULT, QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL, createGraph } from "../../../src/ros/graph";
import { describeWithDds } from "./ddsTools";

const DOMAIN = 17;

/** Resolves when `probe` returns a value other than undefined (checked on every event-loop turn). */
function until<T>(probe: () => T | undefined, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      const v = probe();
      if (v !== undefined) return resolve(v);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

describeWithDds("DdsGraph (Cyclone DDS)", false, () => {
  let a: DdsGraph;
  let b: DdsGraph;
  beforeEach(() => {
    a = new DdsGraph({ stderrLevel: "silent", domainId: DOMAIN });
    b = new DdsGraph({ stderrLevel: "silent", domainId: DOMAIN });
    a.spin();
    b.spin();
  });
  afterEach(async () => {
    await a.shutdown();
    await b.shutdown();
  });

  it("carries typed messages between participants, each exactly once, and counts the remote subscriber", async () => {
    const talker = a.createNode("talker").createPublisher<{ data: string }>("std_msgs/msg/String", "/chatter", { qos: QOS_DEFAULT });
    const local: string[] = [];
    a.createNode("local_listener").createSubscription<{ data: string }>("std_msgs/msg/String", "/chatter", { qos: QOS_DEFAULT }, (m) => local.push(m.data));
    const remote: string[] = [];
    b.createNode("listener").createSubscription<{ data: string }>("std_msgs/msg/String", "/chatter", { qos: QOS_DEFAULT }, (m) => remote.push(m.data));
    await until(() => (talker.subscriptionCount() === 2 ? true : undefined), "the remote reader to match");
    for (let i = 0; i < 5; i++) talker.publish({ data: `m${i}` });
    await until(() => (remote.length >= 5 ? true : undefined), "5 messages in the other participant");
    expect(remote).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    // The local subscriber got them from the embedded bus, not a second time through DDS.
    await until(() => (local.length >= 5 ? true : undefined), "5 local messages");
    expect(local).toEqual(["m0", "m1", "m2", "m3", "m4"]);
  });

  it("keeps transient_local history for a late joiner in another participant (QoS mapped to DDS durability)", async () => {
    const pub = a.createNode("latched").createPublisher<{ data: string }>("std_msgs/msg/String", "/latched", { qos: QOS_TRANSIENT_LOCAL });
    pub.publish({ data: "before anyone listened" });
    const got = await new Promise<string>((resolve) => {
      b.createNode("late").createSubscription<{ data: string }>("std_msgs/msg/String", "/latched", { qos: QOS_TRANSIENT_LOCAL }, (m) => resolve(m.data));
    });
    expect(got).toBe("before anyone listened");
  });

  it("discovers the other participant's topics, nodes and publisher QoS; a raw reader gets the discovered type", async () => {
    const cam = a.createNode("camera").createPublisher("sensor_msgs/msg/CameraInfo", "/camera/camera_info", { qos: QOS_SENSOR_DATA });
    const topics = await until(() => {
      const t = b.topicNamesAndTypes().find((x) => x.name === "/camera/camera_info");
      return t;
    }, "the camera topic in discovery");
    expect(topics.types).toEqual(["sensor_msgs/msg/CameraInfo"]);
    await until(() => (b.nodeNames().includes("/camera") ? true : undefined), "node /camera in discovery");
    const info = b.topicInfo("/camera/camera_info");
    expect(info.type).toBe("sensor_msgs/msg/CameraInfo");
    expect(info.publishers).toEqual([{ node: "(dds)", qos: { ...QOS_SENSOR_DATA } }]);
    const raw = new Promise<{ typeName: string; length: number }>((resolve) => {
      b.subscribeRaw("/camera/camera_info", (bytes, typeName) => resolve({ typeName, length: bytes.length }), { qos: QOS_SENSOR_DATA });
    });
    const timer = setInterval(() => cam.publish(a.registry.defaultMessage("sensor_msgs/msg/CameraInfo")), 20);
    try {
      const got = await raw;
      expect(got.typeName).toBe("sensor_msgs/msg/CameraInfo");
      expect(got.length).toBeGreaterThanOrEqual(a.registry.serialize("sensor_msgs/msg/CameraInfo", a.registry.defaultMessage("sensor_msgs/msg/CameraInfo")).length);
    } finally {
      clearInterval(timer);
    }
  });

  it("publishRaw (what `bag play` does into a launch) goes out over DDS to typed subscribers elsewhere", async () => {
    const got = new Promise<{ data: string }>((resolve) => {
      b.createNode("played_listener").createSubscription<{ data: string }>("std_msgs/msg/String", "/played", { qos: QOS_DEFAULT }, resolve);
    });
    const bytes = a.registry.serialize("std_msgs/msg/String", { data: "from a bag" });
    const timer = setInterval(() => a.publishRaw("/played", "std_msgs/msg/String", bytes, QOS_DEFAULT), 20);
    try {
      expect(await got).toEqual({ data: "from a bag" });
    } finally {
      clearInterval(timer);
    }
  });

  it("is what createGraph({ middleware: 'dds' }) builds", async () => {
    const g = await createGraph({ middleware: "dds", domainId: DOMAIN, stderrLevel: "silent" });
    try {
      expect(g).toBeInstanceOf(DdsGraph);
    } finally {
      await g.shutdown();
    }
  });
});

describe("DDS without Cyclone DDS installed", () => {
  it("says what to apt-get install, and the embedded default still works", async () => {
    const saved = process.env["DRONE_HARNESS_DDSC"];
    process.env["DRONE_HARNESS_DDSC"] = "/nonexistent/libddsc.so";
    try {
      let graphs: typeof import("../../../src/ros/graph") | undefined;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module registry, so loadCyclone's cache is empty
        graphs = require("../../../src/ros/graph") as typeof import("../../../src/ros/graph");
      });
      if (graphs === undefined) throw new Error("isolateModules did not run");
      await expect(graphs.createGraph({ middleware: "dds" })).rejects.toThrow(
        /Cyclone DDS could not be loaded: install it with `apt-get install libddsc0debian`.*\/nonexistent\/libddsc\.so/,
      );
      const g = await graphs.createGraph({ stderrLevel: "silent" });
      expect(g.constructor.name).toBe("EmbeddedGraph");
      await g.shutdown();
    } finally {
      if (saved === undefined) delete process.env["DRONE_HARNESS_DDSC"];
      else process.env["DRONE_HARNESS_DDSC"] = saved;
    }
  });
});
