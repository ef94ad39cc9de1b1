/**
 * The scan when stuck (src/control/stuckScan.ts): after `after_s` seconds in which the drone came no more
 * than 1 m closer to the goal than its best, hover becomes a yaw toward the less blocked arc, held for the
 * episode; other decisions, and hover before that, are left alone; progress ends the episode.
 */
import { ACTIONS } from "../../src/control/actions";
import { makeNavigation, type Navigation } from "../../src/control/navigation";
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
    expect(scan.counts).toEqual({ decisions: 1, episodes: 1, climbs: 0 });
  });

  it("holds the episode's side though the arcs change, and leaves every other decision as chosen", () => {
    const scan = new StuckScan(2);
    scan.decide(HOVER, 20, 0, arcs(0, 0));
    expect(scan.decide(HOVER, 20, 2, arcs(0.1, 0.8))).toBe(LEFT);
    expect(scan.decide(HOVER, 20, 2.25, arcs(0.9, 0.1))).toBe(LEFT);
    expect(scan.decide(CRUISE, 20, 2.5, arcs(0.9, 0.1))).toBe(CRUISE);
    expect(scan.scanning).toBe(false);
    expect(scan.decide(HOVER, 20, 2.75, arcs(0.9, 0.1))).toBe(LEFT);
    expect(scan.counts).toEqual({ decisions: 3, episodes: 1, climbs: 0 });
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
    expect(scan.counts).toEqual({ decisions: 1, episodes: 1, climbs: 0 });
  });

  it("refuses a non-positive time and a non-finite range with the value named", () => {
    expect(() => new StuckScan(0)).toThrow("scan when stuck after_s=0, expected a positive number of seconds");
    expect(() => new StuckScan(Number.NaN)).toThrow(/after_s=NaN/);
    expect(() => new StuckScan(1).decide(HOVER, Number.NaN, 0, arcs(0, 0))).toThrow("scan when stuck: goal range NaN m, expected a finite non-negative number");
  });
});

describe("StuckScan: the climb when stuck", () => {
  /** A goal `distance_m` ahead, `dz_m` above. */
  const navAt = (distance_m: number, dz_m = 0): Navigation => Object.assign(makeNavigation(), { goalDistance_m: distance_m, goalDz_m: dz_m, goalBearing_rad: 0.2, altitude_m: 6 });

  it("leaves the navigation alone until stuck, then raises the goal's altitude by climb_m, the rest as it was", () => {
    const scan = new StuckScan(2, { climb_m: 8, release_m: 6 });
    const out = makeNavigation();
    const nav = navAt(30, 0.5);
    expect(scan.plannerNav(nav, 0, out)).toBe(nav);
    scan.decide(CRUISE, 30, 0, arcs(0, 0));
    expect(scan.plannerNav(nav, 1.75, out)).toBe(nav);
    expect(scan.climbingNow).toBe(false);
    const raised = scan.plannerNav(nav, 2, out);
    expect(raised).toBe(out);
    expect(raised).toEqual({ ...nav, goalDz_m: 8.5 });
    expect(nav.goalDz_m).toBe(0.5);
    expect(scan.climbingNow).toBe(true);
    expect(scan.counts.climbs).toBe(1);
  });

  it("keeps climbing after progress, ends within release_m of the goal, and does not begin there", () => {
    const scan = new StuckScan(1, { climb_m: 8, release_m: 6 });
    const out = makeNavigation();
    scan.decide(HOVER, 30, 0, arcs(0, 0));
    scan.plannerNav(navAt(30), 1, out);
    // 5 m of progress: no longer stuck, still climbing (the raised goal is held until near the goal).
    scan.decide(CRUISE, 25, 1, arcs(0, 0));
    expect(scan.plannerNav(navAt(25), 1.25, out).goalDz_m).toBe(8);
    expect(scan.plannerNav(navAt(6), 5, out).goalDz_m).toBe(0);
    expect(scan.climbingNow).toBe(false);
    // Stuck again, 5 m from the goal: no climb.
    scan.decide(HOVER, 5, 5, arcs(0, 0));
    expect(scan.plannerNav(navAt(5), 7, out).goalDz_m).toBe(0);
    expect(scan.counts.climbs).toBe(1);
  });

  it("forgets the climb on reset(), is off without a climb, and refuses a bad climb with the values named", () => {
    const scan = new StuckScan(1, { climb_m: 8, release_m: 6 });
    scan.decide(HOVER, 30, 0, arcs(0, 0));
    scan.plannerNav(navAt(30), 1, makeNavigation());
    scan.reset();
    expect(scan.climbingNow).toBe(false);
    expect(scan.plannerNav(navAt(30), 0, makeNavigation()).goalDz_m).toBe(0);
    const plain = new StuckScan(1);
    plain.decide(HOVER, 30, 0, arcs(0, 0));
    const nav = navAt(30);
    expect(plain.plannerNav(nav, 5, makeNavigation())).toBe(nav);
    expect(() => new StuckScan(1, { climb_m: 0, release_m: 6 })).toThrow("climb when stuck climb_m=0, release_m=6: expected a climb > 0 m and a release distance >= 0 m");
    expect(() => new StuckScan(1, { climb_m: 8, release_m: Number.NaN })).toThrow(/release_m=NaN/);
  });
});

