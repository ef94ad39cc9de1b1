/**
 * Image dimensions read from a PNG or JPEG header without decoding the pixels (issue 16 item 5:
 * a 68-byte PNG claiming 20000x20000 cost 40 s and 4 GB in the decoder before it was refused).
 *
 * PNG: the 8-byte signature, then the IHDR chunk (length 13, type "IHDR", width and height as
 * big-endian uint32; PNG spec 11.2.2). JPEG: markers from SOI; the first start-of-frame marker
 * (SOF0-SOF15 except DHT 0xC4, JPG 0xC8, DAC 0xCC) carries precision, height, width as big-endian
 * uint16 (ITU T.81 B.2.2). Pure: bytes in, a tagged outcome out.
 */
export type ImageFormat = "png" | "jpeg";

export type ImageHeader =
  | {
      type: "ok";
      format: ImageFormat;
      width: number;
      height: number;
      /**
       * Fewest file bytes that can hold an image of this size: a file shorter than this is
       * truncated or lies about its size (fuzzing found a 1 kB JPEG claiming 90 megapixels that
       * jpeg-js spent 10 s on). PNG: deflate expands at most 1032:1 (zlib technical details), of
       * rows of 1 + ceil(width * bits per pixel / 8) bytes. JPEG: every 8x8 luma block costs at
       * least one bit of entropy-coded DC data (ITU T.81 F.1.2.1; progressive EOB runs skip AC
       * data only), halved for margin.
       */
      minBytes: number;
    }
  | { type: "unknown"; detail: string }
  | { type: "malformed"; format: ImageFormat; detail: string };

// The first four signature bytes decide the format (as before); a bad rest of the header is "malformed".
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

/** Samples per pixel by PNG colour type (PNG spec 11.2.2): grey, RGB, palette, grey+alpha, RGBA. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function readPngHeader(b: Uint8Array): ImageHeader {
  if (b.length < 24) return { type: "malformed", format: "png", detail: `${b.length} bytes, expected at least 24 (signature + IHDR)` };
  const type = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
  if (type !== "IHDR") return { type: "malformed", format: "png", detail: `first chunk "${type}", expected IHDR` };
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const width = dv.getUint32(16);
  const height = dv.getUint32(20);
  const bitDepth = b[24] ?? 1;
  const channels = PNG_CHANNELS[b[25] ?? 0] ?? 1;
  const rowBytes = 1 + Math.ceil((width * channels * bitDepth) / 8);
  return { type: "ok", format: "png", width, height, minBytes: Math.floor((height * rowBytes) / 1032) };
}

function isSofMarker(m: number): boolean {
  return m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
}

function readJpegHeader(b: Uint8Array): ImageHeader {
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return { type: "malformed", format: "jpeg", detail: `byte ${i} is 0x${b[i]!.toString(16)}, expected a 0xff marker` };
    const m = b[i + 1]!;
    if (m === 0xff) {
      i++; // fill byte (T.81 B.1.1.2)
      continue;
    }
    if (m === 0xd8 || m === 0x01 || (m >= 0xd0 && m <= 0xd7)) {
      i += 2; // markers without a length field
      continue;
    }
    if (m === 0xd9 || m === 0xda) return { type: "malformed", format: "jpeg", detail: `marker 0xff${m.toString(16)} at byte ${i} before any start-of-frame` };
    const len = (b[i + 2]! << 8) | b[i + 3]!;
    if (len < 2) return { type: "malformed", format: "jpeg", detail: `segment length ${len} at byte ${i + 2}, expected >= 2` };
    if (isSofMarker(m)) {
      if (i + 9 > b.length) break;
      const height = (b[i + 5]! << 8) | b[i + 6]!;
      const width = (b[i + 7]! << 8) | b[i + 8]!;
      return { type: "ok", format: "jpeg", width, height, minBytes: Math.floor((Math.ceil(width / 8) * Math.ceil(height / 8)) / 16) };
    }
    i += 2 + len;
  }
  return { type: "malformed", format: "jpeg", detail: `no start-of-frame marker in ${b.length} bytes` };
}

/** Format and dimensions from the first bytes of a PNG or JPEG file. */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length >= 4 && PNG_SIGNATURE.every((v, i) => bytes[i] === v)) return readPngHeader(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return readJpegHeader(bytes);
  const first = Array.from(bytes.subarray(0, 4), (v) => v.toString(16).padStart(2, "0")).join(" ");
  return { type: "unknown", detail: `not a PNG or JPEG file (first bytes ${first})` };
}
