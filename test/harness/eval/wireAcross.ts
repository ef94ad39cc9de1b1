/** The wire-crossing scenario shared by the closed-loop wire tests (wireCrossing, committedPipeline). */
import * as fs from "node:fs";
import * as path from "node:path";
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


/** Writes WIRE_ACROSS as a scenario file in `dir` (JSON is YAML; ranges as [min, max]) and returns its path, for CLI tests. */
export function writeWireAcrossScenario(dir: string): string {
  const file = path.join(dir, "wire_across.yaml");
  fs.writeFileSync(file, JSON.stringify(WIRE_ACROSS, (_k, v: unknown) => (typeof v === "object" && v !== null && "min" in v && "max" in v ? [v.min, v.max] : v)));
  return file;
}
