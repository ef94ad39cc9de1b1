/**
 * Where the lambda schedule starts each flight (LambdaScheduleOptions.initial; eval --harness
 * --lambda-initial; twenty-seventh session). SPEC's start is 0.3; at a large region clip the first
 * decisions of every flight then sit at the clip until the runaway alarm has halved lambda down
 * to its floor. The flag only moves the start; the schedule, the alarm and the clip are unchanged.
 */
import { armFiles, parseEvalHarnessArgs } from "../../../src/cli/commands/evalHarness";
import { makeNavigation } from "../../../src/control/navigation";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { LAMBDA_INITIAL, LAMBDA_MIN } from "../../../src/harness/correction/constants";
import { SpatialHarnessRuntime } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { syntheticFrame } from "./syntheticFrame";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

const W = 128;
const H = 128;
const { logits, rgb } = syntheticFrame(W, H);
const nav = { ...makeNavigation(), altitude_m: 8, forwardSpeed_m_s: 4 };

/** Four steps of a runtime at clip 8 with the alarm at SPEC's 0.6; each step's lambda and max|delta|. */
function fly(initial?: number): { lambda: number; maxAbs: number }[] {
  const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), W, H, { regionClip: 8, ...(initial === undefined ? {} : { lambda: { initial } }) });
  const out: { lambda: number; maxAbs: number }[] = [];
  for (let k = 0; k < 4; k++) {
    const info = rt.step(logits, rgb, { ...nav, yaw_rad: 0.1 * (k % 2) }, 0.25 * k);
    out.push({ lambda: info.lambda, maxAbs: info.maxAbs });
  }
  return out;
}

describe("the lambda schedule's start", () => {
  it("starts the flight at the given lambda and scales the first corrections with it", () => {
    const spec = fly();
    const floor = fly(LAMBDA_MIN);
    // The schedule moves lambda by 1 % per step at most before the alarm acts (three steps above its level).
    expect(spec[0]!.lambda).toBeCloseTo(LAMBDA_INITIAL, 2);
    expect(floor[0]!.lambda).toBeCloseTo(LAMBDA_MIN, 3);
    expect(floor[1]!.lambda).toBeLessThan(0.02);
    // Same frames, same harness: from the first step with a rate on, the start's correction is many times the floor's.
    expect(spec[1]!.maxAbs).toBeGreaterThan(0);
    expect(floor[1]!.maxAbs).toBeGreaterThan(0);
    expect(floor[1]!.maxAbs).toBeLessThan(0.2 * spec[1]!.maxAbs);
    // The default is SPEC's start: passing it changes nothing.
    expect(fly(LAMBDA_INITIAL)).toEqual(spec);
  });

  it("refuses a start outside the schedule's bounds", () => {
    expect(() => new SpatialHarnessRuntime(new SpatialHarness(), 64, 64, { lambda: { initial: 0.001 } })).toThrow("initial=0.001, expected [0.01, 1]");
  });
});

describe("eval --harness --lambda-initial", () => {
  it("reads a start in the schedule's bounds, names a bad one, and hands it to every harness arm", () => {
    expect(parseEvalHarnessArgs(["--scenario", "default"]).lambdaInitial).toBeUndefined();
    const a = parseEvalHarnessArgs(["--scenario", "default", "--lambda-initial", "0.01"]);
    expect(a.lambdaInitial).toBe(0.01);
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--lambda-initial", "0.001"])).toThrow("--lambda-initial=0.001, expected a number in [0.01, 1]");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--lambda-initial", "2"])).toThrow("--lambda-initial=2");
    expect(armFiles(a, "coevo_student_harness").options?.lambda).toEqual({ initial: 0.01 });
    expect(armFiles(a, "coevo_student_off").options?.lambda).toEqual({ initial: 0.01 });
    expect(armFiles(a, "bc_student").options).toBeUndefined();
    // Without the flag the arms carry no lambda options: the runtime's defaults (SPEC's 0.3).
    expect(armFiles(parseEvalHarnessArgs(["--scenario", "default"]), "coevo_student_harness").options).toBeUndefined();
  });
});
