/**
 * Decodes CDR message bytes with the schema text found in the bag (never only with our own
 * definitions), using @foxglove/rosmsg `parse(text, { ros2: true })` and
 * @foxglove/rosmsg2-serialization's MessageReader. One reader per distinct schema, cached.
 */
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";
import type { BagChannel } from "./types";
// Caps CDR sequence lengths against the buffer before allocating (see the file).
import "../ros/msgs/boundSequenceLengths";

export class MessageDecoder {
  readonly #readers = new Map<string, MessageReader | Error>();

  /** The reader for a channel's schema; throws an Error naming the type when it does not parse. */
  readerFor(channel: BagChannel): MessageReader {
    const key = `${channel.type}\n${channel.schemaText}`;
    let reader = this.#readers.get(key);
    if (reader === undefined) {
      reader = buildReader(channel);
      this.#readers.set(key, reader);
    }
    if (reader instanceof Error) throw reader;
    return reader;
  }

  /** Decodes one message of `channel`; throws naming the topic and type on failure. */
  decode<T = unknown>(channel: BagChannel, data: Uint8Array): T {
    const reader = this.readerFor(channel);
    try {
      return reader.readMessage<T>(data);
    } catch (err) {
      throw new Error(
        `cannot decode a ${data.byteLength}-byte message on ${channel.topic} (${channel.type}): ${errorText(err)}`,
      );
    }
  }
}

function buildReader(channel: BagChannel): MessageReader | Error {
  if (channel.schemaText === "") {
    return new Error(`no schema for ${channel.topic} (${channel.type}): the bag carries none and the type is unknown`);
  }
  if (channel.schemaEncoding !== "ros2msg" && channel.schemaEncoding !== "") {
    return new Error(
      `schema of ${channel.topic} has encoding "${channel.schemaEncoding}", expected "ros2msg"`,
    );
  }
  try {
    const defs = parse(channel.schemaText, { ros2: true });
    if (defs.length === 0) throw new Error("schema has no definitions");
    return new MessageReader(defs);
  } catch (err) {
    return new Error(`schema of ${channel.topic} (${channel.type}) does not parse: ${errorText(err)}`);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
