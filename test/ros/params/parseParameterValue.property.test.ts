import fc from "fast-check";
import { parseParameterValue } from "../../../src/ros/params";

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

describe("parseParameterValue (property)", () => {
  it("integers print and read back as integers, doubles with a '.' as doubles", () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(parseParameterValue("p", String(n))).toEqual({ type: "integer", value: n });
        expect(parseParameterValue("p", `${n}.0`)).toEqual({ type: "double", value: n });
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        // "3" would read as an integer, so integral values get ".0"; exponent forms ("1e+21") are
        // doubles for rcl (strtod) as they are.
        const text = /[.eE]/.test(String(x)) ? String(x) : `${String(x)}.0`;
        const r = parseParameterValue("p", text);
        expect(r.type).toBe("double");
        expect(r.value).toBe(x === 0 ? 0 : x);
      }),
      { numRuns: RUNS },
    );
  });

  it("never throws for arbitrary text that is not an array, and strings come back unchanged", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        if (s.trim().startsWith("[")) return;
        const r = parseParameterValue("p", s);
        if (r.type === "string") expect(typeof r.value).toBe("string");
      }),
      { numRuns: RUNS },
    );
  });
});
