/**
 * The one stamp <-> nanoseconds conversion (src/util/time.ts, docs/architecture.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { stampToNs as nodesStampToNs } from "../../nodes/common/ros/StampGuard";
import { nsToStamp as graphNsToStamp, stampToNs as graphStampToNs } from "../../src/ros/graph";
import { nsToStamp, stampToNs } from "../../src/util/time";
import { listProductionFiles, REPO_ROOT } from "../architecture/importGraph";


describe("stamp <-> nanoseconds (src/util/time.ts)", () => {
  it("round-trips, with nanosec in [0, 1e9) before the epoch too", () => {
    for (const ns of [0n, 1n, 999_999_999n, 1_000_000_000n, 1_733_000_000_123_456_789n, -1n, -1_500_000_000n]) {
      const s = nsToStamp(ns);
      expect(s.nanosec).toBeGreaterThanOrEqual(0);
      expect(s.nanosec).toBeLessThan(1e9);
      expect(stampToNs(s)).toBe(ns);
    }
    expect(nsToStamp(-1n)).toEqual({ sec: -1, nanosec: 999_999_999 });
    expect(stampToNs({ sec: 1_733_000_000, nanosec: 5 })).toBe(1_733_000_000_000_000_005n);
  });

  it("is the one function behind the graph and the nodes", () => {
    expect(graphStampToNs).toBe(stampToNs);
    expect(graphNsToStamp).toBe(nsToStamp);
    expect(nodesStampToNs).toBe(stampToNs);
  });

  it("has no other copy in src/, nodes/ or sim/", () => {
    const copy = /BigInt\([\w.]*sec\) \* 1_000_000_000n|sec: Number\(\w+ \/ 1_000_000_000n\)/;
    const own = listProductionFiles().filter((f) => f !== "src/util/time.ts" && copy.test(fs.readFileSync(path.join(REPO_ROOT, f), "utf8")));
    expect(own).toEqual([]);
  });
});
