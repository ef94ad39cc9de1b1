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
/** Largest PUBLISH JSON header ({topic, typeName, qos} is under 300 bytes). */
export const MAX_PUBLISH_HEADER_BYTES = 64 * 1024;

/**
 * Largest frame of each kind a decoder accepts. A PUBLISH frame's limit depends on the message
 * type named in its header, which is read before the body is buffered, so a client announcing a
 * 200 MB `std_msgs/msg/String` is refused after a few hundred bytes, not after 200 MB.
 */
export type FrameLimits = {
  jsonBytes: number;
  messageBytes: number;
  publishBytes: (typeName: string) => number;
};

/** What a client accepts from the launch: any frame up to MAX_FRAME_BYTES. */
export const CLIENT_FRAME_LIMITS: FrameLimits = { jsonBytes: MAX_FRAME_BYTES, messageBytes: MAX_FRAME_BYTES, publishBytes: () => MAX_FRAME_BYTES };

/** Message types whose messages are large (images, point clouds, maps): up to 64 MiB (a 4K rgba8 image is 33 MB). */
export const LARGE_MESSAGE_TYPES: ReadonlySet<string> = new Set([
  "sensor_msgs/msg/Image",
  "sensor_msgs/msg/CompressedImage",
  "sensor_msgs/msg/PointCloud2",
  "sensor_msgs/msg/PointCloud",
  "nav_msgs/msg/OccupancyGrid",
]);
export const LARGE_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Any other message type (IMU, GPS, twist, strings, test_msgs arrays) fits in 4 MiB. */
export const SMALL_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * What the launch accepts from a client: JSON requests up to 1 MiB (a request is under 1 KiB),
 * no MESSAGE frames (only the launch sends them), PUBLISH frames capped by message type.
 */
export const SERVER_FRAME_LIMITS: FrameLimits = {
  jsonBytes: 1024 * 1024,
  messageBytes: 0,
  publishBytes: (typeName) => (LARGE_MESSAGE_TYPES.has(typeName) ? LARGE_MESSAGE_BYTES : SMALL_MESSAGE_BYTES),
};

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
  readonly #limits: FrameLimits;
  /** The pending frame's length was checked against its kind's (and type's) limit. */
  #checked = false;

  constructor(limits: FrameLimits = CLIENT_FRAME_LIMITS) {
    this.#limits = limits;
  }

  /** Bytes received and not yet returned as frames (a partial frame). */
  get bufferedBytes(): number {
    return this.#buffered;
  }

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
      if (!this.#checked && !this.#checkLimit(length)) break;
      if (this.#buffered < 4 + length) break;
      const frame = this.#take(4 + length).subarray(4);
      this.#checked = false;
      frames.push(decodeFrame(frame));
    }
    return frames;
  }

  /** Checks the pending frame against its limit once enough of it is buffered; false: wait for more bytes. */
  #checkLimit(length: number): boolean {
    if (this.#buffered < 5) return false;
    const kind = this.#peek(5).readUInt8(4);
    const limit = kind === FRAME_JSON ? this.#limits.jsonBytes : kind === FRAME_MESSAGE ? this.#limits.messageBytes : kind === FRAME_PUBLISH ? this.#publishLimit(length) : MAX_FRAME_BYTES;
    if (limit === undefined) return false;
    const max = typeof limit === "number" ? limit : limit.bytes;
    const what = typeof limit === "number" ? (kind === FRAME_JSON ? "JSON" : kind === FRAME_MESSAGE ? "MESSAGE" : `kind ${kind}`) : `PUBLISH ${limit.typeName ?? ""}`.trim();
    if (length > max) throw new RangeError(`introspection ${what} frame of ${length} bytes exceeds the ${max}-byte limit for it`);
    this.#checked = true;
    return true;
  }

  /** The limit of a PUBLISH frame from its header's typeName, or undefined until the header is buffered. */
  #publishLimit(length: number): { bytes: number; typeName?: string } | undefined {
    const fixed = PUBLISH_FIXED_BYTES;
    if (this.#buffered < fixed) return undefined;
    const headerLength = this.#peek(fixed).readUInt32BE(9);
    if (headerLength > MAX_PUBLISH_HEADER_BYTES || headerLength > length - (fixed - 4)) {
      throw new RangeError(`introspection PUBLISH header length ${headerLength} exceeds the frame's remaining ${length - (fixed - 4)} bytes or the ${MAX_PUBLISH_HEADER_BYTES}-byte header limit`);
    }
    if (this.#buffered < fixed + headerLength) return undefined;
    const header = parseJson(this.#peek(fixed + headerLength).subarray(fixed, fixed + headerLength), "PUBLISH header");
    const typeName = typeof header === "object" && header !== null && typeof (header as { typeName?: unknown }).typeName === "string" ? (header as { typeName: string }).typeName : "";
    return { bytes: this.#limits.publishBytes(typeName), typeName };
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
  if (kind === FRAME_JSON) return { kind: "json", value: parseJson(frame.subarray(1), "JSON frame") };
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
    const header = parseJson(frame.subarray(fixed, fixed + headerLength), "PUBLISH header");
    return { kind: "publish", id: frame.readUInt32BE(1), header, bytes: frame.subarray(fixed + headerLength) };
  }
  throw new RangeError(`introspection frame kind ${kind} is not 1 (JSON), 2 (MESSAGE) or 3 (PUBLISH)`);
}

/** JSON.parse with an error naming the frame part (a SyntaxError alone does not say where). */
function parseJson(bytes: Buffer, what: string): unknown {
  try {
    return JSON.parse(bytes.toString("utf8")) as unknown;
  } catch (err) {
    throw new RangeError(`introspection ${what} of ${bytes.length} bytes is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}
