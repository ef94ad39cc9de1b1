/**
 * An error in a launch file naming the file, the 1-based line and, when there is one, the element
 * and attribute: `launch/sim.launch.xml:12: <node> attribute "exec" is required`.
 */
export class LaunchFileError extends Error {
  override readonly name = "LaunchFileError";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}
