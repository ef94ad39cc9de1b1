/**
 * `eval --harness` with one row of one condition on two workers: the row's seeds are cut into
 * parts for both workers (harnessRowParts), progress comes per part with an ETA, and the report
 * is the one worker's, line for line. Flown on the short wire-across scene written as a scenario
 * file (JSON is YAML; ranges as [min, max]) with the committed student detector.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { initBackend } from "../../src/harness/backend/initBackend";
import { writeWireAcrossScenario } from "../harness/eval/wireAcross";
import { capture } from "./realPhotoFixture";

jest.setTimeout(240_000);

const STUDENT = path.join(__dirname, "..", "..", "models", "pipeline", "student");

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("eval --harness, one row on two workers", () => {
  it("reports each part's progress and the same table as one worker", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eval-parts-"));
    const scenario = writeWireAcrossScenario(dir);
    const run = async (workers: number): Promise<{ out: string; err: string[] }> => {
      const c = capture();
      const args = ["eval", "--harness", "--scenario", scenario, "--split", "test", "--flights", "3", "--conditions", "nominal", "--rows", "bc_student", "--bc", STUDENT, "--workers", String(workers)];
      expect(await main(args, c.io)).toBe(0);
      return { out: c.out.join(""), err: c.err.join("").split("\n").filter((l) => l.length > 0) };
    };
    const one = await run(1);
    const two = await run(2);
    // Three seeds on two workers: parts of 2 and 1 seeds, in whichever order they finish.
    const parts = two.err.filter((l) => / flights, /.test(l));
    expect(parts).toHaveLength(2);
    expect(parts.map((l) => Number(/ (\d+) seeds, /.exec(l)?.[1])).sort()).toEqual([1, 2]);
    expect(parts[1]).toMatch(/^eval --harness: 3\/3 flights, \d+ s, ETA 0 s \(part \[nominal\] bc_student: \d seeds, \d collisions\)$/);
    expect(one.err.filter((l) => / flights, /.test(l))).toEqual([expect.stringMatching(/^eval --harness: 3\/3 flights, .*\(part \[nominal\] bc_student: 3 seeds, /)]);
    expect(two.err.some((l) => /^eval --harness \[nominal\] bc_student: collisions /.test(l))).toBe(true);
    expect(two.out).toContain("bc_student");
    expect(two.out).toBe(one.out);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
