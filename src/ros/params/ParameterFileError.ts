/**
 * An error in a ROS 2 parameter YAML file, naming the file, the 1-based line and the parameter key
 * (e.g. `config/harness.yaml:7: harness.lambda0: mixed array (integer and string)`).
 */
export class ParameterFileError extends Error {
  override readonly name = "ParameterFileError";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly key: string,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${key === "" ? "" : `${key}: `}${reason}`);
  }
}
