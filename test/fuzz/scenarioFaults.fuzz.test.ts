/**
 * Generated scenario documents into both scenario parsers (sim/parseScenario.ts and the `faults:`
 * block's sim/faults/parseScenarioFaults.ts): a `faults:` list of mappings made from the fault
 * keys, Object.prototype member names and values of any YAML type, plus a section key that may be
 * a prototype name (issue 16 item 8). Every case ends in a scenario and a fault list, or in a
 * ScenarioError / FaultSpecError naming the file, the line and the key; a document with a
 * prototype-named key is never accepted.
 */
import fc from "fast-check";
import { stringify } from "yaml";
import { FaultSpecError } from "../../sim/faults/FaultSpec";
import { parseScenarioFaults } from "../../sim/faults/parseScenarioFaults";
import { ScenarioError, parseScenario } from "../../sim/parseScenario";
import { FuzzTally, expectedError, fcParams, fuzzRuns } from "./fuzzSupport";

const RUNS = fuzzRuns(600);
const FILE = "fuzz.yaml";
const PROTOTYPE_KEYS = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];
const FAULT_KEYS = ["kind", "start_s", "duration_s", "magnitude_m_s2", "probability", "topic", "factor"];
const KINDS = ["camera_freeze", "camera_frozen_pixels", "camera_blackout", "imu_spikes", "gps_loss", "flood", "constructor"];

const valueArb = fc.oneof(
  { weight: 3, arbitrary: fc.double({ min: -10, max: 200, noNaN: true }) },
  { weight: 2, arbitrary: fc.constantFrom(...KINDS, "camera", "imu", "gps") },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const faultArb = fc.dictionary(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...FAULT_KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) }), valueArb, {
  minKeys: 1,
  maxKeys: 7,
});
/** A section key of the scenario: a real one, or a prototype name. */
const sectionArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom("name", "wires", "camera", "trees") }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) });

describe("scenario faults block fuzz", () => {
  const tally = new FuzzTally("scenario faults block + prototype keys");
  afterAll(() => tally.print());

  it("a scenario and faults, or an error naming file, line and key; prototype-named keys never accepted", () => {
    fc.assert(
      fc.property(fc.array(faultArb, { maxLength: 4 }), sectionArb, (faults, section) => {
        const doc: Record<string, unknown> = { faults };
        // A section key as a plain own property, even when it is "__proto__" (YAML has no prototype).
        Object.defineProperty(doc, section, { value: section === "name" ? "x" : section === "wires" ? { lines: 1 } : section === "camera" ? { width: 64 } : section === "trees" ? { count: 2 } : 1, enumerable: true });
        const text = stringify(doc);
        const hasPrototypeKey = PROTOTYPE_KEYS.includes(section) || faults.some((f) => Object.keys(f).some((k) => PROTOTYPE_KEYS.includes(k)));
        tally.run(() => {
          try {
            parseScenario(text, FILE);
            const parsed = parseScenarioFaults(text, FILE);
            expect(parsed).toHaveLength(faults.length);
            expect(hasPrototypeKey).toBe(false);
            return "accepted";
          } catch (err) {
            if (err instanceof Error && /expect\(/.test(err.message)) throw err;
            return expectedError(err, [ScenarioError, FaultSpecError], /^fuzz\.yaml:\d+: [\w.[\]]+: \S/);
          }
        });
      }),
      fcParams(RUNS),
    );
    expect(tally.cases).toBe(RUNS);
  });
});
