/**
 * The framing the binary caches share (data/frameCacheCodec.ts: one recorded flight's frames;
 * spatial/rolloutCodec.ts: one spatial rollout flight), little-endian:
 *   u32 magic | u32 version | u32 header length L | L bytes of UTF-8 JSON header | body
 * Pure: bytes in and out. Each cache keeps its own error class and names its kind of file.
 */

export type FramedErrorClass = new (message: string) => Error;

/** A buffer of the framing plus `bodyBytes`, the header written; the body starts at `offset`. */
export function writeFrame(magic: number, version: number, header: unknown, bodyBytes: number): { out: Uint8Array; dv: DataView; offset: number } {
  const text = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(12 + text.length + bodyBytes);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, magic, true);
  dv.setUint32(4, version, true);
  dv.setUint32(8, text.length, true);
  out.set(text, 12);
  return { out, dv, offset: 12 + text.length };
}

/**
 * The parsed JSON header (unchecked: the caller checks its fields) and where the body starts;
 * `what` names the file in errors, `kind` the kind of file ("a frame cache file").
 */
export function readFrame(bytes: Uint8Array, magic: number, version: number, what: string, kind: string, E: FramedErrorClass): { header: unknown; dv: DataView; offset: number } {
  if (bytes.length < 12) throw new E(`${what}: ${bytes.length} bytes, too short for ${kind}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== magic) throw new E(`${what}: not ${kind} (bad magic)`);
  const v = dv.getUint32(4, true);
  if (v !== version) throw new E(`${what}: version ${v}, expected ${version}`);
  const hl = dv.getUint32(8, true);
  if (12 + hl > bytes.length) throw new E(`${what}: header length ${hl} runs past the end (${bytes.length} bytes)`);
  try {
    return { header: JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + hl))) as unknown, dv, offset: 12 + hl };
  } catch (e) {
    throw new E(`${what}: header is not JSON (${(e as Error).message})`);
  }
}
