/**
 * Loader of the SDFormat specification description files (the `*.sdf` files of the SDFormat
 * repository's `sdf/1.9/` folder, shipped by Debian's `sdformat-sdf` package under
 * /usr/share/sdformat<N>/1.9/). Each file describes one element:
 *   <element name="..." type="..." default="..." required="0|1|*|+" [min max]> with children
 *   <attribute name type default required>, nested <element>, <include filename required>
 *   (another description file) and <element copy_data="true"> (any content: plugins).
 * Pure: the caller supplies `readSpecFile(name) -> text | undefined`.
 */
import { SaxesParser } from "saxes";

export type SpecAttribute = { name: string; type: string; required: boolean };

export type SpecChild = {
  /** "0" or "1": at most once; "*" or "+": any number (libsdformat fills required ones from defaults). */
  required: string;
  /** Resolves the child's description (lazily: model.sdf includes itself). */
  spec: () => SpecElement | undefined;
  /** The description file the child came from, when it is an include. */
  file?: string;
};

export type SpecElement = {
  name: string;
  /** Value type for leaf elements (double, int, bool, vector3, pose, string, ...), or "" for containers. */
  type: string;
  min?: number;
  max?: number;
  attributes: Map<string, SpecAttribute>;
  children: Map<string, SpecChild>;
  /** True when any child content is allowed (plugin). */
  copyData: boolean;
};

type RawNode = { tag: string; attrs: Record<string, string>; children: RawNode[] };

function parseXml(text: string, file: string): RawNode {
  const parser = new SaxesParser();
  const root: RawNode = { tag: "#root", attrs: {}, children: [] };
  const stack: RawNode[] = [root];
  parser.on("opentag", (t) => {
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(t.attributes)) attrs[k] = v;
    const node: RawNode = { tag: t.name, attrs, children: [] };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.on("error", (e) => {
    throw new Error(`SDF spec file ${file}: ${e.message}`);
  });
  parser.write(text).close();
  const el = root.children.find((c) => c.tag === "element");
  if (el === undefined) throw new Error(`SDF spec file ${file}: no <element> at the top level`);
  return el;
}

/** The specification of one SDF version, loaded on demand from its description files. */
export class SdfSpec {
  private readonly cache = new Map<string, SpecElement | null>();
  readonly missingFiles = new Set<string>();

  constructor(private readonly readSpecFile: (name: string) => string | undefined) {}

  /** The element described by `file` (e.g. "root.sdf"), or undefined when the file is absent. */
  file(file: string): SpecElement | undefined {
    const cached = this.cache.get(file);
    if (cached !== undefined) return cached ?? undefined;
    const text = this.readSpecFile(file);
    if (text === undefined) {
      this.missingFiles.add(file);
      this.cache.set(file, null);
      return undefined;
    }
    const el = this.convert(parseXml(text, file));
    this.cache.set(file, el);
    return el;
  }

  /** The name of the element a description file defines, without converting it fully. */
  private convert(raw: RawNode): SpecElement {
    const el: SpecElement = {
      name: raw.attrs.name ?? "",
      type: raw.attrs.type ?? "",
      attributes: new Map(),
      children: new Map(),
      copyData: false,
    };
    if (raw.attrs.min !== undefined && raw.attrs.min !== "" && Number.isFinite(Number(raw.attrs.min))) el.min = Number(raw.attrs.min);
    if (raw.attrs.max !== undefined && raw.attrs.max !== "" && Number.isFinite(Number(raw.attrs.max))) el.max = Number(raw.attrs.max);
    for (const c of raw.children) {
      switch (c.tag) {
        case "attribute":
          el.attributes.set(c.attrs.name ?? "", { name: c.attrs.name ?? "", type: c.attrs.type ?? "string", required: c.attrs.required === "1" });
          break;
        case "element":
          if (c.attrs.copy_data === "true") {
            el.copyData = true;
          } else {
            const child = this.convert(c);
            el.children.set(child.name, { required: c.attrs.required ?? "0", spec: () => child });
          }
          break;
        case "include": {
          const file = c.attrs.filename ?? "";
          const name = file.replace(/\.sdf$/, "");
          // The element name is the one inside the file; load it lazily but learn the name now
          // when the file exists (names differ from file names, e.g. box_shape.sdf -> <box>).
          const target = this.peekName(file) ?? name;
          el.children.set(target, { required: c.attrs.required ?? "0", spec: () => this.file(file), file });
          break;
        }
        default:
          break;
      }
    }
    return el;
  }

  private readonly names = new Map<string, string | null>();

  private peekName(file: string): string | undefined {
    if (!this.names.has(file)) {
      const text = this.readSpecFile(file);
      const m = text === undefined ? null : /<element\s+name="([^"]+)"/.exec(text);
      this.names.set(file, m?.[1] ?? null);
    }
    return this.names.get(file) ?? undefined;
  }
}
