/**
 * Records every topic of one flight on the embedded graph to a rosbag2 MCAP bag (src/bag's
 * BagWriter through BagRecorder, raw CDR subscriptions, log time = sim time of delivery), the
 * adapter between the main job and the file system. Returns the function that stops the
 * recorder and closes the bag (metadata.yaml written then).
 */
import { BagRecorder, type RawTopicSource } from "../bag/BagRecorder";
import { BagWriter } from "../bag/BagWriter";
import { NodeBagFileSystem } from "../bag/node/NodeBagFileSystem";
import { offeredQosProfilesYaml } from "../bag/offeredQosProfiles";
import type { EmbeddedGraph } from "../ros/graph";
import { defaultRegistry } from "../ros/msgs";

export type BagResult = { directory: string; messages: number; problems: string[] };

export async function startFlightBag(graph: EmbeddedGraph, directory: string, done: (r: BagResult) => void): Promise<() => Promise<void>> {
  const registry = defaultRegistry();
  const writer = await BagWriter.create({ fs: new NodeBagFileSystem(), directory, compression: "zstd", zstdLevel: 1 });
  // Receive times on the simulator's clock: the log times of the bag are sim time, as
  // `ros2 bag record --use-sim-time` would write them.
  const clock = graph.createNode("main_job_bag_clock", { parameterOverrides: { use_sim_time: true } }).getClock();
  const source: RawTopicSource = {
    listTopics: async () => graph.topicNamesAndTypes(),
    subscribeRaw: async (topic, cb) => {
      // Like rosbag2's recorder, adapt to the publishers: a reliable subscription would not
      // match the best-effort sensor topics (rosbag2_transport qos.cpp adapt_request_to_offers).
      const bestEffort = graph.topicInfo(topic).publishers.some((p) => p.qos.reliability === "best_effort");
      const sub = graph.subscribeRaw(topic, (bytes, typeName, receiveTimeNs) => cb({ bytes, typeName, receiveTimeNs }), {
        qos: { history: "keep_last", depth: 1000, reliability: bestEffort ? "best_effort" : "reliable", durability: "volatile" },
        clock,
      });
      return { unsubscribe: async () => sub.destroy() };
    },
  };
  const problems: string[] = [];
  const recorder = new BagRecorder(source, writer, {
    all: true,
    schemaText: (t) => registry.ros2msgText(t),
    offeredQos: (topic) => offeredQosProfilesYaml(graph.topicInfo(topic).publishers.map((p) => p.qos)),
    onProblem: (p) => problems.push(p),
  });
  await recorder.refresh();
  return async () => {
    const md = await recorder.stop();
    done({ directory, messages: md.messageCount, problems });
  };
}
