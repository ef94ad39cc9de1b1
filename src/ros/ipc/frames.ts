/**
 * Wire format of the introspection socket: length-prefixed binary frames, so raw CDR message
 * bytes travel as they are (no base64, no JSON escaping).
 *
 *   u32 BE  length of everything after this field
 *   u8      kind: 1 = JSON (UTF-8 request, response or event), 2 = MESSAGE
 *   MESSAGE: u32 BE subscription id, u64 BE receive time (ns since the Unix epoch), CDR bytes
 *   PUBLISH (client to server): u32 BE request id, u32 BE header length, UTF-8 JSON header
 *            {topic, typeName, qos?}, CDR bytes; answered by a JSON response with that id
 */
export const FRAME_JSON = 1;
export const FRAME_MESSAGE = 2;
export const FRAME_PUBLISH = 3;
/** Largest frame accepted (a 4K rgb8 image is 25 MB; this leaves room for bigger point clouds). */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;
const MESSAGE_HEADER_BYTES = 4 + 1 + 4 + 8;
const PUBLISH_FIXED_BYTES = 4 + 1 + 4 + 4;

export type Frame =
  | { kind: "json"; value: unknown }
  | { kind: "message"; subscriptionId: number; receiveTimeNs: bigint; bytes: Uint8Array }
  | { kind: "publish"; id: number; header: unknown; bytes: Uint8Array };

export function encodeJsonFrame(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value), "utf8");
  const out = Buffer.allocUnsafe(5 + body.length);
  out.writeUInt32BE(1 + body.length, 0);
  out.writeUInt8(FRAME_JSON, 4);
  body.copy(out, 5);
  return out;
}

/** The header of a MESSAGE frame; the CDR bytes are written after it without copying. */
export function encodeMessageHeader(subscriptionId: number, receiveTimeNs: bigint, byteLength: number): Buffer {
  const out = Buffer.allocUnsafe(MESSAGE_HEADER_BYTES);
  out.writeUInt32BE(MESSAGE_HEADER_BYTES - 4 + byteLength, 0);
  out.writeUInt8(FRAME_MESSAGE, 4);
  out.writeUInt32BE(subscriptionId, 5);
  out.writeBigUInt64BE(receiveTimeNs < 0n ? 0n : receiveTimeNs, 9);
  return out;
}

/** The header of a PUBLISH frame (with its JSON header); the CDR bytes are written after it. */
export function encodePublishHeader(id: number, header: unknown, byteLength: number): Buffer {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const out = Buffer.allocUnsafe(PUBLISH_FIXED_BYTES + json.length);
  out.writeUInt32BE(PUBLISH_FIXED_BYTES - 4 + json.length + byteLength, 0);
  out.writeUInt8(FRAME_PUBLISH, 4);
  out.writeUInt32BE(id, 5);
  out.writeUInt32BE(json.length, 9);
  json.copy(out, PUBLISH_FIXED_BYTES);
  return out;
}

/** Reassembles frames from stream chunks; throws RangeError on a malformed or oversized frame. */
export class FrameDecoder {
  #chunks: Buffer[] = [];
  #buffered = 0;

  /** Feeds a chunk and returns every frame it completes. */
  push(chunk: Buffer): Frame[] {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const frames: Frame[] = [];
    for (;;) {
      if (this.#buffered < 4) break;
      const head = this.#peek(4);
      const length = head.readUInt32BE(0);
      if (length < 1 || length > MAX_FRAME_BYTES) throw new RangeError(`introspection frame length ${length} is outside [1, ${MAX_FRAME_BYTES}]`);
      if (this.#buffered < 4 + length) break;
      const frame = this.#take(4 + length).subarray(4);
      frames.push(decodeFrame(frame));
    }
    return frames;
  }

  #peek(n: number): Buffer {
    if ((this.#chunks[0]?.length ?? 0) < n) this.#chunks = [Buffer.concat(this.#chunks)];
    return this.#chunks[0] as Buffer;
  }

  #take(n: number): Buffer {
    const first = this.#peek(n);
    if (first.length < n) throw new RangeError(`internal: ${n} bytes requested, ${first.length} buffered`);
    const out = first.subarray(0, n);
    const rest = first.subarray(n);
    if (rest.length > 0) this.#chunks[0] = rest;
    else this.#chunks.shift();
    this.#buffered -= n;
    return out;
  }
}

function decodeFrame(frame: Buffer): Frame {
  const kind = frame.readUInt8(0);
  if (kind === FRAME_JSON) return { kind: "json", value: JSON.parse(frame.subarray(1).toString("utf8")) as unknown };
  if (kind === FRAME_MESSAGE) {
    if (frame.length < MESSAGE_HEADER_BYTES - 4) throw new RangeError(`introspection MESSAGE frame of ${frame.length} bytes is shorter than its ${MESSAGE_HEADER_BYTES - 4}-byte header`);
    return { kind: "message", subscriptionId: frame.readUInt32BE(1), receiveTimeNs: frame.readBigUInt64BE(5), bytes: frame.subarray(13) };
  }
  if (kind === FRAME_PUBLISH) {
    const fixed = PUBLISH_FIXED_BYTES - 4;
    if (frame.length < fixed) throw new RangeError(`introspection PUBLISH frame of ${frame.length} bytes is shorter than its ${fixed}-byte header`);
    const headerLength = frame.readUInt32BE(5);
    if (headerLength > frame.length - fixed) {
      throw new RangeError(`introspection PUBLISH header length ${headerLength} exceeds the frame's remaining ${frame.length - fixed} bytes`);
    }
    const header = JSON.parse(frame.subarray(fixed, fixed + headerLength).toString("utf8")) as unknown;
    return { kind: "publish", id: frame.readUInt32BE(1), header, bytes: frame.subarray(fixed + headerLength) };
  }
  throw new RangeError(`introspection frame kind ${kind} is not 1 (JSON), 2 (MESSAGE) or 3 (PUBLISH)`);
}
