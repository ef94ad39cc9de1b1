/**
 * Mutations of text documents (XML, YAML): the byte mutator of fuzzSupport.ts on the UTF-8 bytes,
 * plus structural edits that keep the text mostly well formed so the parser gets past its syntax
 * check: delete or duplicate an XML tag or attribute, delete or duplicate a line, swap indentation.
 */
import fc from "fast-check";
import { mutate, mutationsArb, type Mutation } from "./fuzzSupport";

export type TextMutation =
  | { kind: "bytes"; ops: Mutation[] }
  | { kind: "deleteTag" | "duplicateTag" | "deleteAttribute" | "duplicateAttribute" | "deleteLine" | "duplicateLine" | "indentLine" | "dedentLine"; at: number };

// Unbiased: fast-check biases numbers towards the bounds, which would put every edit at byte 0.
const frac = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);

export const textMutationArb: fc.Arbitrary<TextMutation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("bytes" as const), ops: mutationsArb }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constantFrom("deleteTag" as const, "duplicateTag" as const, "deleteAttribute" as const, "duplicateAttribute" as const, "deleteLine" as const, "duplicateLine" as const, "indentLine" as const, "dedentLine" as const),
      at: frac,
    }),
  },
);

export const textMutationsArb = fc.array(textMutationArb, { minLength: 1, maxLength: 4 });

/** Replaces the match of `re` (global) chosen by the fraction `at` with `f(match)`. */
function editMatch(text: string, re: RegExp, at: number, f: (m: string) => string): string {
  const all = [...text.matchAll(re)];
  if (all.length === 0) return text;
  const m = all[Math.floor(at * all.length)]!;
  const i = m.index;
  return text.slice(0, i) + f(m[0]) + text.slice(i + m[0].length);
}

export function mutateText(text: string, ops: readonly TextMutation[]): string {
  let t = text;
  for (const op of ops) {
    switch (op.kind) {
      case "bytes":
        t = new TextDecoder().decode(mutate(new TextEncoder().encode(t), op.ops));
        break;
      case "deleteTag":
        t = editMatch(t, /<[^!?][^>]*>/g, op.at, () => "");
        break;
      case "duplicateTag":
        t = editMatch(t, /<[^!?][^>]*>/g, op.at, (m) => m + m);
        break;
      case "deleteAttribute":
        t = editMatch(t, /\s[\w:-]+="[^"]*"/g, op.at, () => "");
        break;
      case "duplicateAttribute":
        t = editMatch(t, /\s[\w:-]+="[^"]*"/g, op.at, (m) => m + m);
        break;
      case "deleteLine":
        t = editMatch(t, /[^\n]*\n/g, op.at, () => "");
        break;
      case "duplicateLine":
        t = editMatch(t, /[^\n]*\n/g, op.at, (m) => m + m);
        break;
      case "indentLine":
        t = editMatch(t, /[^\n]*\n/g, op.at, (m) => `  ${m}`);
        break;
      case "dedentLine":
        t = editMatch(t, /[^\n]*\n/g, op.at, (m) => m.replace(/^ {1,2}/, ""));
        break;
    }
  }
  return t;
}
