/**
 * Wraps an IReadable so that no read goes past the end of the file: offsets and lengths read from
 * a corrupt file (chunk lengths, index offsets) become a named error instead of a huge allocation.
 */
import type { IReadable } from "./mcap";

export class BoundedReadable implements IReadable {
  #size: bigint | undefined;

  constructor(
    private readonly inner: IReadable,
    private readonly file: string,
  ) {}

  async size(): Promise<bigint> {
    this.#size ??= await this.inner.size();
    return this.#size;
  }

  async read(offset: bigint, size: bigint): Promise<Uint8Array> {
    const total = await this.size();
    if (offset < 0n || size < 0n || offset + size > total) {
      throw new RangeError(
        `${this.file}: read of ${size} bytes at offset ${offset} is outside the file (size ${total} bytes); a length or offset field is corrupt`,
      );
    }
    return await this.inner.read(offset, size);
  }
}
