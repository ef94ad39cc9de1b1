import * as zlib from "node:zlib";
import { crc32, crc32Final, crc32Update, CRC32_INIT } from "../../src/bag/crc32";

describe("crc32", () => {
  it("matches the standard check value and zlib's crc32", () => {
    // "123456789" -> 0xCBF43926 is the catalogued CRC-32/ISO-HDLC check value (reveng CRC catalogue)
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    const data = new Uint8Array(100_003);
    for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
    expect(crc32(data)).toBe(zlib.crc32(data));
    // incremental over uneven pieces equals one shot
    let c = CRC32_INIT;
    for (let i = 0; i < data.length; i += 777) c = crc32Update(c, data.subarray(i, i + 777));
    expect(crc32Final(c)).toBe(zlib.crc32(data));
  });
});
