/**
 * `drone-harness harness params [--models <dir>]`: prints the student's and the harness's
 * parameter counts and their ratio (issue 5 item 3; seed 2.2's range 0.8 %-1.5 %), for the
 * default architectures or for the models saved in <dir> (student.model.json, harness.model.json).
 */
import { UsageError, type CliCommand } from "../CliCommand";
import { HarnessNet, Student, formatParameterReport, harnessParameterReport, initBackend, loadHarness, loadStudent } from "../../harness";

export const command: CliCommand = {
  usage: "drone-harness harness params [--models <dir>]",
  run: async (args, io) => {
    const [sub, ...rest] = args;
    if (sub !== "params") throw new UsageError(`unknown subcommand ${sub ?? "(none)"}; expected "params"`);
    let models: string | undefined;
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i];
      if (a === "--models") {
        models = rest[++i];
        if (models === undefined) throw new UsageError("--models needs a directory");
      } else {
        throw new UsageError(`unknown argument ${a ?? ""}`);
      }
    }
    await initBackend({ warn: io.err });
    const student = models === undefined ? new Student() : (await loadStudent(models)).model;
    const harness = models === undefined ? new HarnessNet() : (await loadHarness(models)).model;
    io.out(`${models === undefined ? "default architectures" : `models in ${models}`}\n`);
    io.out(`${formatParameterReport(harnessParameterReport(student, harness))}\n`);
    student.dispose();
    harness.dispose();
    return 0;
  },
};
