/**
 * Truncated and bit-flipped model files (the committed models/harness.* from `drone-harness train`)
 * into the model decoder: a decoded model or a ModelFileError naming the .model.json or the
 * .weights.bin file. test/harness/modelfileFuzz.test.ts mutates parsed JSON fields; this target
 * mutates the raw bytes of both files.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { ModelFileError, decodeModel } from "../../src/harness";
import { FuzzTally, expectedError, fcParams, fuzzRuns, mutate, mutationsArb } from "./fuzzSupport";

const RUNS = fuzzRuns(400);
const DIR = path.resolve(__dirname, "../../models");
const files = { jsonFile: "harness.model.json", binFile: "harness.weights.bin" };

describe("model file fuzz", () => {
  const tally = new FuzzTally("model files (harness)");
  afterAll(() => tally.print());

  it("mutated .model.json or .weights.bin bytes: a model or a ModelFileError naming the file", () => {
    const json = new Uint8Array(readFileSync(path.join(DIR, files.jsonFile)));
    const bin = new Uint8Array(readFileSync(path.join(DIR, files.binFile)));
    // The unmutated pair decodes.
    expect(decodeModel(files, new TextDecoder().decode(json), bin, { expectedKind: "harness" }).weights.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.constantFrom("json", "bin", "both"), mutationsArb, (which, ops) => {
        const j = which === "bin" ? json : mutate(json, ops);
        const b = which === "json" ? bin : mutate(bin, ops);
        tally.run(() => {
          try {
            decodeModel(files, new TextDecoder().decode(j), b, { expectedKind: "harness" });
            return "decoded";
          } catch (err) {
            const label = expectedError(err, [ModelFileError], /\S/);
            expect([files.jsonFile, files.binFile]).toContain((err as ModelFileError).file);
            return label;
          }
        });
      }),
      fcParams(RUNS),
    );
  });
});
