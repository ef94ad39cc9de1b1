/**
 * The other inputs a bag brings (issue 16 items 10 and 12): a mutated metadata.yaml, a mutated
 * ros2msg schema text (what `bag play` teaches the graph for a type it does not know) and
 * arbitrary recorded topic names (what it publishes them as). Every case ends in a result or an
 * error naming the file or the type; nothing else escapes, no case hangs.
 */
import fc from "fast-check";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { choosePlayTopic } from "../../src/bag/selectPlayTopics";
import { BagError } from "../../src/bag/types";
import { validateFullTopicName } from "../../src/ros/graph/names";
import { defaultRegistry } from "../../src/ros/msgs";
import { MessageRegistry } from "../../src/ros/msgs/MessageRegistry";
import { randomMessage } from "../ros/graph/randomMessage";
import { MemoryBagFileSystem } from "../bag/MemoryBagFileSystem";
import { FuzzTally, expectedError, fcParams, fuzzRuns } from "./fuzzSupport";
import { mutateText, textMutationsArb } from "./textMutation";

const RUNS = fuzzRuns(600);
const registry = defaultRegistry();
const TOPICS = [
  { topic: "/imu/data", type: "sensor_msgs/msg/Imu" },
  { topic: "/harness/correction", type: "drone_harness_msgs/msg/HarnessCorrection" },
];

/** The bag the metadata fuzz mutates: 20 random messages on TOPICS at /b/f, in memory. */
async function writeFuzzBag(): Promise<MemoryBagFileSystem> {
  const fs = new MemoryBagFileSystem();
  const w = await BagWriter.create({ fs, directory: "/b/f", chunkSizeBytes: 700, customData: { launch_parameters: "use_first_fix_as_home:=false home_altitude_m:=488.0" } });
  for (const t of TOPICS) await w.addTopic({ topic: t.topic, type: t.type, schemaText: registry.ros2msgText(t.type), offeredQosProfiles: "" });
  for (let i = 0; i < 20; i++) {
    const t = TOPICS[i % TOPICS.length]!;
    await w.write(t.topic, 1_000_000_000n + BigInt(i) * 10_000_000n, registry.serialize(t.type, randomMessage(registry, t.type, i + 1)));
  }
  await w.close();
  return fs;
}

/** Recorded topic names: any string, name-like strings, and hand-picked edge cases (relative, private, substitution, empty, /clock). */
const topicNameArb = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.stringMatching(/^[~/{}a-z0-9_]{0,16}$/),
  fc.constantFrom("topic1", "/topic1", "~/private", "~", "{node}/x", "a//b", "1abc", "/clock", ""),
);

describe("bag input fuzz", () => {
  const tallies: FuzzTally[] = [];
  afterAll(() => tallies.forEach((t) => t.print()));

  it("mutated metadata.yaml: the bag opens and reads, or a BagError names metadata.yaml or a file it lists", async () => {
    const tally = new FuzzTally("bag metadata.yaml");
    tallies.push(tally);
    const fs = await writeFuzzBag();
    const base = await fs.readText("/b/f/metadata.yaml");
    await fc.assert(
      fc.asyncProperty(textMutationsArb, async (ops) => {
        await fs.writeText("/b/f/metadata.yaml", mutateText(base, ops));
        await tally.runAsync(async () => {
          let bag: Bag;
          try {
            bag = await Bag.open(fs, "/b/f");
          } catch (err) {
            return expectedError(err, [BagError], /^\/b\/f\/\S+: \S/);
          }
          let messages = 0;
          for await (const item of bag.items()) {
            if (item.type === "problem") {
              expect(item.file.startsWith("/b/f/")).toBe(true);
              return messages > 0 ? "messages then a problem" : "opened, problem only";
            }
            messages++;
          }
          return messages === 20 ? "opened, all messages" : "opened, fewer messages (time range or topic edits)";
        });
      }),
      fcParams(RUNS),
    );
  });

  it("mutated ros2msg schema text (a type the graph does not know): learnt and round-trips, or an Error naming the type", () => {
    const tally = new FuzzTally("bag schema text (MessageRegistry.addRos2MsgText)");
    tallies.push(tally);
    // A full rosbag2 schema with dependencies: the type's fields, then "MSG: pkg/Name" sections.
    const base = registry.ros2msgText("drone_harness_msgs/msg/HarnessCorrection");
    const TYPE = "fuzz_msgs/msg/Learnt";
    fc.assert(
      fc.property(textMutationsArb, (ops) => {
        const text = mutateText(base, ops);
        tally.run(() => {
          const fresh = new MessageRegistry();
          let added: string[];
          try {
            added = fresh.addRos2MsgText(TYPE, text);
          } catch (err) {
            return expectedError(err, [Error], /fuzz_msgs\/msg\/Learnt/);
          }
          expect(added[0]).toBe(TYPE);
          // What it learnt is usable: a default message serializes and reads back the same.
          const msg = fresh.defaultMessage(TYPE);
          expect(fresh.deserialize(TYPE, fresh.serialize(TYPE, msg))).toEqual(msg);
          return "learnt";
        });
      }),
      fcParams(RUNS),
    );
  });

  it("arbitrary recorded topic names: published under a valid absolute name, or skipped with a reason", () => {
    const tally = new FuzzTally("bag play topic names");
    tallies.push(tally);
    fc.assert(
      fc.property(topicNameArb, (name) => {
        tally.run(() => {
          const c = choosePlayTopic(name, { nodePublishers: () => [] });
          if (!c.play) {
            expect(c.reason.length).toBeGreaterThan(0);
            return c.reason.startsWith("cannot be published") ? "skipped (invalid name)" : "skipped (recorded clock)";
          }
          expect(() => validateFullTopicName(c.name, name)).not.toThrow();
          return "published";
        });
      }),
      fcParams(RUNS),
    );
  });
});
