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

/** A JSON-parsed value for an error message (String() can throw on {"toString": 0}); at most 60 characters. */
export function show(v: unknown): string {
  const t = JSON.stringify(v) ?? "undefined";
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}
