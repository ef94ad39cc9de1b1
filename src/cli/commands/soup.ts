/**
 * `drone-harness soup --models <dir>,<dir>[,...] --out <dir>`: the uniform weight average of
 * detectors fine-tuned from one initialisation (averageWeights.ts; Wortsman et al. 2022). Every
 * model must have the same architecture (the same TeacherConfig apart from its seed, the same
 * weight names and shapes); the result is a `drone-harness fit` detector directory
 * (teacher.model.json / .weights.bin) with soup.json naming its sources, usable wherever a
 * detector directory is (detect, eval-real, fit --evaluate, the nodes).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { initBackend } from "../../harness/backend";
import { averageWeights } from "../../harness/layers/averageWeights";
import { loadTeacher, saveModel } from "../../harness/modelfile";
import { Teacher } from "../../harness/models/Teacher";
import { valueArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE = "drone-harness soup --models <detector dir>,<detector dir>[,...] --out <dir>";

export function parseSoupArgs(args: readonly string[]): { models: string[]; out: string } {
  let models: string[] = [];
  let out = "";
  for (let i = 0; i < args.length; i++) {
    const f = args[i] ?? "";
    if (f === "--models") models = valueArg(args, i++).split(",").filter((m) => m !== "");
    else if (f === "--out") out = valueArg(args, i++);
    else throw new UsageError(`unknown argument "${f}"`);
  }
  if (models.length < 2 || out === "") throw new UsageError("--models (at least two detector directories, comma-separated) and --out are required");
  if (models.some((m) => path.resolve(m) === path.resolve(out))) throw new UsageError(`--out ${out} is one of the --models: the soup is written to a new directory`);
  return { models, out };
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseSoupArgs(args);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const loaded = await Promise.all(a.models.map(async (m) => (await loadTeacher(m)).model));
    const shape = (t: Teacher): string => JSON.stringify({ ...t.config, seed: 0 });
    loaded.forEach((t, i) => {
      if (shape(t) !== shape(loaded[0]!)) throw new UsageError(`${a.models[i]} has architecture ${shape(t)}, ${a.models[0]} has ${shape(loaded[0]!)}: a soup needs one architecture`);
    });
    const soup = new Teacher(loaded[0]!.config);
    soup.params.load(averageWeights(loaded.map((t) => t.params.snapshot())));
    const notes = `drone-harness soup ${args.join(" ")}`;
    await saveModel(a.out, soup, { scenario: "soup", seed: loaded[0]!.config.seed, notes });
    fs.writeFileSync(path.join(a.out, "soup.json"), `${JSON.stringify({ command: notes, models: a.models, weights: "uniform" }, null, 2)}\n`);
    io.out(`soup: uniform average of ${a.models.length} detectors (${soup.parameterCount()} parameters each) -> ${a.out}\n`);
    for (const t of [...loaded, soup]) t.dispose();
    return 0;
  },
};
