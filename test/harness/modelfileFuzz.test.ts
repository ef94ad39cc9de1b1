/**
 * decodeModel on mutated files: every outcome is a decoded model or a ModelFileError naming the
 * file, never another exception (fast-check; FUZZ_RUNS raises the case count).
 */
import fc from "fast-check";
import { ModelFileError, MODEL_FORMAT_VERSION, decodeModel, encodeModel, inputSpecs, normalisationInfo } from "../../src/harness";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const files = { jsonFile: "x.model.json", binFile: "x.weights.bin" };

const valid = encodeModel(
  [
    { name: "a/w", shape: [2, 3], values: new Float32Array([1, 2, 3, 4, 5, 6]) },
    { name: "a/b", shape: [3], values: new Float32Array([0.5, -0.5, 0]) },
  ],
  { formatVersion: MODEL_FORMAT_VERSION, kind: "harness", config: { seed: 3 }, inputs: inputSpecs("harness"), normalisation: normalisationInfo(), training: { scenario: "s", seed: 1 } },
);

function outcome(json: string, bin: Uint8Array): "ok" | "rejected" {
  try {
    decodeModel(files, json, bin, { expectedKind: "harness" });
    return "ok";
  } catch (err) {
    if (!(err instanceof ModelFileError)) throw err;
    expect([files.jsonFile, files.binFile]).toContain(err.file);
    return "rejected";
  }
}

/** Sets the value at a path of keys/indices inside a parsed JSON value. */
function setPath(root: unknown, path: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const next = node[path[i] as string | number];
    if (typeof next !== "object" || next === null) return;
    node = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (last !== undefined) node[last] = value;
}

const PATHS: (string | number)[][] = [
  ["format"],
  ["modelTopology"],
  ["weightsManifest"],
  ["weightsManifest", 0, "paths"],
  ["weightsManifest", 0, "paths", 0],
  ["weightsManifest", 0, "weights"],
  ["weightsManifest", 0, "weights", 0, "name"],
  ["weightsManifest", 0, "weights", 0, "shape"],
  ["weightsManifest", 0, "weights", 0, "shape", 0],
  ["weightsManifest", 0, "weights", 1, "dtype"],
  ["userDefinedMetadata"],
  ["userDefinedMetadata", "droneHarness", "formatVersion"],
  ["userDefinedMetadata", "droneHarness", "kind"],
  ["userDefinedMetadata", "droneHarness", "parameterCount"],
  ["userDefinedMetadata", "droneHarness", "weightsSha256"],
  ["userDefinedMetadata", "droneHarness", "training"],
  ["userDefinedMetadata", "droneHarness", "config"],
];

describe("decodeModel fuzz", () => {
  it("accepts the unmodified file", () => {
    expect(outcome(valid.modelJson, valid.weightsBin)).toBe("ok");
  });

  it("rejects any field replaced by an arbitrary JSON value with a ModelFileError (or accepts an equivalent file)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), fc.jsonValue(), (path, value) => {
        const root: unknown = JSON.parse(valid.modelJson);
        setPath(root, path, value);
        outcome(JSON.stringify(root), valid.weightsBin);
      }),
      { numRuns: RUNS },
    );
  });

  it("rejects truncated, extended or altered weights and arbitrary text", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.string({ maxLength: 200 }), (bytes, text) => {
        expect(outcome(valid.modelJson, bytes)).toBe("rejected");
        outcome(text, valid.weightsBin);
      }),
      { numRuns: RUNS },
    );
  });
});
