import { parseParameterFile } from "./ParameterFile";
import type { TypedParameterValue } from "./TypedParameter";

/**
 * Types a parameter value given on a command line (`-p name:=value`, launch `<param value>`,
 * `drone-harness param set`) the way rcl does: the text is read as a YAML value, so `1` is an
 * integer, `1.0` a double, `true` a bool, `[1, 2]` an integer array and anything else a string.
 * Throws a RangeError naming `name` and the value when it cannot be a parameter.
 */
export function parseParameterValue(name: string, text: string): TypedParameterValue {
  if (text === "") return { type: "string", value: "" };
  const yamlText = `n:\n  ros__parameters:\n    v: ${text.includes("\n") ? JSON.stringify(text) : text}\n`;
  let parsed;
  try {
    parsed = parseParameterFile(yamlText, "<value>");
  } catch (err) {
    // Text YAML cannot read as a value (e.g. "a: b" or "[1, x"): treat as a string, as rcl's
    // --param falls back for plain text; a malformed array is still an error.
    if (text.trim().startsWith("[")) {
      throw new RangeError(`parameter ${name}: value "${text}" is not a valid array: ${err instanceof Error ? err.message.replace(/^<value>:\d+: (v: )?/, "") : String(err)}`);
    }
    return { type: "string", value: text };
  }
  const value = parsed.sections[0]?.params.get("v");
  if (value === undefined) return { type: "string", value: text };
  return value;
}
