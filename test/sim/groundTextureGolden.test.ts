/**
 * The procedural ground texture is part of every recorded frame (frame caches, trained models,
 * committed results), so a speed change to its builder must leave its bytes alone. The digests
 * below are of the builder before the row-wise noise layer and the single-pass quantisation
 * (2026-12-02): every mip level and the grain of two tiles, one at the scenarios' 1024 texels and
 * one at 256 (odd canopy cell: 3 m / 0.35 m rounds to 9 texels, not a divisor of the size).
 */
import { createHash } from "node:crypto";
import { buildGround } from "../../sim/GroundTexture";
import { Rng } from "../../src/util/Rng";

function digest(seed: number, size: number, brightness: number): string {
  const g = buildGround(new Rng(seed), { texel_m: 0.35, size, fields: 1, roads: 0.6, buildings: 0.5, foliage: 0.8, water: 0.3, brightness });
  const h = createHash("sha256");
  for (const level of g.levels) h.update(level);
  h.update(Buffer.from(g.grain.buffer, g.grain.byteOffset, g.grain.byteLength));
  return h.digest("hex");
}

describe("ground texture bytes", () => {
  it("are those of the original builder for a 1024 and a 256 tile", () => {
    expect(digest(7, 1024, 1.3)).toBe("0f059fd75de97b2e00d7ff835bde550b0f28b54428e547d5d2694a6d74e6bba1");
    expect(digest(11, 256, 0.6)).toBe("ef27d6c565f73f0211e19bdffc55ef50146e06cab964ba7bf0e55ee3cd798f52");
  });

  it("do not depend on the tile built before (the working arrays are reused)", () => {
    digest(3, 1024, 0.9);
    expect(digest(7, 1024, 1.3)).toBe("0f059fd75de97b2e00d7ff835bde550b0f28b54428e547d5d2694a6d74e6bba1");
  });
});
