/** A model file failed validation: names the file and the problem. */
export class ModelFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = "ModelFileError";
  }
}
