/**
 * Which recorded topics `bag play` and `replay` publish into running nodes, and under which name.
 *
 * Names: rosbag2 records a topic as its publisher named it, so its own test bags hold relative
 * names ("topic1"); its Player publishes them from a node "rosbag2_player" in the root namespace,
 * i.e. as "/topic1" ("~/x" as "/rosbag2_player/x"). The same expansion rules as the graph's
 * (names.ts expandTopicName); a name that does not expand is skipped with its reason.
 *
 * Default selection (issue 16 item 12): a bag recorded from this package's launch holds the sensor
 * inputs and every node output (/harness/*, /cmd_vel_raw, /cmd_vel, ...) and /clock. Playing a
 * node output into running nodes that publish the same topic delivers each message twice
 * (recorded and live: duplicate and out-of-order stamps), and the recorded /clock is a second
 * clock next to the player's `--clock`. So by default a topic that a running node publishes is
 * not played, nor the recorded clock. When the bag holds such node outputs (it was recorded from
 * these nodes) and the `sensorTopics` of the package's topic contract (SPEC.md; sim/topics.ts),
 * it plays those sensor inputs only, whichever nodes run (so `replay` tests perception even when
 * the perception node did not start: its recorded outputs never stand in for it; and a second
 * arm's outputs recorded under /off are not played either). `all`
 * plays everything (rosbag2's behaviour); explicit `topics` play exactly those.
 */
import { expandTopicName } from "../ros/graph/names";
import { errorText } from "./MessageDecoder";

/** The node name rosbag2's Player runs as (rosbag2_transport player.cpp). */
const PLAYER_NODE = "rosbag2_player";

/** Tools' endpoints in the embedded graph (EmbeddedGraph publishRaw/subscribeRaw): never a node output. */
export const TOOL_NODE = "/_embedded_raw";

/** The absolute name a recorded topic is published under; throws naming the topic when invalid. */
export function playTopicName(recorded: string): string {
  return expandTopicName(recorded, PLAYER_NODE, "/");
}

const NODE_OUTPUT = "a node output";
/** The reason of a topic left out by explicit `topics` (not worth a warning: the user chose). */
export const NOT_IN_TOPICS = "not in --topics";
const NOT_A_SENSOR = "not a sensor input (the bag holds node outputs, so it was recorded from these nodes: only the sensor inputs are played)";

export type PlayTopicChoice = { play: true; name: string } | { play: false; reason: string };

export type PlayTopicRules = {
  /** Exactly these topics (recorded or absolute names), e.g. `--topics`; the rules below do not apply. */
  topics?: readonly string[];
  /** Every topic, node outputs and the recorded clock included (`--all-topics`). */
  all?: boolean;
  /** The recorded clock topic, not played by default; default "/clock". */
  clockTopic?: string;
  /** Whether the recorded clock is played like any topic (replay with publishClock false); default false. */
  playClock?: boolean;
  /** The sensor inputs of the launch the bag may come from (absolute names), see the file comment. */
  sensorTopics?: readonly string[];
  /** The nodes (tools included, they are filtered out) that publish `topic` (absolute name) in the running graph. */
  nodePublishers: (topic: string) => readonly string[];
};

const nodesOnly = (names: readonly string[]): string[] => names.filter((n) => n !== TOOL_NODE);

/** Whether one recorded topic is played, under which name, or why not. */
export function choosePlayTopic(recorded: string, rules: PlayTopicRules): PlayTopicChoice {
  let name: string;
  try {
    name = playTopicName(recorded);
  } catch (err) {
    return { play: false, reason: `cannot be published: ${errorText(err)}` };
  }
  if (rules.topics !== undefined) {
    return rules.topics.includes(recorded) || rules.topics.includes(name) ? { play: true, name } : { play: false, reason: NOT_IN_TOPICS };
  }
  if (rules.all === true) return { play: true, name };
  if (rules.playClock !== true && name === (rules.clockTopic ?? "/clock")) {
    return { play: false, reason: "the recorded clock (the nodes would see two clocks: the player publishes its own, `bag play --clock`, and replay always)" };
  }
  const publishers = nodesOnly(rules.nodePublishers(name));
  if (publishers.length > 0) return { play: false, reason: `${NODE_OUTPUT}: published live by ${publishers.join(", ")}` };
  return { play: true, name };
}

export type PlayTopicSelection = {
  /** Recorded names of the topics to play, in the order given. */
  play: string[];
  /** Recorded name -> the absolute name it is published under, for the played topics. */
  names: Map<string, string>;
  /** Recorded topics left out, with why. */
  skipped: Array<{ topic: string; reason: string }>;
};

/** choosePlayTopic for every recorded topic, then the inputs-only rule of the file comment. */
export function selectPlayTopics(recorded: readonly string[], rules: PlayTopicRules): PlayTopicSelection {
  const out: PlayTopicSelection = { play: [], names: new Map(), skipped: [] };
  const chosen = recorded.map((topic) => ({ topic, choice: choosePlayTopic(topic, rules) }));
  const fromTheseNodes = rules.topics === undefined && rules.all !== true && chosen.some((c) => !c.choice.play && c.choice.reason.startsWith(NODE_OUTPUT));
  const sensors = new Set(rules.sensorTopics ?? []);
  const sensorsOnly = fromTheseNodes && chosen.some((c) => c.choice.play && sensors.has(c.choice.name));
  for (const { topic, choice } of chosen) {
    if (choice.play && sensorsOnly && !sensors.has(choice.name)) {
      out.skipped.push({ topic, reason: NOT_A_SENSOR });
    } else if (choice.play) {
      out.play.push(topic);
      out.names.set(topic, choice.name);
    } else {
      out.skipped.push({ topic, reason: choice.reason });
    }
  }
  return out;
}

/** The choice for one topic as `selection` made it (for a player that meets topics one by one). */
export function chosenIn(selection: PlayTopicSelection, recorded: string): PlayTopicChoice {
  const name = selection.names.get(recorded);
  if (name !== undefined) return { play: true, name };
  return { play: false, reason: selection.skipped.find((s) => s.topic === recorded)?.reason ?? "not in the bag's topic list" };
}

/** "playing 6 of 22 topics: ...", then one line per reason with the topics left out (no final newline). */
export function formatPlaySelection(selection: PlayTopicSelection, hint: string): string {
  const total = selection.play.length + selection.skipped.length;
  const lines = [`playing ${selection.play.length} of ${total} recorded topics: ${selection.play.join(", ") || "none"}`];
  const byReason = new Map<string, string[]>();
  for (const s of selection.skipped) {
    if (s.reason === NOT_IN_TOPICS) continue;
    // "a node output: published live by /harness" -> grouped under "node outputs".
    const key = s.reason.startsWith(NODE_OUTPUT) ? "node outputs (published live by the running nodes)" : s.reason;
    byReason.set(key, [...(byReason.get(key) ?? []), s.topic]);
  }
  for (const [reason, topics] of byReason) lines.push(`not playing ${topics.join(", ")}: ${reason}`);
  if (byReason.size > 0) lines.push(hint);
  return lines.join("\n");
}
