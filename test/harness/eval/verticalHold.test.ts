/**
 * PlannerPilot's wiring of the planner's vertical hold (PlannerOptions.wVerticalHold): every
 * decision hands the planner the action chosen at the previous decision (-1 before the first and
 * after reset()), and the hold then moves the decision the way LocalPlanner.holdVertical says.
 */
import { initBackend } from "../../../src/harness/backend";
import { LocalPlanner } from "../../../src/control/LocalPlanner";
import { PlannerPilot } from "../../../src/harness/eval/PlannerPilot";
import { Teacher } from "../../../src/harness/models/Teacher";
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
