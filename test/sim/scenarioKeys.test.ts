/**
 * Issue 16 item 8: keys that name Object.prototype members (`constructor`, `toString`,
 * `__proto__`, ...) are unknown scenario keys like any other, rejected with the file, the line and
 * the key; they were accepted and ignored because the check was `key in schema`.
 */
import { parseScenarioFaults } from "../../sim/faults/parseScenarioFaults";
import { parseScenario } from "../../sim/parseScenario";

const PROTOTYPE_KEYS = ["constructor", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__proto__", "__defineGetter__", "propertyIsEnumerable"];

describe("scenario keys are checked as own properties", () => {
  it.each(PROTOTYPE_KEYS)("rejects %s at the top level, naming the file, line and key", (key) => {
    expect(() => parseScenario(`name: x\n${key}: 1\n`, "s.yaml")).toThrow(`s.yaml:2: ${key}: unknown key "${key}"; valid keys here: name, `);
  });

  it.each(PROTOTYPE_KEYS)("rejects %s inside a section", (key) => {
    expect(() => parseScenario(`wires:\n  lines: 1\n  ${key}: {}\n`, "s.yaml")).toThrow(`s.yaml:3: wires.${key}: unknown key "${key}"; valid keys here: lines, `);
  });

  it("leaves Object.prototype untouched and still reads the valid keys", () => {
    expect(() => parseScenario("__proto__:\n  polluted: 1\n", "s.yaml")).toThrow('s.yaml:1: __proto__: unknown key "__proto__"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseScenario("name: x\nwires:\n  lines: 2\n", "s.yaml").wires.lines).toEqual({ min: 2, max: 2 });
  });

  it("rejects prototype keys in a fault, and finds no faults under an inherited name", () => {
    expect(() => parseScenarioFaults("faults:\n  - {kind: gps_loss, start_s: 0, duration_s: 1, constructor: 1}\n", "f.yaml")).toThrow(
      "f.yaml:2: faults[0].constructor: unknown key for kind gps_loss; valid keys: kind, start_s, duration_s",
    );
    expect(() => parseScenarioFaults("faults:\n  - {kind: toString, start_s: 0, duration_s: 1}\n", "f.yaml")).toThrow('faults[0].kind: "toString" is not one of');
    expect(parseScenarioFaults("name: x\n", "f.yaml")).toEqual([]);
  });
});
