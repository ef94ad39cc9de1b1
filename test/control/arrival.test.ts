/**
 * The final approach (src/control/arrival.ts): inside the radius, with the goal's altitude more than
 * 1 m away and the way ahead clear, the vertical manoeuvre toward the goal's altitude with the
 * forward speed that closes the horizontal distance in the same time; the planner's own decision
 * everywhere else.
 */
import { ACTIONS, DEFAULT_ACTION_LIMITS } from "../../src/control/actions";
import { arrivalDecision, type ArrivalDecision } from "../../src/control/arrival";
import { LocalPlanner } from "../../src/control/LocalPlanner";
import { makeNavigation } from "../../src/control/navigation";

const CLIMB = ACTIONS.indexOf("climb");
const DESCEND = ACTIONS.indexOf("descend");
const out = (): ArrivalDecision => ({ action: -1, forward_m_s: -1 });

describe("arrivalDecision", () => {
  it("descends to a goal below at the speed that closes the distance in the descent's time, capped at the manoeuvre speed", () => {
    const nav = makeNavigation();
    nav.goalDistance_m = 3;
    nav.goalDz_m = -9; // 6 s at 1.5 m/s: 3 m in 6 s
    expect(arrivalDecision(nav, 0.1, 6, DEFAULT_ACTION_LIMITS, out())).toEqual({ action: DESCEND, forward_m_s: 0.5 });
    nav.goalDz_m = 1.5; // 1 s up: 3 m/s would be needed, the manoeuvre's 1.4 m/s is flown
    const up = arrivalDecision(nav, 0.1, 6, DEFAULT_ACTION_LIMITS, out())!;
    expect(up.action).toBe(CLIMB);
    expect(up.forward_m_s).toBeCloseTo(4 * 0.35, 12);
  });

  it("flies no forward speed to a goal behind, and scales it by the bearing's cosine ahead", () => {
    const nav = makeNavigation();
    nav.goalDistance_m = 3;
    nav.goalDz_m = -9;
    nav.goalBearing_rad = 2.5;
    expect(arrivalDecision(nav, 0, 6, DEFAULT_ACTION_LIMITS, out())).toEqual({ action: DESCEND, forward_m_s: 0 });
    nav.goalBearing_rad = Math.PI / 3;
    expect(arrivalDecision(nav, 0, 6, DEFAULT_ACTION_LIMITS, out())!.forward_m_s).toBeCloseTo(0.25, 12);
  });

  it("guarded, leaves the planner's decision when the manoeuvre's own arc is blocked, and reads that manoeuvre's arc", () => {
    const nav = makeNavigation();
    nav.goalDistance_m = 3;
    nav.goalDz_m = -9;
    const asked: number[] = [];
    const blocked = (level: number) => ({
      blockedOf: (a: number): number => {
        asked.push(a);
        return level;
      },
    });
    expect(arrivalDecision(nav, 0.1, 6, DEFAULT_ACTION_LIMITS, out(), blocked(0.5))).toBeUndefined();
    expect(arrivalDecision(nav, 0.1, 6, DEFAULT_ACTION_LIMITS, out(), blocked(0.49))).toEqual({ action: DESCEND, forward_m_s: 0.5 });
    expect(asked).toEqual([DESCEND, DESCEND]);
  });

  it("leaves the planner's decision outside the radius, within 1 m of the goal's altitude, with the way ahead blocked, and when off", () => {
    const nav = makeNavigation();
    nav.goalDistance_m = 3;
    nav.goalDz_m = -9;
    expect(arrivalDecision(nav, 0.1, 0, DEFAULT_ACTION_LIMITS, out())).toBeUndefined();
    expect(() => new LocalPlanner({ arrivalRadius_m: -1 })).toThrow(/arrivalRadius_m=-1, expected a finite number >= 0/);
    expect(() => new LocalPlanner({ arrivalGuarded: "yes" as never })).toThrow(/arrivalGuarded=yes, expected true or false/);
    expect(() => new LocalPlanner().blockedOf(7)).toThrow(/action=7, expected an integer in \[0, 6\]/);
    expect(arrivalDecision(nav, 0.5, 6, DEFAULT_ACTION_LIMITS, out())).toBeUndefined();
    nav.goalDistance_m = 6;
    expect(arrivalDecision(nav, 0.1, 6, DEFAULT_ACTION_LIMITS, out())).toBeUndefined();
    nav.goalDistance_m = 3;
    nav.goalDz_m = -1;
    expect(arrivalDecision(nav, 0.1, 6, DEFAULT_ACTION_LIMITS, out())).toBeUndefined();
  });
});
