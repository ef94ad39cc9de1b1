/**
 * Parses and validates a scenario YAML document against DEFAULT_SCENARIO (the schema: key names,
 * value kinds) and SCENARIO_BOUNDS. Every error names the file, the line and the dotted key, e.g.
 * `sim/scenarios/x.yaml:12: wires.radius_m: min=0.2 is outside [0.001, 0.1]`.
 * Pure: takes the text, does no I/O (sim/io/loadScenarioFile.ts reads files).
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from "yaml";
import { DEFAULT_SCENARIO, SCENARIO_BOUNDS, SCENARIO_INTEGER_KEYS, type Range, type Scenario } from "./Scenario";

export class ScenarioError extends Error {
  override readonly name = "ScenarioError";
}

type Schema = Record<string, unknown>;

function isRange(v: unknown): v is Range {
  return typeof v === "object" && v !== null && "min" in v && "max" in v && Object.keys(v).length === 2;
}

/** Parses `text` (the contents of `fileName`) into a complete Scenario. */
export function parseScenario(text: string, fileName: string): Scenario {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const where = (node: YamlNode | null | undefined): string => {
    const offset = node?.range?.[0];
    return offset === undefined ? fileName : `${fileName}:${lineCounter.linePos(offset).line}`;
  };
  const firstError = doc.errors[0];
  if (firstError !== undefined) {
    const line = lineCounter.linePos(firstError.pos[0]).line;
    throw new ScenarioError(`${fileName}:${line}: YAML syntax error: ${firstError.message.split("\n")[0] ?? ""}`);
  }
  const result = structuredClone(DEFAULT_SCENARIO) as unknown as Schema;
  if (doc.contents === null) return result as unknown as Scenario;
  if (!isMap(doc.contents)) throw new ScenarioError(`${where(doc.contents)}: the scenario must be a mapping of keys`);

  const fail = (node: YamlNode | null | undefined, key: string, message: string): never => {
    throw new ScenarioError(`${where(node)}: ${key}: ${message}`);
  };

  const readNumber = (node: YamlNode | null | undefined, key: string): number => {
    if (!isScalar(node) || typeof node.value !== "number" || !Number.isFinite(node.value)) {
      return fail(node, key, `expected a finite number, got ${describe(node)}`);
    }
    return node.value;
  };

  const checkBounds = (node: YamlNode | null | undefined, key: string, value: number, label: string): void => {
    const bounds = SCENARIO_BOUNDS[key];
    if (bounds !== undefined && (value < bounds[0] || value > bounds[1])) {
      fail(node, key, `${label}=${value} is outside [${bounds[0]}, ${bounds[1]}]`);
    }
    if (SCENARIO_INTEGER_KEYS.has(key) && !Number.isInteger(value)) fail(node, key, `${label}=${value} must be an integer`);
  };

  const walk = (map: YamlNode, schema: Schema, prefix: string): void => {
    if (!isMap(map)) return;
    for (const pair of map.items) {
      const keyNode = pair.key as YamlNode | null;
      const key = isScalar(keyNode) ? String(keyNode.value) : "";
      const dotted = prefix === "" ? key : `${prefix}.${key}`;
      // The fault schedule is validated by sim/faults/parseScenarioFaults.ts.
      if (prefix === "" && key === "faults") continue;
      // Own properties only: `key in schema` also finds Object.prototype's `constructor`,
      // `toString`, `__proto__`, ..., which were accepted and ignored.
      if (!Object.prototype.hasOwnProperty.call(schema, key)) {
        fail(keyNode, dotted, `unknown key ${JSON.stringify(key)}; valid keys here: ${Object.keys(schema).join(", ")}`);
      }
      const expected = schema[key];
      const valueNode = pair.value as YamlNode | null;
      if (isRange(expected)) {
        let range: Range;
        if (isSeq(valueNode)) {
          if (valueNode.items.length !== 2) fail(valueNode, dotted, `expected [min, max], got ${valueNode.items.length} items`);
          range = { min: readNumber(valueNode.items[0] as YamlNode, dotted), max: readNumber(valueNode.items[1] as YamlNode, dotted) };
        } else {
          const v = readNumber(valueNode, dotted);
          range = { min: v, max: v };
        }
        if (range.min > range.max) fail(valueNode, dotted, `min=${range.min} > max=${range.max}`);
        checkBounds(valueNode, dotted, range.min, "min");
        checkBounds(valueNode, dotted, range.max, "max");
        schema[key] = range;
      } else if (typeof expected === "number") {
        const v = readNumber(valueNode, dotted);
        checkBounds(valueNode, dotted, v, "value");
        schema[key] = v;
      } else if (typeof expected === "string") {
        if (!isScalar(valueNode) || typeof valueNode.value !== "string") fail(valueNode, dotted, `expected a string, got ${describe(valueNode)}`);
        schema[key] = String((valueNode as { value: unknown }).value);
      } else if (typeof expected === "object" && expected !== null) {
        if (!isMap(valueNode)) fail(valueNode, dotted, `expected a mapping, got ${describe(valueNode)}`);
        walk(valueNode as YamlNode, expected as Schema, dotted);
      }
    }
  };
  walk(doc.contents, result, "");
  const size = (result as unknown as Scenario).ground.textureSize;
  if ((size & (size - 1)) !== 0) {
    fail(doc.getIn(["ground", "textureSize"], true) as YamlNode | undefined, "ground.textureSize", `value=${size} must be a power of two`);
  }
  return result as unknown as Scenario;
}

function describe(node: YamlNode | null | undefined): string {
  if (node === null || node === undefined) return "nothing";
  if (isScalar(node)) return `${typeof node.value} ${JSON.stringify(node.value)}`;
  if (isSeq(node)) return "a list";
  if (isMap(node)) return "a mapping";
  return "an unsupported YAML node";
}
