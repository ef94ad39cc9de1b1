/**
 * `drone-harness harness params [--models <dir>]`: prints the student's and the harness's
 * parameter counts and their ratio (issue 5 item 3; seed 2.2's range 0.8 %-1.5 %), for the
 * default architectures or for the models saved in <dir> (student.model.json, harness.model.json,
 * and teacher.model.json when present).
 */
import { UsageError, type CliCommand } from "../CliCommand";
import { HarnessNet, ModelFileError, Student, Teacher, formatParameterReport, harnessParameterReport, initBackend, loadHarness, loadStudent, loadTeacher } from "../../harness";

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
    const teacher =
      models === undefined
        ? new Teacher()
        : await loadTeacher(models).then(
            (t) => t.model,
            (err: unknown) => {
              // Only a missing teacher is optional; any other problem (hash, shapes) is reported.
              if (err instanceof ModelFileError && err.problem === "file is missing") return undefined;
              throw err;
            },
          );
    io.out(`teacher parameters:          ${teacher === undefined ? "(no teacher.model.json)" : teacher.parameterCount()}\n`);
    teacher?.dispose();
    student.dispose();
    harness.dispose();
    return 0;
  },
};
