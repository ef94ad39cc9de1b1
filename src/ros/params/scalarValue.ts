import type { TypedParameterValue } from "./TypedParameter";

// The typing rules of rcl's YAML parameter parser (ros2/rcl, rcl_yaml_param_parser/src/parse.c,
// get_value()): quoted scalars are strings; plain scalars are tried as bool (the YAML 1.1 words
// below), then integer (strtoll), then double (strtod, plus YAML's .inf/.nan), else string.
const TRUE_WORDS = new Set(["Y", "y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]);
const FALSE_WORDS = new Set(["N", "n", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]);
const INT_RE = /^[-+]?(?:0|[1-9][0-9]*)$/;
const HEX_RE = /^[-+]?0[xX][0-9a-fA-F]+$/;
const FLOAT_RE = /^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?$/;
const INF_RE = /^([-+]?)\.(?:inf|Inf|INF)$/;
const NAN_RE = /^\.(?:nan|NaN|NAN)$/;

/** Scalar typing outcome: a value, or the reason it cannot be represented. */
export type ScalarResult = { ok: true; value: TypedParameterValue } | { ok: false; reason: string };

/**
 * Types one YAML scalar as rcl does. `text` is the scalar's source text; `quoted` is true for
 * single- or double-quoted scalars (always strings).
 */
export function typeScalar(text: string, quoted: boolean): ScalarResult {
  if (quoted) return { ok: true, value: { type: "string", value: text } };
  if (TRUE_WORDS.has(text)) return { ok: true, value: { type: "bool", value: true } };
  if (FALSE_WORDS.has(text)) return { ok: true, value: { type: "bool", value: false } };
  if (INT_RE.test(text) || HEX_RE.test(text)) {
    const negative = text.startsWith("-");
    const digits = text.replace(/^[-+]/, "");
    const big = BigInt(digits) * (negative ? -1n : 1n);
    if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
      return { ok: false, reason: `integer ${text} is outside the exactly representable range [-(2^53-1), 2^53-1]` };
    }
    return { ok: true, value: { type: "integer", value: Number(big) } };
  }
  if (FLOAT_RE.test(text)) return { ok: true, value: { type: "double", value: Number(text) } };
  const inf = INF_RE.exec(text);
  if (inf !== null) return { ok: true, value: { type: "double", value: inf[1] === "-" ? -Infinity : Infinity } };
  if (NAN_RE.test(text)) return { ok: true, value: { type: "double", value: NaN } };
  return { ok: true, value: { type: "string", value: text } };
}
