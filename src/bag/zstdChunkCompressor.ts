/**
 * zstd chunk compression for McapWriter. @mcap/support only decompresses; @foxglove/wasm-zstd
 * (the same WASM build @mcap/support uses to decompress) also exports `compress`. lz4 has no
 * compressor in those packages, and MCAP only standardises "zstd" and "lz4" chunk compression
 * (foxglove/mcap docs/specification/README.md "Chunk"), so zlib is not an option.
 */
import * as zstd from "@foxglove/wasm-zstd";

export type ChunkCompressor = (chunk: Uint8Array) => { compression: string; compressedData: Uint8Array };

/** A compressor at `level` (zstd levels 1..19; 1 is the fastest positive level). */
export async function zstdChunkCompressor(level = 1): Promise<ChunkCompressor> {
  if (!Number.isInteger(level) || level < 1 || level > 19) throw new RangeError(`zstd level=${level}, expected an integer in [1, 19]`);
  await zstd.isLoaded;
  return (chunk) => ({ compression: "zstd", compressedData: zstd.compress(chunk, level) });
}
