/**
 * Golden-bag check for tests: the decoded messages of `topics` in the actual bag (or stream) must
 * match the expected ones message by message within the tolerances; otherwise it throws an Error
 * listing the first differences (jest reports it as the test failure). Usable without jest.
 *
 *   await expectBagOutputsToMatch(goldenBag, replayedBag, { topics: ["/cmd_vel"], absTolerance: 1e-3 });
 */
import { Bag } from "../../src/bag/BagReader";
import { compareMessageStreams, formatDifferences, type CompareOptions, type CompareResult, type StreamMessage } from "../../src/bag/compareMessageStreams";
import { decodeItems } from "../../src/bag/decodeItems";
import { BagError } from "../../src/bag/types";

export type BagOutputs = Bag | AsyncIterable<StreamMessage> | Iterable<StreamMessage>;

/** Decoded messages of a bag's topics; a bag problem throws (naming the file). */
export async function* decodedMessages(bag: Bag, topics: readonly string[] | undefined): AsyncGenerator<StreamMessage> {
  for await (const item of decodeItems(bag.items(topics === undefined ? {} : { topics }))) {
    if (item.type === "problem") throw new BagError(item.file, item.message);
    yield { topic: item.message.topic, value: item.value };
  }
}

export async function expectBagOutputsToMatch(
  expected: BagOutputs,
  actual: BagOutputs,
  options: CompareOptions & { topics: readonly string[] },
): Promise<CompareResult> {
  if (options.topics.length === 0) throw new RangeError("expectBagOutputsToMatch needs at least one topic to compare");
  const asStream = (x: BagOutputs): AsyncIterable<StreamMessage> | Iterable<StreamMessage> => (x instanceof Bag ? decodedMessages(x, options.topics) : x);
  const result = await compareMessageStreams(asStream(expected), asStream(actual), options);
  const empty = [...result.counts].filter(([, c]) => c.expected === 0);
  if (empty.length > 0) {
    throw new Error(`expected outputs have no messages on ${empty.map(([t]) => t).join(", ")}: nothing to compare`);
  }
  if (!result.equal) throw new Error(`bag outputs differ:\n${formatDifferences(result)}`);
  return result;
}
