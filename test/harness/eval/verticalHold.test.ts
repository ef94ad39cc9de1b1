/**
 * PlannerPilot's wiring of the planner's vertical hold (PlannerOptions.wVerticalHold): every
 * decision hands the planner the action chosen at the previous decision (-1 before the first and
 * after reset()), and the hold then moves the decision the way LocalPlanner.holdVertical says.
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../../src/harness/backend";
import { LocalPlanner } from "../../../src/control/LocalPlanner";
import { ACTIONS, type ActionName } from "../../../src/harness/actions";
import { PlannerPilot } from "../../../src/harness/eval/PlannerPilot";
import { Teacher } from "../../../src/harness/models/Teacher";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { FakeEnvironment } from "../training/fakeEnvironment";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("PlannerPilot: the previous decision for the vertical hold", () => {
  let detector: Teacher;
  beforeAll(() => {
    detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
  });
  afterAll(() => detector.dispose());

  it("passes each decision's action to the next one's hold, and -1 after reset()", () => {
    const original = LocalPlanner.prototype.holdVertical;
    const held: Float32Array[] = [];
    const spy = jest.spyOn(LocalPlanner.prototype, "holdVertical").mockImplementation(function (this: LocalPlanner, out: Float32Array, previous: number) {
      const r = original.call(this, out, previous);
      held.push(Float32Array.from(r));
      return r;
    });
    try {
      const env = new FakeEnvironment(8);
      const rgb = new Uint8Array(64 * 64 * 3);
      env.render(rgb);
      const pilot = new PlannerPilot({ type: "detector", detector }, { wVerticalHold: 1 });
      const actions: number[] = [];
      for (let k = 0; k < 4; k++) actions.push(pilot.act(rgb, new Float32Array(0), env));
      pilot.reset();
      actions.push(pilot.act(rgb, new Float32Array(0), env));
      const previous = spy.mock.calls.map((c) => c[1]);
      expect(previous).toEqual([-1, actions[0], actions[1], actions[2], -1]);
      // Each returned action is the argmax of the logits after the hold.
      held.forEach((l, k) => expect(actions[k]).toBe(l.indexOf(Math.max(...l))));
      expect(held).toHaveLength(5);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("PlannerPilot: the last vertical escape for brakeOnReversal", () => {
  it("hands the planner the last climb or descend and the decisions since, and forgets them on reset()", () => {
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const script = ["climb", "hover", "cruise", "descend", "slow"].map((a) => ACTIONS.indexOf(a as ActionName));
    let k = 0;
    const spy = jest.spyOn(LocalPlanner.prototype, "brakeReversal").mockImplementation(() => script[k++ % script.length]!);
    try {
      const env = new FakeEnvironment(8);
      const rgb = new Uint8Array(64 * 64 * 3);
      env.render(rgb);
      const pilot = new PlannerPilot({ type: "detector", detector }, { brakeOnReversal: 0.3 });
      const actions: number[] = [];
      for (let i = 0; i < 5; i++) actions.push(pilot.act(rgb, new Float32Array(0), env));
      expect(actions).toEqual(script);
      pilot.reset();
      pilot.act(rgb, new Float32Array(0), env);
      const [climb, descend] = [ACTIONS.indexOf("climb"), ACTIONS.indexOf("descend")];
      expect(spy.mock.calls.map((c) => [c[1], c[2]])).toEqual([[-1, 0], [climb, 0], [climb, 1], [climb, 2], [descend, 0], [-1, 0]]);
    } finally {
      spy.mockRestore();
      detector.dispose();
    }
  });
});

describe("PlannerPilot: the held region risk (riskHold, eval --harness --risk-hold)", () => {
  let detector: Teacher;
  beforeAll(() => {
    detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
  });
  afterAll(() => detector.dispose());

  it("replaces each region's risk by max(risk, P x the last held risk) (P = 0.99), and starts afresh after reset()", () => {
    // apply: false, so the correction never reaches the detector's input and both pilots see the same raw risk.
    const model = new SpatialHarness({ seed: 5 });
    const held = new PlannerPilot({ type: "detector", detector, harness: { model, apply: false, riskHold: 0.99 } });
    const raw = new PlannerPilot({ type: "detector", detector, harness: { model, apply: false } });
    const env = new FakeEnvironment(8);
    const rgb = new Uint8Array(64 * 64 * 3);
    let last: number[] | undefined;
    let lowered = 0;
    for (let k = 0; k < 7; k++) {
      // Reset before a grey frame, where the held risk would exceed the raw one.
      if (k === 5) {
        held.reset();
        raw.reset();
        last = undefined;
      }
      // The scene's render, then a flat grey frame, in turn: the risk moves between steps.
      if (k % 2 === 0) env.render(rgb);
      else rgb.fill(90 + 20 * k);
      held.act(rgb, new Float32Array(0), env);
      raw.act(rgb, new Float32Array(0), env);
      const r = Array.from(raw.harnessRuntime!.risk);
      const h = Array.from(held.harnessRuntime!.risk);
      const expected = r.map((v, i) => Math.fround(Math.max(v, last === undefined ? 0 : 0.99 * last[i]!)));
      expect(h).toEqual(expected);
      lowered += r.filter((v, i) => v < expected[i]!).length;
      last = h;
    }
    // The untrained harness's risk moves by a few per cent between the two frames: a hold of 0.99 acts on it.
    expect(lowered).toBeGreaterThan(0);
  });
});

describe("PlannerPilot: the escape in place only where the detector sees wire (verticalInPlaceWireCells)", () => {
  it("flies in place while a frame within 2 s held >= cells confident wire cells, not otherwise", () => {
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const out = detector.params.get("head/out/w");
    out.assign(tf.zerosLike(out));
    const bias = detector.params.get("head/out/b");
    const wire = (seen: boolean): void => bias.assign(tf.tensor1d(seen ? [-20, 20, -20, -20, -20] : [20, -20, -20, -20, -20]));
    // The planner says "in place" on every decision: what is left to decide is the wire evidence.
    const spy = jest.spyOn(LocalPlanner.prototype, "inPlace").mockReturnValue(true);
    try {
      const env = new FakeEnvironment(8);
      const rgb = new Uint8Array(64 * 64 * 3);
      const decide = (): boolean => {
        env.render(rgb);
        pilot.act(rgb, new Float32Array(0), env);
        return pilot.forward_m_s === 0;
      };
      const pilot = new PlannerPilot({ type: "detector", detector }, { verticalInPlace: 0.3, verticalInPlaceWireCells: 6 });
      wire(false);
      expect(decide()).toBe(false); // no wire yet
      wire(true);
      expect(decide()).toBe(true); // every cell a confident wire
      wire(false);
      const seenAt = env.time_s;
      const inPlace: boolean[] = [];
      while (env.time_s - seenAt < 3) {
        env.step(ACTIONS.indexOf("hover"));
        inPlace.push(decide());
      }
      // In place for 2 s after the last wire frame, then not.
      const steps2s = Math.floor(2 / env.controlPeriod_s + 1e-9);
      expect(inPlace.slice(0, steps2s).every((x) => x)).toBe(true);
      expect(inPlace[inPlace.length - 1]).toBe(false);
      // Without the condition the planner's answer stands; reset() forgets the evidence.
      const plain = new PlannerPilot({ type: "detector", detector }, { verticalInPlace: 0.3 });
      plain.act(rgb, new Float32Array(0), env);
      expect(plain.forward_m_s === 0).toBe(true);
      wire(true);
      decide();
      pilot.reset();
      wire(false);
      expect(decide()).toBe(false);
    } finally {
      spy.mockRestore();
      detector.dispose();
    }
  });
});
