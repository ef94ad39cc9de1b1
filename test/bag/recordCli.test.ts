import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bag } from "../../src/bag/BagReader";
import { MessageDecoder } from "../../src/bag/MessageDecoder";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { main } from "../../src/cli/main";
import { parse as parseYaml } from "yaml";
import { offeredQosProfilesYaml, parseOfferedQosProfiles } from "../../src/bag/offeredQosProfiles";
import { QOS_DEFAULT } from "../../src/ros/graph";
import { startTalkerLaunch } from "./talkerLaunch";

describe("drone-harness bag record on a running launch", () => {
  it("records /chatter through the introspection socket into a bag that reads back in order", async () => {
    const { socket, stop, dir } = await startTalkerLaunch("bag-record-");
    const out: string[] = [];
    const err: string[] = [];
    try {
      const bagDir = join(dir, "rec");
      // 0.5 s of a talker publishing every 5 ms
      const code = await main(["bag", "record", "-o", bagDir, "--socket", socket, "--duration", "0.5", "/chatter"], {
        out: (t) => out.push(t),
        err: (t) => err.push(t),
      });
      expect(err.join("")).toBe("");
      expect(code).toBe(0);
      expect(out.join("")).toMatch(/wrote \d+ messages on 1 topics to 1 file\(s\)/);
      const bag = await Bag.open(new NodeBagFileSystem(), bagDir);
      expect(bag.metadata?.topics.map((t) => [t.name, t.type])).toEqual([["/chatter", "std_msgs/msg/String"]]);
      const dec = new MessageDecoder();
      const values: number[] = [];
      let last = 0n;
      for await (const m of bag.messages()) {
        const text = dec.decode<{ data: string }>(m.channel, m.data).data;
        expect(text).toMatch(/^Hello, world! \d+$/);
        values.push(Number(text.split(" ").pop()));
        expect(m.logTimeNs >= last).toBe(true);
        last = m.logTimeNs;
      }
      expect(values.length).toBeGreaterThanOrEqual(5);
      expect(values.length).toBe(bag.metadata?.messageCount);
      // consecutive counter values: nothing lost between the first and last recorded message
      for (let i = 1; i < values.length; i++) expect(values[i]).toBe(values[i - 1]! + 1);
      // The talker's publisher QoS (rmw default: keep_last 10, reliable, volatile) is stored as
      // rosbag2 stores it: in the MCAP channel metadata and in metadata.yaml.
      const expectedQos = offeredQosProfilesYaml([QOS_DEFAULT]);
      for await (const m of bag.messages()) {
        expect(m.channel.offeredQosProfiles).toBe(expectedQos);
        break;
      }
      const yaml = parseYaml(readFileSync(join(bagDir, "metadata.yaml"), "utf8")) as {
        rosbag2_bagfile_information: { topics_with_message_count: Array<{ topic_metadata: { name: string; offered_qos_profiles: string } }> };
      };
      const meta = yaml.rosbag2_bagfile_information.topics_with_message_count[0]!.topic_metadata;
      expect(meta.name).toBe("/chatter");
      expect(parseOfferedQosProfiles(meta.offered_qos_profiles)).toEqual([QOS_DEFAULT]);
    } finally {
      await stop();
    }
  });
});

describe("drone-harness bag record without a launch", () => {
  it("exits 1 naming where it looked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bag-nolaunch-"));
    try {
      const err: string[] = [];
      const code = await main(["bag", "record", "-o", join(dir, "x"), "-a", "--socket", join(dir, "none.sock")], { out: () => undefined, err: (t) => err.push(t) });
      expect(code).toBe(1);
      expect(err.join("")).toContain("drone-harness bag record:");
      expect(err.join("")).toContain("none.sock");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
