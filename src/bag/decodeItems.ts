/**
 * Decodes the messages of a bag read with the schema found in the bag. A topic whose schema does
 * not parse (or whose messages do not decode) is reported once as a problem and its further
 * messages are skipped; every other message is still yielded.
 */
import { MessageDecoder, errorText } from "./MessageDecoder";
import type { BagMessage, BagReadItem } from "./types";

export type DecodedBagItem =
  | { type: "message"; message: BagMessage; value: unknown }
  | { type: "problem"; file: string; message: string };

export async function* decodeItems(
  items: AsyncIterable<BagReadItem>,
  decoder: MessageDecoder = new MessageDecoder(),
): AsyncGenerator<DecodedBagItem> {
  const broken = new Set<string>();
  for await (const item of items) {
    switch (item.type) {
      case "problem":
        yield item;
        break;
      case "message": {
        const m = item.message;
        if (broken.has(m.topic)) break;
        try {
          yield { type: "message", message: m, value: decoder.decode(m.channel, m.data) };
        } catch (err) {
          broken.add(m.topic);
          yield { type: "problem", file: m.file, message: `${errorText(err)}; skipping the rest of ${m.topic}` };
        }
        break;
      }
    }
  }
}
