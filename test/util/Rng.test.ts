/**
 * The one seeded RNG (src/util/Rng.ts, docs/architecture.md): its stream is pinned (the golden
 * bags and the simulator's worlds depend on it), and every old path reaches the same class.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Rng as SimRng } from "../../sim";
import { Rng as HarnessRng } from "../../src/harness";
import { Rng, hash32 } from "../../src/util/Rng";
import { listProductionFiles, REPO_ROOT } from "../architecture/importGraph";

// From sim/Rng.ts before it moved here (commit 6aa5c5d): new Rng(1), four nextU32(); hash32(12345).
const PINNED_SEED_1 = [2442144158, 3238099751, 3819917871, 2104621829];
const PINNED_HASH_12345 = 2435775735;

describe("Rng (src/util/Rng.ts)", () => {
  it("gives the pinned xoshiro128** stream (the simulator's, byte for byte)", () => {
    const rng = new Rng(1);
    expect(Array.from({ length: 4 }, () => rng.nextU32())).toEqual(PINNED_SEED_1);
    expect(hash32(12345)).toBe(PINNED_HASH_12345);
  });

  it("is the one class behind sim/ and src/harness", () => {
    expect(SimRng).toBe(Rng);
    expect(HarnessRng).toBe(Rng);
  });

  it("int(n) is uniform in [0, n), int(min, max) in [min, max]; uniform() equals next()", () => {
    const a = new Rng(7);
    const b = new Rng(7);
    for (let i = 0; i < 1000; i++) {
      const k = a.int(5);
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(5);
      expect(b.int(0, 4)).toBe(k);
    }
    expect(new Rng(3).uniform()).toBe(new Rng(3).next());
    expect(() => new Rng(1).int(0)).toThrow(RangeError);
  });

  it("shuffle is a seeded permutation", () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const once = new Rng(4).shuffle([...items]);
    expect([...once].sort((x, y) => x - y)).toEqual(items);
    expect(new Rng(4).shuffle([...items])).toEqual(once);
    expect(once).not.toEqual(items);
  });

  it("no other production file carries its own generator", () => {
    const mine = "src/util/Rng.ts";
    const files = listProductionFiles().filter((f) => f !== mine);
    const own = files.filter((f) => /0x6d2b79f5|Math\.random\(|class \w*(Rng|Random)\b|mulberry|xoshiro/i.test(fs.readFileSync(path.join(REPO_ROOT, f), "utf8")));
    expect(own).toEqual([]);
  });
});
