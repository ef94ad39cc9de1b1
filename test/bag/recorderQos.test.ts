import { Bag } from "../../src/bag/BagReader";
import { BagRecorder, type RawTopicMessage, type RawTopicSource, type SourceTopic } from "../../src/bag/BagRecorder";
import { BagWriter } from "../../src/bag/BagWriter";
import { offeredQosProfilesYaml, parseOfferedQosProfiles } from "../../src/bag/offeredQosProfiles";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph";
import { defaultRegistry } from "../../src/ros/msgs";
import { MemoryBagFileSystem } from "./MemoryBagFileSystem";

/** A source whose listing can change between calls, like a launch where publishers come and go. */
function fakeSource(listing: () => SourceTopic[], subscribers: Map<string, (m: RawTopicMessage) => void>): RawTopicSource {
  return {
    listTopics: async () => listing(),
    subscribeRaw: async (topic, cb) => {
      subscribers.set(topic, cb);
      return { unsubscribe: async () => void subscribers.delete(topic) };
    },
  };
}

describe("BagRecorder offered_qos_profiles", () => {
  const registry = defaultRegistry();
  const bytes = registry.serialize("std_msgs/msg/String", { data: "x" });

  it("stores the QoS of every publisher the listing reports, as rosbag2 does, in the MCAP channel and metadata", async () => {
    // /scan has two publishers (sensor data and default), /late has none when recording starts
    // and one by its first message; /silent is listed without publisher information.
    let lateQos: SourceTopic["publishers"] = [];
    const listing = (): SourceTopic[] => [
      { name: "/scan", types: ["std_msgs/msg/String"], publishers: [{ qos: QOS_SENSOR_DATA }, { qos: QOS_DEFAULT }] },
      { name: "/late", types: ["std_msgs/msg/String"], publishers: lateQos },
      { name: "/silent", types: ["std_msgs/msg/String"] },
    ];
    const subs = new Map<string, (m: RawTopicMessage) => void>();
    const fs = new MemoryBagFileSystem();
    const writer = await BagWriter.create({ fs, directory: "/rec/qos" });
    const recorder = new BagRecorder(fakeSource(listing, subs), writer, { all: true, schemaText: (t) => registry.ros2msgText(t) });
    await recorder.refresh();
    lateQos = [{ qos: { ...QOS_DEFAULT, depth: 1, durability: "transient_local" } }];
    for (const topic of ["/scan", "/late", "/silent"]) subs.get(topic)?.({ bytes, typeName: "std_msgs/msg/String", receiveTimeNs: 5n });
    const md = await recorder.stop();
    const offered = Object.fromEntries(md.topics.map((t) => [t.name, t.offeredQosProfiles]));
    expect(offered["/scan"]).toBe(offeredQosProfilesYaml([QOS_SENSOR_DATA, QOS_DEFAULT]));
    expect(parseOfferedQosProfiles(offered["/scan"]!)).toEqual([QOS_SENSOR_DATA, QOS_DEFAULT]);
    expect(parseOfferedQosProfiles(offered["/late"]!)).toEqual([{ history: "keep_last", depth: 1, reliability: "reliable", durability: "transient_local" }]);
    expect(offered["/silent"]).toBe("");
    const bag = await Bag.open(fs, "/rec/qos");
    const channelQos: Record<string, string> = {};
    for await (const m of bag.messages()) channelQos[m.topic] = m.channel.offeredQosProfiles;
    expect(channelQos).toEqual(offered);
  });

  it("an explicit offeredQos option wins over the listing", async () => {
    const subs = new Map<string, (m: RawTopicMessage) => void>();
    const writer = await BagWriter.create({ fs: new MemoryBagFileSystem(), directory: "/rec/explicit" });
    const source = fakeSource(() => [{ name: "/a", types: ["std_msgs/msg/String"], publishers: [{ qos: QOS_SENSOR_DATA }] }], subs);
    const recorder = new BagRecorder(source, writer, { topics: ["/a"], schemaText: (t) => registry.ros2msgText(t), offeredQos: () => "" });
    await recorder.refresh();
    subs.get("/a")?.({ bytes, typeName: "std_msgs/msg/String", receiveTimeNs: 1n });
    const md = await recorder.stop();
    expect(md.topics[0]?.offeredQosProfiles).toBe("");
  });
});
