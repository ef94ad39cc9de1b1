/**
 * The scan when stuck (src/control/stuckScan.ts): after `after_s` seconds in which the drone came no more
 * than 1 m closer to the goal than its best, hover becomes a yaw toward the less blocked arc, held for the
 * episode; other decisions, and hover before that, are left alone; progress ends the episode.
 */
import { ACTIONS } from "../../src/control/actions";
import { STUCK_PROGRESS_M, StuckScan } from "../../src/control/stuckScan";

const HOVER = ACTIONS.indexOf("hover");
const CRUISE = ACTIONS.indexOf("cruise");
const LEFT = ACTIONS.indexOf("yaw_left");
const RIGHT = ACTIONS.indexOf("yaw_right");

/** Arcs with the given blocked values of yaw_left and yaw_right (0 for every other action). */
const arcs = (left: number, right: number) => ({ blockedOf: (a: number): number => (a === LEFT ? left : a === RIGHT ? right : 0) });

describe("StuckScan", () => {
  it("leaves hover alone until after_s have passed without 1 m of progress, then yaws toward the less blocked side", () => {
    const scan = new StuckScan(10);
    for (let t = 0; t < 10; t += 0.25) {
      expect(scan.decide(HOVER, 20, t, arcs(0.9, 0.2))).toBe(HOVER);
      expect(scan.scanning).toBe(false);
    }
    expect(scan.decide(HOVER, 20 - 0.9 * STUCK_PROGRESS_M, 10, arcs(0.9, 0.2))).toBe(RIGHT);
    expect(scan.scanning).toBe(true);
    expect(scan.counts).toEqual({ decisions: 1, episodes: 1 });
  });

  it("holds the episode's side though the arcs change, and leaves every other decision as chosen", () => {
    const scan = new StuckScan(2);
    scan.decide(HOVER, 20, 0, arcs(0, 0));
    expect(scan.decide(HOVER, 20, 2, arcs(0.1, 0.8))).toBe(LEFT);
    expect(scan.decide(HOVER, 20, 2.25, arcs(0.9, 0.1))).toBe(LEFT);
    expect(scan.decide(CRUISE, 20, 2.5, arcs(0.9, 0.1))).toBe(CRUISE);
    expect(scan.scanning).toBe(false);
    expect(scan.decide(HOVER, 20, 2.75, arcs(0.9, 0.1))).toBe(LEFT);
    expect(scan.counts).toEqual({ decisions: 3, episodes: 1 });
  });

  it("ends the episode when the drone beats its best range by 1 m; the next episode chooses its side again", () => {
    const scan = new StuckScan(2);
    scan.decide(HOVER, 20, 0, arcs(0, 0));
    expect(scan.decide(HOVER, 20, 3, arcs(0.1, 0.8))).toBe(LEFT);
    expect(scan.decide(HOVER, 18.9, 3.25, arcs(0.1, 0.8))).toBe(HOVER);
    expect(scan.decide(HOVER, 18.9, 5, arcs(0.1, 0.8))).toBe(HOVER);
    expect(scan.decide(HOVER, 18.9, 5.25, arcs(0.8, 0.1))).toBe(RIGHT);
    expect(scan.counts.episodes).toBe(2);
  });

  it("starts a new flight after reset(), and keeps its counts", () => {
    const scan = new StuckScan(1);
    scan.decide(HOVER, 5, 0, arcs(0, 1));
    expect(scan.decide(HOVER, 5, 1, arcs(0, 1))).toBe(LEFT);
    scan.reset();
    expect(scan.scanning).toBe(false);
    expect(scan.decide(HOVER, 50, 0, arcs(0, 1))).toBe(HOVER);
    expect(scan.decide(HOVER, 50, 0.5, arcs(0, 1))).toBe(HOVER);
    expect(scan.counts).toEqual({ decisions: 1, episodes: 1 });
  });

  it("refuses a non-positive time and a non-finite range with the value named", () => {
    expect(() => new StuckScan(0)).toThrow("scan when stuck after_s=0, expected a positive number of seconds");
    expect(() => new StuckScan(Number.NaN)).toThrow(/after_s=NaN/);
    expect(() => new StuckScan(1).decide(HOVER, Number.NaN, 0, arcs(0, 0))).toThrow("scan when stuck: goal range NaN m, expected a finite non-negative number");
  });
});
