/**
 * `--model student|teacher|corrected|old-teacher|<dir>` of the photo commands (detect, eval-real,
 * transfer), resolved under the models root (default `models`):
 *   student      models/pipeline/student  (the BC student-size detector, 4 classes + near-threat)
 *   teacher      models/pipeline/teacher  (the teacher-size detector)
 *   corrected    models/                  (the co-evolved Student whose harness corrects it in
 *                                          flight; on a still photo the correction is zero)
 *   old-teacher  models/                  (teacher.model.json of the co-evolution run)
 *   photo        models/photo/student     (the student fine-tuned with overhead views, camera effects
 *                                          and wires drawn over photographed ground textures, for real
 *                                          imagery, issue 14 item 2; no real wire photo in training)
 *   adapted      models/photo/adapted     (a photo model fine-tuned on the 85 PLD-UAV dev photos by
 *                                          `transfer --real --out`, issue 14 item 3; its recipe and
 *                                          k-fold estimate in its fit notes and docs/real.md)
 *   <dir>        a folder holding teacher.model.json (e.g. the output of `transfer`)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadStudent, loadTeacher, modelPaths } from "../harness/modelfile";
import { studentWireNet, teacherWireNet, type WireNet } from "../harness/eval/WireNet";
import { UsageError } from "./CliCommand";

/** The photo commands never train the loaded detector: keep its convolution set-up per photo shape. */
const FROZEN = { frozen: true };

export const MODEL_CHOICES = ["student", "teacher", "corrected", "old-teacher", "photo", "adapted"] as const;

/**
 * The folder holding teacher.model.json for a detector name (every name but `corrected`, which is
 * the co-evolved Student of `root`); a name that is no choice is taken as a folder.
 */
export function detectorDir(model: string, root = "models"): string {
  switch (model) {
    case "student":
    case "teacher":
      return path.join(root, "pipeline", model);
    case "photo":
      return path.join(root, "photo", "student");
    case "adapted":
      return path.join(root, "photo", "adapted");
    case "old-teacher":
      return root;
    default:
      return model;
  }
}

/**
 * The folder and report name of a teacher-type detector (every choice but `corrected`); a name
 * that is no choice must be a folder with teacher.model.json. `flag` names the option in errors.
 */
export function teacherDetector(model: string, root = "models", flag = "--model"): { dir: string; name: string } {
  const dir = detectorDir(model, root);
  const known = (MODEL_CHOICES as readonly string[]).includes(model);
  if (!known && !fs.existsSync(modelPaths(model, "teacher").modelJson)) {
    throw new UsageError(`${flag} ${model}: expected one of ${MODEL_CHOICES.join(", ")} or a folder with teacher.model.json`);
  }
  return { dir, name: known ? `${model} (${dir})` : model };
}

export async function loadWireNet(model: string, root = "models"): Promise<WireNet> {
  if (model === "corrected") return studentWireNet((await loadStudent(root)).model, `corrected (${root}, co-evolved student)`);
  const { dir, name } = teacherDetector(model, root);
  return teacherWireNet((await loadTeacher(dir)).model, name, FROZEN);
}
