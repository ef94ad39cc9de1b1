/** The wire-crossing scenario shared by the closed-loop wire tests (wireCrossing, committedPipeline). */
import { DEFAULT_SCENARIO, type Scenario } from "../../../sim";

const fixed = (v: number): { min: number; max: number } => ({ min: v, max: v });

/** One line, three conductors at 10 m across a 40 m path flown at 10 m; no trees. */
export const WIRE_ACROSS: Scenario = {
  ...DEFAULT_SCENARIO,
  name: "wire_across",
  path: { ...DEFAULT_SCENARIO.path, length_m: fixed(40), altitude_m: fixed(10), lateralOffset_m: fixed(0), timeLimit_s: 40 },
  wires: { ...DEFAULT_SCENARIO.wires, lines: fixed(1), conductorsPerLine: fixed(3), height_m: fixed(10.3), sag_m: fixed(0.5), crossingAngle_deg: fixed(0), alongPath: fixed(0.5), radius_m: fixed(0.012), albedo: fixed(0.1) },
  trees: { ...DEFAULT_SCENARIO.trees, count: fixed(0) },
};

