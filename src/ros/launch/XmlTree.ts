import { SaxesParser } from "saxes";

/** An attribute with the line it ends on (saxes reports positions after each token). */
export type XmlAttribute = { value: string; line: number };

/** An XML element with 1-based source lines, as the launch and package.xml readers need. */
export type XmlElement = {
  name: string;
  line: number;
  attributes: Map<string, XmlAttribute>;
  children: XmlElement[];
  /** Concatenated text content (trimmed), e.g. `<name>drone_harness</name>`. */
  text: string;
};

/** A malformed XML document, naming the file and line (`launch/sim.launch.xml:4: ...`). */
export class XmlSyntaxError extends Error {
  override readonly name = "XmlSyntaxError";
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

/** Parses `text` into an element tree with line numbers (saxes, non-namespaced). */
export function parseXmlTree(text: string, file: string): XmlElement {
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let pendingAttributes = new Map<string, XmlAttribute>();
  let tagLine = 1;
  let error: XmlSyntaxError | undefined;
  parser.on("opentagstart", () => {
    pendingAttributes = new Map();
    tagLine = parser.line;
  });
  parser.on("attribute", (attr) => {
    pendingAttributes.set(attr.name, { value: attr.value, line: parser.line });
  });
  parser.on("opentag", (tag) => {
    const element: XmlElement = { name: tag.name, line: tagLine, attributes: pendingAttributes, children: [], text: "" };
    const parent = stack[stack.length - 1];
    if (parent === undefined) root = element;
    else parent.children.push(element);
    stack.push(element);
  });
  parser.on("text", (t) => {
    const top = stack[stack.length - 1];
    if (top !== undefined) top.text = (top.text + t).trim();
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.on("error", (err) => {
    // saxes messages start with "file:line:column: "; keep only the reason.
    error ??= new XmlSyntaxError(file, parser.line, err.message.replace(/^(?:.*?:)?\d+:\d+: /, ""));
  });
  parser.write(text).close();
  if (error !== undefined) throw error;
  if (root === undefined) throw new XmlSyntaxError(file, 1, "document has no root element");
  return root;
}
