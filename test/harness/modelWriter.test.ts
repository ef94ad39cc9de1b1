/**
 * One model-file writer (docs/architecture.md): saveModel and saveModelSync (the training
 * checkpoints of modelStore) write the same bytes through the same atomic rename, and no other
 * production file renames a temporary file into place on its own.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { HarnessNet, initBackend } from "../../src/harness";
import { modelPaths, saveModel, saveModelSync } from "../../src/harness/modelfile";
import { modelStore } from "../../src/harness/training/node/modelStore";
import { listProductionFiles, REPO_ROOT } from "../architecture/importGraph";


let dir: string;
beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-modelwriter-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the model-file writer", () => {
  it("saveModel, saveModelSync and modelStore.save write byte-identical files and leave no temporary file", async () => {
    const h = new HarnessNet({ seed: 5 });
    try {
      const training = { scenario: "default", seed: 1, notes: "n" };
      const a = await saveModel(path.join(dir, "async"), h, training);
      const b = saveModelSync(path.join(dir, "sync"), h, training);
      modelStore(path.join(dir, "store"), { scenario: "default", seed: 1 }).save("final", "harness", h, "n");
      const c = modelPaths(path.join(dir, "store", "final"), "harness");
      expect(b.manifest).toEqual(a.manifest);
      for (const p of [b, c]) {
        expect(fs.readFileSync(p.modelJson)).toEqual(fs.readFileSync(a.modelJson));
        expect(fs.readFileSync(p.weightsBin)).toEqual(fs.readFileSync(a.weightsBin));
      }
      for (const d of ["async", "sync", path.join("store", "final")]) {
        expect(fs.readdirSync(path.join(dir, d)).filter((f) => f.includes(".tmp-"))).toEqual([]);
      }
    } finally {
      h.dispose();
    }
  });

  it("is the only atomic writer in src/, nodes/ and sim/", () => {
    const own = listProductionFiles().filter(
      (f) => f !== "src/harness/modelfile/atomicWrite.ts" && /\brenameSync?\(|\.rename\(/.test(fs.readFileSync(path.join(REPO_ROOT, f), "utf8")),
    );
    expect(own).toEqual([]);
  });
});
