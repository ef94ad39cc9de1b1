import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { parseBagMetadata, stringifyBagMetadata, type BagMetadata } from "../../src/bag/BagMetadata";
import { offeredQosProfilesYaml, parseOfferedQosProfiles } from "../../src/bag/offeredQosProfiles";
import { QOS_DEFAULT, QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL } from "../../src/ros/graph/types";
import { TALKER_MCAP, TALKER_SQLITE3 } from "./fixtures";

/** Two files, an odd topic name and custom data: every key rosbag2 writes in version 8. */
const VERSION_8_METADATA: BagMetadata = {
  version: 8,
  storageIdentifier: "mcap",
  relativeFilePaths: ["f_0.mcap", "f_1.mcap"],
  durationNs: 12_345_678_901n,
  startingTimeNs: 1_700_000_000_123_456_789n,
  messageCount: 42,
  topics: [
    { name: "/camera/image_raw", type: "sensor_msgs/msg/Image", serializationFormat: "cdr", offeredQosProfiles: offeredQosProfilesYaml([QOS_SENSOR_DATA]), typeDescriptionHash: "", messageCount: 40 },
    { name: "/odd \"name\"", type: "std_msgs/msg/String", serializationFormat: "cdr", offeredQosProfiles: "", typeDescriptionHash: "RIHS01_00", messageCount: 2 },
  ],
  compressionFormat: "",
  compressionMode: "",
  files: [
    { path: "f_0.mcap", startingTimeNs: 1_700_000_000_123_456_789n, durationNs: 5n, messageCount: 20 },
    { path: "f_1.mcap", startingTimeNs: 1_700_000_010_000_000_000n, durationNs: 2_469_135_790n, messageCount: 22 },
  ],
  customData: { pilot: "test" },
  rosDistro: "jazzy",
};

const VERSION_9_QOS_LIST_YAML = `rosbag2_bagfile_information:
  version: 9
  storage_identifier: mcap
  duration: {nanoseconds: 10}
  starting_time: {nanoseconds_since_epoch: 5}
  message_count: 1
  topics_with_message_count:
    - topic_metadata:
        name: /x
        type: std_msgs/msg/String
        serialization_format: cdr
        offered_qos_profiles:
          - history: keep_last
            depth: 7
            reliability: best_effort
            durability: volatile
      message_count: 1
  relative_file_paths: [x_0.mcap]
`;

describe("metadata.yaml", () => {
  it.each([
    ["talker-mcap", TALKER_MCAP],
    ["talker-sqlite3", TALKER_SQLITE3],
  ])("parses rosbag2's version 4 metadata.yaml of %s with exact 64-bit times", (_name, dir) => {
    const md = parseBagMetadata(readFileSync(path.join(dir, "metadata.yaml"), "utf8"));
    expect(md.version).toBe(4);
    expect(md.startingTimeNs).toBe(1585866235112411371n); // above 2^53: must not go through a double
    expect(md.durationNs).toBe(4531096768n);
    expect(md.topics.map((t) => [t.name, t.messageCount])).toEqual([
      ["/topic", 10],
      ["/rosout", 10],
      ["/parameter_events", 0],
    ]);
    expect(md.files).toEqual([]);
  });

  it("writes version 8 with rosbag2's keys and reads it back unchanged", () => {
    const md = VERSION_8_METADATA;
    const text = stringifyBagMetadata(md);
    expect(parseBagMetadata(text)).toEqual(md);
    const raw = parseYaml(text, { intAsBigInt: true }) as { rosbag2_bagfile_information: Record<string, unknown> };
    expect(Object.keys(raw.rosbag2_bagfile_information).sort()).toEqual(
      [
        "compression_format",
        "compression_mode",
        "custom_data",
        "duration",
        "files",
        "message_count",
        "relative_file_paths",
        "ros_distro",
        "starting_time",
        "storage_identifier",
        "topics_with_message_count",
        "version",
      ].sort(),
    );
  });

  it("reads a version 9 style offered_qos_profiles given as a YAML list", () => {
    const md = parseBagMetadata(VERSION_9_QOS_LIST_YAML);
    expect(parseOfferedQosProfiles(md.topics[0]!.offeredQosProfiles)).toEqual([
      { history: "keep_last", depth: 7, reliability: "best_effort", durability: "volatile" },
    ]);
  });

  it("names the key that is wrong", () => {
    expect(() => parseBagMetadata("rosbag2_bagfile_information:\n  version: 8\n")).toThrow("duration is not a mapping");
    expect(() => parseBagMetadata("rosbag2_bagfile_information:\n  version: x\n  duration: {nanoseconds: 1}\n  starting_time: {nanoseconds_since_epoch: 1}\n  message_count: 1\n")).toThrow(
      'version is "x", expected an integer',
    );
  });
});

describe("offered_qos_profiles", () => {
  it("round-trips our profiles through rosbag2's integer-enum YAML", () => {
    for (const q of [QOS_DEFAULT, QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL]) expect(parseOfferedQosProfiles(offeredQosProfilesYaml([q]))).toEqual([q]);
  });

  it("writes the default durations as rosbag2 recorded them for the talker's default publisher on /topic (sec 0, nsec 0)", () => {
    const md = parseBagMetadata(readFileSync(path.join(TALKER_MCAP, "metadata.yaml"), "utf8"));
    const chatter = md.topics.find((t) => t.name === "/topic")?.offeredQosProfiles ?? "";
    const durations = (text: string): unknown[] => {
      const p = (parseYaml(text) as Record<string, unknown>[])[0] ?? {};
      return [p.deadline, p.lifespan, p.liveliness_lease_duration, p.liveliness, p.reliability, p.durability];
    };
    expect(durations(chatter)).toEqual([{ sec: 0, nsec: 0 }, { sec: 0, nsec: 0 }, { sec: 0, nsec: 0 }, 1, 1, 2]);
    expect(durations(offeredQosProfilesYaml([QOS_DEFAULT]))).toEqual(durations(chatter));
  });

  it("reads the profiles rosbag2 wrote into the talker bag (history 3 = unknown -> keep_last, depth 0 -> 10)", () => {
    const md = parseBagMetadata(readFileSync(path.join(TALKER_MCAP, "metadata.yaml"), "utf8"));
    const rosout = md.topics.find((t) => t.name === "/rosout")!;
    expect(parseOfferedQosProfiles(rosout.offeredQosProfiles)).toEqual([{ history: "keep_last", depth: 10, reliability: "reliable", durability: "transient_local" }]);
  });
});
