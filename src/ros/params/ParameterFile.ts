import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode, Scalar, type YAMLMap } from "yaml";
import { ParameterFileError } from "./ParameterFileError";
import type { TypedParameters, TypedParameterValue } from "./TypedParameter";
import { typeScalar } from "./scalarValue";
import type { ParameterType } from "../graph/types";

/** One `<node pattern>: ros__parameters: {...}` block of a parameter file. */
export type ParameterSection = {
  /** Node name or pattern as written, joined with "/" when nested ("/**", "/drone1/harness", "harness"). */
  pattern: string;
  /** 1-based line of the `ros__parameters` key. */
  line: number;
  params: TypedParameters;
};

/** A parsed ROS 2 parameter file (the format of `--params-file`, design.ros2.org "ROS 2 parameters"). */
export type ParameterFile = { file: string; sections: ParameterSection[] };

const ROS_PARAMETERS = "ros__parameters";

/**
 * Parses the ROS 2 parameter YAML format: `<node>: ros__parameters: {...}`, node keys may nest as
 * namespaces (`drone1: harness: ros__parameters:` is `/drone1/harness`) and may use the `*` and
 * `/**` wildcards; nested parameter keys are flattened with dots (`limits: {vx: 1}` is `limits.vx`).
 * Values are typed as rcl types them (see scalarValue.ts); arrays must be non-empty and of one type.
 * Errors are ParameterFileError naming `file`, the line and the key.
 */
export function parseParameterFile(text: string, file: string): ParameterFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, keepSourceTokens: false });
  const firstError = doc.errors[0];
  if (firstError !== undefined) {
    const line = firstError.linePos?.[0].line ?? 1;
    throw new ParameterFileError(file, line, "", `invalid YAML: ${firstError.message.split("\n")[0] ?? ""}`);
  }
  const reader = new ParameterYaml(text, file, lineCounter);
  const root = doc.contents;
  if (root === null) return { file, sections: reader.sections };
  if (!isMap(root)) throw new ParameterFileError(file, reader.lineOf(root), "", "expected a mapping of node names to {ros__parameters: ...}");
  reader.walkNodes(root, "");
  return { file, sections: reader.sections };
}

/** The walk over a parsed parameter file: its node sections, each one's parameters flattened and typed. */
class ParameterYaml {
  readonly sections: ParameterSection[] = [];

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly lineCounter: LineCounter,
  ) {}

  lineOf(node: YamlNode | null | undefined): number {
    return node?.range === undefined || node.range === null ? 1 : this.lineCounter.linePos(node.range[0]).line;
  }

  /** Node names (nesting as namespaces under `prefix`) down to their `ros__parameters` mappings. */
  walkNodes(map: YAMLMap, prefix: string): void {
    const file = this.file;
    for (const pair of map.items) {
      const keyNode = pair.key as YamlNode;
      const key = isScalar(keyNode) ? String(keyNode.value) : "";
      const line = this.lineOf(keyNode);
      if (key === ROS_PARAMETERS) {
        if (prefix === "") throw new ParameterFileError(file, line, key, "ros__parameters must be under a node name (e.g. /**:)");
        const value = pair.value as YamlNode | null;
        if (!isMap(value)) throw new ParameterFileError(file, line, prefix, "ros__parameters must be a mapping of parameter names to values");
        const params: TypedParameters = new Map();
        this.flattenParameters(value, "", params);
        this.sections.push({ pattern: prefix, line, params });
        continue;
      }
      if (key === "") throw new ParameterFileError(file, line, "", "node names must be plain strings");
      const value = pair.value as YamlNode | null;
      if (!isMap(value)) {
        throw new ParameterFileError(file, line, key, `expected "${key}: ros__parameters: {...}" (a node name or namespace mapping)`);
      }
      const name = prefix === "" ? key : `${prefix.endsWith("/") ? prefix.slice(0, -1) : prefix}/${key.replace(/^\//, "")}`;
      this.walkNodes(value, name);
    }
  }

  private flattenParameters(map: YAMLMap, prefix: string, out: TypedParameters): void {
    for (const pair of map.items) {
      const keyNode = pair.key as YamlNode;
      const line = this.lineOf(keyNode);
      if (!isScalar(keyNode)) throw new ParameterFileError(this.file, line, prefix, "parameter names must be plain strings");
      const name = prefix === "" ? String(keyNode.value) : `${prefix}.${String(keyNode.value)}`;
      const value = pair.value as YamlNode | null;
      if (isMap(value)) {
        this.flattenParameters(value, name, out);
        continue;
      }
      if (out.has(name)) throw new ParameterFileError(this.file, line, name, "parameter defined twice");
      out.set(name, this.typedValue(value, name, line));
    }
  }

  private scalarOf(node: Scalar, name: string): TypedParameterValue {
    const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
    const textValue = quoted ? String(node.value) : this.sourceText(node);
    const result = typeScalar(textValue, quoted);
    if (!result.ok) throw new ParameterFileError(this.file, this.lineOf(node), name, result.reason);
    return result.value;
  }

  private sourceText(node: Scalar): string {
    if (node.range === undefined || node.range === null) return String(node.value);
    // Block scalars (| and >) are strings; plain scalars are typed from their source text so that
    // `1.0` stays a double (the parsed JS number 1 would not tell).
    if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) return String(node.value);
    return this.text.slice(node.range[0], node.range[1]).trim();
  }

  private typedValue(value: YamlNode | null, name: string, line: number): TypedParameterValue {
    const file = this.file;
    if (value === null || (isScalar(value) && value.value === null && this.sourceText(value) === "")) {
      throw new ParameterFileError(file, line, name, "has no value");
    }
    if (isScalar(value)) {
      if (value.type === Scalar.BLOCK_LITERAL || value.type === Scalar.BLOCK_FOLDED) return { type: "string", value: String(value.value) };
      return this.scalarOf(value, name);
    }
    if (isSeq(value)) {
      if (value.items.length === 0) {
        throw new ParameterFileError(file, line, name, "empty arrays have no type (rcl rejects them); give at least one element");
      }
      const items: TypedParameterValue[] = [];
      for (const item of value.items) {
        if (!isScalar(item)) throw new ParameterFileError(file, this.lineOf(item as YamlNode), name, "arrays may only hold scalars (no nested arrays or mappings)");
        items.push(this.scalarOf(item, name));
      }
      const first = items[0] as TypedParameterValue;
      const other = items.find((i) => i.type !== first.type);
      if (other !== undefined) {
        throw new ParameterFileError(file, line, name, `mixed array (${first.type} and ${other.type}); all elements must have one type`);
      }
      return arrayOf(first.type, items);
    }
    throw new ParameterFileError(file, line, name, "unsupported YAML value (aliases and tags are not parameters)");
  }
}

function arrayOf(type: ParameterType, items: TypedParameterValue[]): TypedParameterValue {
  switch (type) {
    case "bool":
      return { type: "bool_array", value: items.map((i) => i.value as boolean) };
    case "integer":
      return { type: "integer_array", value: items.map((i) => i.value as number) };
    case "double":
      return { type: "double_array", value: items.map((i) => i.value as number) };
    case "string":
      return { type: "string_array", value: items.map((i) => i.value as string) };
    case "byte_array":
    case "bool_array":
    case "integer_array":
    case "double_array":
    case "string_array":
      throw new RangeError(`arrayOf: element type ${type} is not a scalar type`);
  }
}

/**
 * Whether a node-name pattern of a parameter file applies to the node `/ns/name`. `*` matches one
 * name token, `**` any number of tokens (including none), and a pattern without a leading "/" is
 * taken from the root, as rclcpp's resolve_parameter_overrides does.
 */
export function nodePatternMatches(pattern: string, fullyQualifiedName: string): boolean {
  const tokens = pattern.split("/").filter((t) => t !== "");
  let re = "^";
  for (const token of tokens) {
    if (token === "**") re += "(?:/[^/]+)*";
    else if (token === "*") re += "/[^/]+";
    else re += `/${token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
  }
  re += "$";
  return new RegExp(re).test(fullyQualifiedName);
}

const isWildcard = (pattern: string): boolean => pattern.includes("*");

/**
 * The parameters a file gives the node `fullyQualifiedName`: wildcard sections first, then sections
 * naming the node exactly, each group in file order, so an exact entry overrides `/**`.
 */
export function parametersForNode(file: ParameterFile, fullyQualifiedName: string): TypedParameters {
  const out: TypedParameters = new Map();
  const ordered = [...file.sections.filter((s) => isWildcard(s.pattern)), ...file.sections.filter((s) => !isWildcard(s.pattern))];
  for (const section of ordered) {
    if (!nodePatternMatches(section.pattern, fullyQualifiedName)) continue;
    for (const [name, value] of section.params) out.set(name, value);
  }
  return out;
}
