import { StampGuard, stampToNs } from "../../../nodes/common/ros/StampGuard";

const t = (sec: number, nanosec = 0) => ({ sec, nanosec });
const S = 1_000_000_000n;

describe("StampGuard", () => {
  it("accepts increasing stamps and drops duplicates and out-of-order ones", () => {
    const g = new StampGuard();
    expect(g.check(t(10), 10n * S)).toEqual({ type: "ok" });
    expect(g.check(t(10, 5), 10n * S)).toEqual({ type: "ok" });
    expect(g.check(t(10, 5), 10n * S)).toMatchObject({ type: "drop", reason: "duplicate" });
    expect(g.check(t(10, 1), 10n * S)).toMatchObject({ type: "drop", reason: "out_of_order" });
    expect(g.check(t(10, 9), 10n * S)).toEqual({ type: "ok" });
  });
  it("drops stamps more than maxFuture_s ahead of the clock", () => {
    const g = new StampGuard({ maxFuture_s: 1 });
    expect(g.check(t(11), 10n * S).type).toBe("ok");
    const v = g.check(t(12, 1), 11n * S);
    expect(v).toEqual({ type: "drop", reason: "future_stamp", detail: "stamp 12.000 s is 1.000 s ahead of the clock (max 1.000 s)" });
  });
  it("reports a jump back beyond jumpBack_s and continues from the new stamp", () => {
    const g = new StampGuard({ jumpBack_s: 1 });
    g.check(t(100), 100n * S);
    expect(g.check(t(2), 2n * S)).toEqual({ type: "jump_back", detail: "stamp went back 98.000 s (from 100.000 to 2.000): histories cleared" });
    expect(g.check(t(2, 1), 2n * S).type).toBe("ok");
  });
  it("converts stamps to nanoseconds exactly", () => {
    expect(stampToNs(t(1_700_000_000, 999_999_999))).toBe(1_700_000_000_999_999_999n);
  });
});
