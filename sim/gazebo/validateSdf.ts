/**
 * Structural validation of an SDF document against the SDFormat description files (SdfSpec):
 * - every element is allowed where it appears (names and nesting), except inside <plugin>
 *   (copy_data: any content) and namespaced custom elements ("prefix:name", allowed by SDFormat's
 *   custom-element rule, sdformat.org/tutorials?tut=custom_elements_attributes);
 * - required attributes are present and no unknown attribute is used (xmlns:* excepted);
 * - elements that may appear at most once ("0"/"1") appear at most once;
 * - leaf values parse as their declared type (double, int, unsigned int, bool, vector2d,
 *   vector3, pose, color, time) and respect min/max.
 * Required child elements are not demanded: libsdformat fills them from their defaults.
 * Elements whose description file is not shipped are reported in `unchecked`, not as errors.
 * Un-namespaced elements outside the spec that a consumer reads on purpose (`extensions`, e.g.
 * gz-sensors' <gz_frame_id> in <sensor>) are reported in `warnings`: libsdformat accepts them with
 * the warning "XML Element[...], child of element[...], not defined in SDF. Copying[...] as
 * children of [...]" (gazebosim/gz-sensors#306). Any other unknown element is an error.
 */
import { SaxesParser } from "saxes";
import type { SdfSpec, SpecElement } from "./sdfSpec";

export type SdfIssue = { line: number; path: string; message: string };
export type SdfValidation = { errors: SdfIssue[]; warnings: SdfIssue[]; unchecked: string[] };

/** An element outside the spec that is tolerated under `parent`; `source` says who reads it. */
export type SdfExtension = { parent: string; element: string; source: string };

export type ValidateSdfOptions = { extensions?: readonly SdfExtension[] };

type Node = { name: string; attrs: Map<string, string>; children: Node[]; text: string; line: number };

function parseDocument(text: string): Node {
  const parser = new SaxesParser({ position: true });
  const root: Node = { name: "#document", attrs: new Map(), children: [], text: "", line: 1 };
  const stack: Node[] = [root];
  parser.on("opentag", (t) => {
    const attrs = new Map<string, string>();
    for (const [k, v] of Object.entries(t.attributes as Record<string, string>)) attrs.set(k, v);
    const node: Node = { name: t.name, attrs, children: [], text: "", line: parser.line };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  });
  parser.on("text", (t) => {
    stack[stack.length - 1]!.text += t;
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.on("error", (e) => {
    throw new Error(`SDF is not well-formed XML at line ${parser.line}: ${e.message}`);
  });
  parser.write(text).close();
  return root;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function checkValue(type: string, raw: string): string | undefined {
  const v = raw.trim();
  const nums = (n: number): string | undefined => {
    const parts = v.split(/\s+/);
    if (parts.length !== n || !parts.every((p) => NUMBER.test(p))) return `expected ${n} number(s) for type ${type}, got "${v}"`;
    return undefined;
  };
  switch (type) {
    case "double":
    case "float":
      return nums(1);
    case "int":
      return /^[-+]?\d+$/.test(v) ? undefined : `expected an integer, got "${v}"`;
    case "unsigned int":
      return /^\+?\d+$/.test(v) ? undefined : `expected an unsigned integer, got "${v}"`;
    case "bool":
      return /^(true|false|0|1)$/.test(v) ? undefined : `expected true/false/0/1, got "${v}"`;
    case "vector2d":
    case "vector2i":
      return nums(2);
    case "vector3":
      return nums(3);
    case "pose": {
      const n = v.split(/\s+/).length;
      return n === 6 || n === 7 ? nums(n) : `expected 6 numbers (x y z roll pitch yaw), got "${v}"`;
    }
    case "color": {
      const n = v.split(/\s+/).length;
      return n === 3 || n === 4 ? nums(n) : `expected 3 or 4 numbers (r g b [a]), got "${v}"`;
    }
    case "time":
      return nums(v.split(/\s+/).length === 2 ? 2 : 1);
    default:
      return undefined;
  }
}

/** Validates `text` against the spec, starting at root.sdf's <sdf> element. */
export function validateSdf(text: string, spec: SdfSpec, options: ValidateSdfOptions = {}): SdfValidation {
  const errors: SdfIssue[] = [];
  const warnings: SdfIssue[] = [];
  const extensions = options.extensions ?? [];
  const unchecked = new Set<string>();
  const doc = parseDocument(text);
  const rootSpec = spec.file("root.sdf");
  if (rootSpec === undefined) throw new Error("SDF spec: root.sdf not found");
  const top = doc.children[0];
  if (top === undefined || top.name !== rootSpec.name) {
    errors.push({ line: top?.line ?? 1, path: "/", message: `root element must be <${rootSpec.name}>, got <${top?.name ?? "nothing"}>` });
    return { errors, warnings, unchecked: [] };
  }
  const visit = (node: Node, s: SpecElement, path: string): void => {
    for (const [name, a] of s.attributes) {
      if (a.required && !node.attrs.has(name)) errors.push({ line: node.line, path, message: `missing required attribute "${name}"` });
    }
    for (const name of node.attrs.keys()) {
      if (!s.attributes.has(name) && !name.startsWith("xmlns") && !name.includes(":")) {
        errors.push({ line: node.line, path, message: `unknown attribute "${name}" (allowed: ${[...s.attributes.keys()].join(", ") || "none"})` });
      }
    }
    if (s.type !== "" && node.children.length === 0) {
      const problem = checkValue(s.type, node.text);
      if (problem !== undefined) errors.push({ line: node.line, path, message: problem });
      else if ((s.min !== undefined || s.max !== undefined) && /^(double|float|int|unsigned int)$/.test(s.type)) {
        const v = Number(node.text.trim());
        if ((s.min !== undefined && v < s.min) || (s.max !== undefined && v > s.max)) {
          errors.push({ line: node.line, path, message: `value ${v} outside [${s.min ?? "-inf"}, ${s.max ?? "inf"}]` });
        }
      }
    }
    if (s.copyData) return;
    const counts = new Map<string, number>();
    for (const child of node.children) {
      const childPath = `${path}/${child.name}${child.attrs.has("name") ? `[@name=${child.attrs.get("name")}]` : ""}`;
      if (child.name.includes(":")) continue; // custom element
      const c = s.children.get(child.name);
      if (c === undefined) {
        const ext = extensions.find((e) => e.parent === s.name && e.element === child.name);
        if (ext !== undefined) {
          warnings.push({ line: child.line, path: childPath, message: `<${child.name}> is not in the SDFormat spec for <${s.name}>: libsdformat copies it with a warning; read by ${ext.source}` });
          continue;
        }
        errors.push({ line: child.line, path: childPath, message: `<${child.name}> is not allowed in <${s.name}> (allowed: ${[...s.children.keys()].join(", ")})` });
        continue;
      }
      const n = (counts.get(child.name) ?? 0) + 1;
      counts.set(child.name, n);
      if ((c.required === "0" || c.required === "1") && n === 2) {
        errors.push({ line: child.line, path: childPath, message: `<${child.name}> may appear at most once in <${s.name}>` });
      }
      const cs = c.spec();
      if (cs === undefined) {
        unchecked.add(`${c.file ?? child.name} (not shipped: <${child.name}> not checked)`);
        continue;
      }
      visit(child, cs, childPath);
    }
  };
  visit(top, rootSpec, `/${top.name}`);
  return { errors, warnings, unchecked: [...unchecked] };
}
