/**
 * The `faults:` block of a scenario YAML (sim/parseScenario.ts reads everything else and skips
 * this key). Errors name the file, the line and the key, like the scenario's own:
 * `x.yaml:14: faults[0].kind: "camera_melt" is not one of camera_freeze, ...`. Pure: takes text.
 */
import { LineCounter, parseDocument, type Node as YamlNode } from "yaml";
import { FaultSpecError, parseFaults, type Fault } from "./FaultSpec";

export function parseScenarioFaults(text: string, fileName: string): Fault[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const first = doc.errors[0];
  if (first !== undefined) throw new FaultSpecError(`${fileName}:${lineCounter.linePos(first.pos[0]).line}: YAML syntax error: ${first.message.split("\n")[0] ?? ""}`);
  const js: unknown = doc.toJS();
  if (typeof js !== "object" || js === null || !Object.prototype.hasOwnProperty.call(js, "faults")) return [];
  const lineOf = (path: Array<string | number>): number | undefined => {
    const node = doc.getIn(path, true) as YamlNode | undefined;
    const offset = node?.range?.[0];
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  return parseFaults((js as { faults?: unknown }).faults, (i, key) => {
    const line = (key === "" ? undefined : lineOf(["faults", i, key])) ?? (i < 0 ? undefined : lineOf(["faults", i])) ?? lineOf(["faults"]);
    return line === undefined ? fileName : `${fileName}:${line}`;
  });
}
