/**
 * `fit-harness --hidden1 --hidden2`: a fresh harness of those widths is trained and saved (the
 * model file keeps them), while the applied `--harness` still flies the rollouts; without the
 * flags the harness starts from the applied one's weights. One train and one val rollout of the
 * short wire-across scene (written as a scenario file) with the committed student, two steps.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { initBackend } from "../../src/harness/backend/initBackend";
import { loadSpatialHarness } from "../../src/harness/modelfile";
import { writeWireAcrossScenario } from "../harness/eval/wireAcross";
import { capture } from "./realPhotoFixture";

jest.setTimeout(240_000);

const ROOT = path.join(__dirname, "..", "..");

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("fit-harness widths", () => {
  it("trains a fresh harness of the given widths and keeps them in the model file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fit-widths-"));
    const scenario = writeWireAcrossScenario(dir);
    const applied = path.join(ROOT, "models", "coevo", "harness-gap");
    const fit = async (out: string, extra: string[]): Promise<string> => {
      const c = capture();
      const args = ["fit-harness", "--detector", path.join(ROOT, "models", "coevo", "student-r2"), "--harness", applied, "--region-clip", "8", "--scenario", scenario, "--risk-target", "wire-gap", "--flights", "1", "--val-flights", "1", "--steps", "2", "--workers", "1", "--out", out, ...extra];
      expect(await main(args, c.io)).toBe(0);
      return c.out.join("");
    };
    const wide = path.join(dir, "wide");
    expect(await fit(wide, ["--hidden1", "4", "--hidden2", "3"])).toMatch(/^fit-harness: 79 parameters;/);
    const model = (await loadSpatialHarness(wide)).model;
    expect([model.config.hidden1, model.config.hidden2, model.parameterCount()]).toEqual([4, 3, 79]);
    const meta = JSON.parse(fs.readFileSync(path.join(wide, "fit-harness.json"), "utf8"));
    expect(meta.parameters).toBe(79);
    model.dispose();
    // Without widths: from the applied harness's weights, its widths (202 weights).
    const from = path.join(dir, "from");
    expect(await fit(from, [])).toMatch(/^fit-harness: 202 parameters;/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
