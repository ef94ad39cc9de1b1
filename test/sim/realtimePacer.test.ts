import { RealtimePacer } from "../../sim/RealtimePacer";

const MS = 1_000_000n;

describe("RealtimePacer", () => {
  it("runs one tick per on-time callback and catches up the ticks a late callback missed", () => {
    const p = new RealtimePacer(5n * MS, 100n * MS);
    expect(p.due(1_000n * MS)).toBe(1); // the first call starts the count
    expect(p.due(1_005n * MS)).toBe(1);
    expect(p.due(1_007n * MS)).toBe(0); // early: nothing due yet
    expect(p.due(1_010n * MS)).toBe(1);
    expect(p.due(1_031n * MS)).toBe(4); // 21 ms late by the tick grid: 1015, 1020, 1025, 1030
    expect(p.due(1_035n * MS)).toBe(1);
    expect(p.droppedTicks).toBe(0n);
  });

  it("gives up what is more than maxCatchUpNs late, counts it, and keeps the pace afterwards", () => {
    const p = new RealtimePacer(5n * MS, 20n * MS);
    p.due(0n);
    expect(p.due(100n * MS)).toBe(4); // 20 due, 4 run, 16 given up
    expect(p.droppedTicks).toBe(16n);
    expect(p.due(104n * MS)).toBe(0);
    expect(p.due(105n * MS)).toBe(1);
  });

  it("with no catch-up skips late ticks as a plain timer does", () => {
    const p = new RealtimePacer(5n * MS, 0n);
    p.due(0n);
    expect(p.due(22n * MS)).toBe(1);
    expect(p.droppedTicks).toBe(3n);
    expect(p.due(25n * MS)).toBe(1);
  });

  it("rejects a non-positive tick and a negative catch-up", () => {
    expect(() => new RealtimePacer(0n, 0n)).toThrow(/tickNs=0/);
    expect(() => new RealtimePacer(1n, -1n)).toThrow(/maxCatchUpNs=-1/);
  });
});
