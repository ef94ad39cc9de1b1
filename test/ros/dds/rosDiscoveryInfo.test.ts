/**
 * ros_discovery_info, ROS 2's node graph (rmw_dds_common/msg/ParticipantEntitiesInfo), read by a
 * second participant with a raw DDS reader and checked against what that participant discovers
 * through DDS's own builtin topics (DCPSPublication / DCPSSubscription keys are the endpoints'
 * GUIDs). Not checked against a real `ros2 node list` (no ROS 2 here; docs/dds.md).
 */
import { DdsGraph } from "../../../src/ros/dds";
import type { DdsParticipant } from "../../../src/ros/dds/DdsParticipant";
import {
  GID_SIZE,
  PARTICIPANT_ENTITIES_INFO,
  ROS_DISCOVERY_INFO_QOS,
  ROS_DISCOVERY_INFO_TOPIC,
  gidOf,
  participantEntitiesInfo,
  splitNodeName,
} from "../../../src/ros/dds/RosDiscoveryInfo";
import { QOS_DEFAULT } from "../../../src/ros/graph";
import type { QoSProfile } from "../../../src/ros/graph";
import { defaultRegistry } from "../../../src/ros/msgs";
import type { rmw_dds_common__msg__ParticipantEntitiesInfo as ParticipantEntitiesInfo } from "../../../src/ros/msgs/generated";
import { describeWithDds } from "./ddsTools";

const DOMAIN = 19;
const KEEP_ALL: QoSProfile = { ...ROS_DISCOVERY_INFO_QOS, history: "keep_all", depth: 0 };

/** Resolves when `probe` returns a value other than undefined (checked every 20 ms). */
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

const hex = (bytes: ArrayLike<number>): string => Buffer.from(Array.from(bytes)).toString("hex");

/** Every ParticipantEntitiesInfo `reader` (a participant of another graph) receives, decoded, in arrival order. */
function readDiscoveryInfo(graph: DdsGraph): ParticipantEntitiesInfo[] {
  const got: ParticipantEntitiesInfo[] = [];
  graph.participant.createReader(
    ROS_DISCOVERY_INFO_TOPIC,
    PARTICIPANT_ENTITIES_INFO,
    KEEP_ALL,
    (bytes) => got.push(graph.registry.deserialize<ParticipantEntitiesInfo>(PARTICIPANT_ENTITIES_INFO, bytes)),
    { avoidRosNamespaceConventions: true },
  );
  return got;
}

/** The samples `from` wrote, oldest first. */
function samplesOf(samples: readonly ParticipantEntitiesInfo[], from: DdsParticipant): ParticipantEntitiesInfo[] {
  const gid = hex(gidOf(from.guid).data);
  return samples.filter((s) => hex(s.gid.data) === gid);
}

/** "/ns" + name per node, and the GIDs of each node's endpoints (first 16 bytes, hex). */
function nodesOf(info: ParticipantEntitiesInfo): Map<string, { readers: string[]; writers: string[] }> {
  const out = new Map<string, { readers: string[]; writers: string[] }>();
  for (const n of info.node_entities_info_seq) {
    const guids = (seq: typeof n.reader_gid_seq): string[] => seq.map((g) => hex(Array.from(g.data).slice(0, 16)));
    out.set(`${n.node_namespace}|${n.node_name}`, { readers: guids(n.reader_gid_seq), writers: guids(n.writer_gid_seq) });
  }
  return out;
}

describe("ParticipantEntitiesInfo on the wire (Humble layout)", () => {
  it("is the CDR a Humble rmw writes: 24-byte GIDs, namespace before name, readers before writers", () => {
    const registry = defaultRegistry();
    const guid = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
    const reader = Uint8Array.from({ length: 16 }, (_, i) => 0x80 + i);
    const bytes = registry.serialize(PARTICIPANT_ENTITIES_INFO, participantEntitiesInfo(guid, [{ fullyQualifiedName: "/n", readers: [reader], writers: [] }]));
    // Written out by hand from rmw_dds_common's Humble .msg files and XCDR1 (little endian, each
    // primitive aligned to its size from the end of the 4-byte encapsulation header).
    const u32 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
    const gid = (g: Uint8Array): number[] => [...g, 0, 0, 0, 0, 0, 0, 0, 0];
    const expected = [
      ...[0, 1, 0, 0], // CDR_LE encapsulation
      ...gid(guid), // 0..23  ParticipantEntitiesInfo.gid
      ...u32(1), // 24  node_entities_info_seq length
      ...u32(2), 0x2f, 0, 0, 0, // 28  node_namespace "/" (length with NUL), padding to 36
      ...u32(2), 0x6e, 0, 0, 0, // 36  node_name "n", padding to 44
      ...u32(1), ...gid(reader), // 44  reader_gid_seq
      ...u32(0), // 72  writer_gid_seq
    ];
    expect(Array.from(bytes)).toEqual(expected);
    expect(splitNodeName("/a/b/node")).toEqual({ node_namespace: "/a/b", node_name: "node" });
  });
});

describeWithDds("ros_discovery_info (rmw_dds_common/msg/ParticipantEntitiesInfo, Humble layout)", false, () => {
  const graphs: DdsGraph[] = [];
  const graph = (): DdsGraph => {
    const g = new DdsGraph({ stderrLevel: "silent", domainId: DOMAIN });
    g.spin();
    graphs.push(g);
    return g;
  };
  afterEach(async () => {
    for (const g of graphs.splice(0)) await g.shutdown();
  });

  it("lists each node with the GUIDs of its DDS readers and writers, and is written again when endpoints and nodes change", async () => {
    const a = graph();
    const talker = a.createNode("talker");
    talker.createPublisher("std_msgs/msg/String", "/chatter", { qos: QOS_DEFAULT });
    a.createNode("listener", { namespace: "/ns" }).createSubscription("std_msgs/msg/String", "/chatter", { qos: QOS_DEFAULT }, () => undefined);

    const b = graph();
    const samples = readDiscoveryInfo(b);
    const latest = (): ParticipantEntitiesInfo | undefined => samplesOf(samples, a.participant).at(-1);
    const info = await until(() => (latest()?.node_entities_info_seq.length === 2 ? latest() : undefined), "a's two nodes on ros_discovery_info");

    // The participant's GID: its 16-byte DDS GUID, zero padded to Humble's 24 bytes.
    expect(info.gid.data).toHaveLength(GID_SIZE);
    expect(hex(Array.from(info.gid.data).slice(0, 16))).toBe(hex(a.participant.guid));
    expect(Array.from(info.gid.data).slice(16)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    const nodes = nodesOf(info);
    expect([...nodes.keys()]).toEqual(["/ns|listener", "/|talker"]);

    // The GIDs are the GUIDs b discovers for a's endpoints on ROS topics (a GUID starts with its
    // participant's 12-byte prefix): every one is listed, under the node that owns it.
    const prefix = hex(a.participant.guid.subarray(0, 12));
    const allWriters = [...nodes.values()].flatMap((n) => n.writers);
    const allReaders = [...nodes.values()].flatMap((n) => n.readers);
    const found = await until(() => {
      const d = b.participant.discover();
      const ofA = (list: Array<{ topic: string; guid: Uint8Array }>): Array<{ topic: string; guid: string }> =>
        list.map((e) => ({ topic: e.topic, guid: hex(e.guid) })).filter((e) => e.guid.startsWith(prefix));
      const pubs = ofA(d.publishers);
      const subs = ofA(d.subscriptions);
      return pubs.length === allWriters.length && subs.length === allReaders.length ? { pubs, subs } : undefined;
    }, `a's ${allWriters.length} writers and ${allReaders.length} readers in b's discovery`);
    const talkerInfo = nodes.get("/|talker");
    const listenerInfo = nodes.get("/ns|listener");
    expect(talkerInfo?.writers).toContain(found.pubs.find((p) => p.topic === "/chatter")?.guid);
    expect(listenerInfo?.readers).toContain(found.subs.find((s) => s.topic === "/chatter")?.guid);
    expect([...allWriters].sort()).toEqual(found.pubs.map((p) => p.guid).sort());
    expect([...allReaders].sort()).toEqual(found.subs.map((s) => s.guid).sort());
    expect(new Set([...allWriters, ...allReaders]).size).toBe(allWriters.length + allReaders.length);
    for (const g of [...allWriters, ...allReaders]) expect(g.startsWith(prefix)).toBe(true);

    // A new publisher, then a destroyed node: each is written again (as rmw does).
    const before = talkerInfo?.writers.length ?? 0;
    const other = talker.createPublisher("std_msgs/msg/String", "/other", { qos: QOS_DEFAULT });
    await until(() => (nodesOf(latest() ?? info).get("/|talker")?.writers.length === before + 1 ? true : undefined), "the new writer on ros_discovery_info");
    const discovered = await until(
      () => b.participant.discover().publishers.find((p) => p.topic === "/other" && hex(p.guid).startsWith(prefix)),
      "the /other writer in b's discovery",
    );
    expect(nodesOf(latest() ?? info).get("/|talker")?.writers).toContain(hex(discovered.guid));
    talker.destroyPublisher(other);
    talker.destroy();
    const after = await until(() => (latest()?.node_entities_info_seq.length === 1 ? latest() : undefined), "talker gone from ros_discovery_info");
    expect([...nodesOf(after).keys()]).toEqual(["/ns|listener"]);
  });

  it("gives a participant that joins later the latest sample only (transient_local, depth 1), and feeds nodeNames()", async () => {
    const a = graph();
    a.createNode("first");
    a.createNode("second").createPublisher("std_msgs/msg/String", "/late", { qos: QOS_DEFAULT });
    a.createNode("third");

    const late = graph();
    const samples = readDiscoveryInfo(late);
    const first = await until(() => samplesOf(samples, a.participant)[0], "a's sample at the late joiner");
    // The first (and only) sample it gets is a's current state, not the history of changes.
    expect([...nodesOf(first).keys()]).toEqual(["/|first", "/|second", "/|third"]);
    expect(nodesOf(first).get("/|second")?.writers).toHaveLength(3); // /rosout, /parameter_events and /late

    // A ROS 2 process is known only through ros_discovery_info (no drone_harness_nodes user data):
    // write one sample as such a participant would, and the other graph's node list shows its node.
    const ros = graph();
    const writer = ros.participant.createWriter(ROS_DISCOVERY_INFO_TOPIC, PARTICIPANT_ENTITIES_INFO, ROS_DISCOVERY_INFO_QOS, {
      avoidRosNamespaceConventions: true,
    });
    const message: ParticipantEntitiesInfo = {
      gid: gidOf(ros.participant.guid),
      node_entities_info_seq: [{ node_namespace: "/demo", node_name: "ros2_talker", reader_gid_seq: [], writer_gid_seq: [] }],
    };
    writer.write(ros.registry.serialize(PARTICIPANT_ENTITIES_INFO, message));
    await until(() => (a.nodeNames().includes("/demo/ros2_talker") ? true : undefined), "/demo/ros2_talker in a.nodeNames()");
    expect(a.nodeNames()).toEqual(expect.arrayContaining(["/first", "/second", "/third", "/demo/ros2_talker"]));
  });
});
