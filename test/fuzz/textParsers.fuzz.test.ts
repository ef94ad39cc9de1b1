/**
 * Mutated launch XML, parameter YAML and scenario YAML into their parsers: every case ends in a
 * result or the parser's own error naming the file and line (LaunchFileError, ParameterFileError,
 * ScenarioError); nothing else escapes, no case hangs.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { LaunchFileError } from "../../src/ros/launch/LaunchFileError";
import { loadLaunchFile } from "../../src/ros/launch/loadLaunchFile";
import { ParameterFileError, parseParameterFile } from "../../src/ros/params";
import { ScenarioError, parseScenario } from "../../sim/parseScenario";
import { FuzzTally, expectedError, fcParams, fuzzRuns } from "./fuzzSupport";
import { mutateText, textMutationsArb } from "./textMutation";

const ROOT = path.resolve(__dirname, "../..");
const RUNS = fuzzRuns(600);
const rel = (p: string): string => path.join(ROOT, p);

describe("text parser fuzz", () => {
  const tallies: FuzzTally[] = [];
  afterAll(() => tallies.forEach((t) => t.print()));

  it.each(["launch/nodes.launch.xml", "launch/sim.launch.xml", "launch/drone.launch.xml"])("mutated %s: a plan or a LaunchFileError naming the file and line", (file) => {
    const tally = new FuzzTally(`launch xml ${file}`);
    tallies.push(tally);
    const top = rel(file);
    const base = readFileSync(top, "utf8");
    fc.assert(
      fc.property(textMutationsArb, (ops) => {
        const text = mutateText(base, ops);
        tally.run(() => {
          try {
            const plan = loadLaunchFile(top, { packageRoot: ROOT, env: {}, readFile: (p) => (p === top ? text : readFileSync(p, "utf8")) });
            expect(Array.isArray(plan.nodes)).toBe(true);
            return "loaded";
          } catch (err) {
            // The error names a file (the mutated one or a file it includes; a mutated
            // substitution can leave spaces in the name) and a line.
            return expectedError(err, [LaunchFileError, ParameterFileError], /^.+:\d+: \S/);
          }
        });
      }),
      fcParams(Math.ceil(RUNS / 3)),
    );
  });

  it.each(["config/harness.yaml", "config/controller.yaml", "config/sim.yaml"])("mutated %s: parameters or a ParameterFileError naming the file and line", (file) => {
    const tally = new FuzzTally(`param yaml ${file}`);
    tallies.push(tally);
    const base = readFileSync(rel(file), "utf8");
    fc.assert(
      fc.property(textMutationsArb, (ops) => {
        const text = mutateText(base, ops);
        tally.run(() => {
          try {
            parseParameterFile(text, file);
            return "parsed";
          } catch (err) {
            return expectedError(err, [ParameterFileError], new RegExp(`^${file.replace(/\./g, "\\.")}:\\d+: \\S`));
          }
        });
      }),
      fcParams(Math.ceil(RUNS / 3)),
    );
  });

  it.each(["sim/scenarios/default.yaml", "sim/scenarios/trees_only.yaml"])("mutated %s: a scenario or a ScenarioError naming the file, line and key", (file) => {
    const tally = new FuzzTally(`scenario yaml ${file}`);
    tallies.push(tally);
    const base = readFileSync(rel(file), "utf8");
    fc.assert(
      fc.property(textMutationsArb, (ops) => {
        const text = mutateText(base, ops);
        tally.run(() => {
          try {
            const s = parseScenario(text, file);
            expect(s.camera.width).toBeGreaterThan(0);
            return "parsed";
          } catch (err) {
            return expectedError(err, [ScenarioError], new RegExp(`^${file.replace(/\./g, "\\.")}(:\\d+)?: \\S`));
          }
        });
      }),
      fcParams(Math.ceil(RUNS / 2)),
    );
  });
});
