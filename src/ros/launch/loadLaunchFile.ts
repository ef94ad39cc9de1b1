import { readFileSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { parametersForNode, parseParameterFile, parseParameterValue, ParameterFileError, type TypedParameterValue } from "../params";
import { LaunchFileError } from "./LaunchFileError";
import type { LaunchArgument, LaunchPlan, LaunchRemap, NodeLaunchDescription } from "./LaunchPlan";
import { ForeignPackageError, substitute, type SubstitutionContext } from "./substitute";
import { parseXmlTree, XmlSyntaxError, type XmlElement } from "./XmlTree";

export type LaunchLoadOptions = {
  /** Share directory of drone_harness: the repository root, or <prefix>/share/drone_harness. */
  packageRoot: string;
  /** `name:=value` arguments of the top-level file (ros2 launch pkg file name:=value). */
  arguments?: Record<string, string>;
  /** Environment for $(env) (default process.env). */
  env?: Record<string, string | undefined>;
  /** Allow `<include>` of absolute paths outside packageRoot (default false). */
  allowAbsoluteIncludes?: boolean;
  readFile?: (path: string) => string;
};

/** This package's name as launch files spell it (pkg="drone_harness"). */
export const PACKAGE_NAME = "drone_harness";
const MAX_INCLUDE_DEPTH = 16;
const NODE_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAMESPACE_TOKEN_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Launch-time state that groups scope (launch_ros: ros_namespace, ros_remaps, global_params). */
type Scope = {
  configs: Map<string, string>;
  /** "" for the root, else "/a/b". */
  namespace: string;
  remaps: LaunchRemap[];
  params: Array<[string, TypedParameterValue]>;
};

const copyScope = (s: Scope): Scope => ({ configs: new Map(s.configs), namespace: s.namespace, remaps: [...s.remaps], params: [...s.params] });

/** Attributes each tag accepts (ros2/launch launch_xml + launch_ros frontends); others are errors. */
const ATTRIBUTES: Record<string, readonly string[]> = {
  launch: ["version"],
  arg: ["name", "default", "description", "if", "unless"],
  let: ["name", "value", "if", "unless"],
  node: ["pkg", "exec", "name", "namespace", "output", "respawn", "respawn_delay", "args", "ros_args", "launch-prefix", "exec_name", "if", "unless"],
  param: ["name", "value", "from", "value-sep", "sep"],
  remap: ["from", "to"],
  group: ["scoped", "forwarding", "if", "unless"],
  "push-ros-namespace": ["namespace", "if", "unless"],
  push_ros_namespace: ["namespace", "if", "unless"],
  include: ["file", "if", "unless"],
  set_remap: ["from", "to", "if", "unless"],
  "set-remap": ["from", "to", "if", "unless"],
  set_parameter: ["name", "value", "if", "unless"],
  "set-parameter": ["name", "value", "if", "unless"],
  log: ["message", "if", "unless"],
};

/** What the evaluation of one top-level launch file shares across its includes. */
type Loader = {
  packageRoot: string;
  readFile: (path: string) => string;
  env: Record<string, string | undefined>;
  allowAbsoluteIncludes: boolean;
  plan: LaunchPlan;
  /** Names of the <arg>s met so far (for the "not declared" warning). */
  declared: Set<string>;
  /** `p` relative to the package root when inside it. */
  display: (p: string) => string;
  /** Whether `p`, symlinks resolved, lies inside the package root. */
  insideRoot: (p: string) => boolean;
};

/**
 * Evaluates a ROS 2 XML launch file (and its `<include>`s) into a flat plan of nodes, as
 * `ros2 launch` would start them. Errors are LaunchFileError naming file, line and attribute.
 * Nodes of other packages and includes of other packages' files are listed in `skipped`.
 */
export function loadLaunchFile(path: string, options: LaunchLoadOptions): LaunchPlan {
  const loader = makeLoader(options);
  const initial: Scope = { configs: new Map(Object.entries(options.arguments ?? {})), namespace: "", remaps: [], params: [] };
  evaluateFile(loader, resolve(path), initial, 0);
  for (const name of Object.keys(options.arguments ?? {})) {
    if (!loader.declared.has(name)) loader.plan.warnings.push(`argument "${name}" is not declared by any <arg> in ${loader.display(resolve(path))} or its includes`);
  }
  return loader.plan;
}

function makeLoader(options: LaunchLoadOptions): Loader {
  const packageRoot = resolve(options.packageRoot);
  const display = (p: string): string => {
    const rel = relative(packageRoot, p);
    return rel.startsWith("..") || isAbsolute(rel) ? p : rel;
  };
  const realRoot = (() => {
    try {
      return realpathSync(packageRoot);
    } catch {
      return packageRoot;
    }
  })();
  const insideRoot = (p: string): boolean => {
    let real = p;
    try {
      real = realpathSync(p);
    } catch {
      real = resolve(p);
    }
    // Only the resolved path counts: the lexical `p` let "<root>/../x" and symlinks out of the
    // package through (test/faults/safeDefaults.test.ts).
    return real === realRoot || real.startsWith(realRoot + sep) || real === packageRoot || real.startsWith(packageRoot + sep);
  };
  return {
    packageRoot,
    readFile: options.readFile ?? ((p: string) => readFileSync(p, "utf8")),
    env: options.env ?? process.env,
    allowAbsoluteIncludes: options.allowAbsoluteIncludes === true,
    plan: { nodes: [], skipped: [], arguments: [], warnings: [] },
    declared: new Set<string>(),
    display,
    insideRoot,
  };
}

function evaluateFile(loader: Loader, file: string, scope: Scope, depth: number): void {
  const shown = loader.display(file);
  let text: string;
  try {
    text = loader.readFile(file);
  } catch (err) {
    throw new LaunchFileError(shown, 0, `cannot read launch file: ${err instanceof Error ? err.message : String(err)}`);
  }
  let root: XmlElement;
  try {
    root = parseXmlTree(text, shown);
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new LaunchFileError(shown, err.line, `XML syntax error: ${err.reason}`);
    throw err;
  }
  if (root.name !== "launch") throw new LaunchFileError(shown, root.line, `root element must be <launch>, found <${root.name}>`);
  checkAttributes(root, shown);
  new FileEvaluator(loader, file, shown, depth).evalChildren(root.children, scope);
}

/** The elements of one launch file, evaluated in document order against a scope. */
class FileEvaluator {
  constructor(
    private readonly loader: Loader,
    private readonly file: string,
    /** The file as errors name it. */
    private readonly shown: string,
    private readonly depth: number,
  ) {}

  private ctx(s: Scope): SubstitutionContext {
    const packageRoot = this.loader.packageRoot;
    return {
      variable: (name) => s.configs.get(name),
      env: (name) => this.loader.env[name],
      findPackageShare: (pkg) => {
        if (pkg === PACKAGE_NAME) return packageRoot;
        throw new ForeignPackageError(pkg);
      },
      dirname: dirname(this.file),
      filename: basename(this.file),
    };
  }

  /** Substitutes an attribute value, wrapping errors with file, line and attribute. */
  private attr(el: XmlElement, name: string, s: Scope): string | undefined {
    const a = el.attributes.get(name);
    if (a === undefined) return undefined;
    try {
      return substitute(a.value, this.ctx(s));
    } catch (err) {
      if (err instanceof ForeignPackageError) throw err;
      throw new LaunchFileError(this.shown, a.line, `<${el.name}> attribute "${name}": ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private required(el: XmlElement, name: string, s: Scope): string {
    const v = this.attr(el, name, s);
    if (v === undefined) throw new LaunchFileError(this.shown, el.line, `<${el.name}> attribute "${name}" is required`);
    return v;
  }

  private lineOf(el: XmlElement, name: string): number {
    return el.attributes.get(name)?.line ?? el.line;
  }

  private bool(el: XmlElement, name: string, s: Scope, fallback: boolean): boolean {
    const v = this.attr(el, name, s);
    if (v === undefined) return fallback;
    const lower = v.toLowerCase();
    // launch.conditions.evaluate_condition_expression: true/1 and false/0, case-insensitive.
    if (lower === "true" || lower === "1") return true;
    if (lower === "false" || lower === "0") return false;
    throw new LaunchFileError(this.shown, this.lineOf(el, name), `<${el.name}> attribute "${name}" must be true, false, 1 or 0, got "${v}"`);
  }

  private enabled(el: XmlElement, s: Scope): boolean {
    if (el.attributes.has("if") && el.attributes.has("unless")) {
      throw new LaunchFileError(this.shown, el.line, `<${el.name}> cannot have both "if" and "unless"`);
    }
    return this.bool(el, "if", s, true) && !this.bool(el, "unless", s, false);
  }

  evalChildren(children: XmlElement[], s: Scope): void {
    for (const el of children) this.evalElement(el, s);
  }

  private evalElement(el: XmlElement, s: Scope): void {
    checkAttributes(el, this.shown);
    try {
      this.evalElementUnchecked(el, s);
    } catch (err) {
      if (err instanceof ForeignPackageError) {
        throw new LaunchFileError(this.shown, el.line, `<${el.name}>: ${err.message}`);
      }
      throw err;
    }
  }

  private evalElementUnchecked(el: XmlElement, s: Scope): void {
    switch (el.name) {
      case "arg":
        this.evalArg(el, s);
        return;
      case "let": {
        if (!this.enabled(el, s)) return;
        s.configs.set(this.required(el, "name", s), this.required(el, "value", s));
        return;
      }
      case "group": {
        if (!this.enabled(el, s)) return;
        const scoped = this.bool(el, "scoped", s, true);
        this.evalChildren(el.children, scoped ? copyScope(s) : s);
        return;
      }
      case "push-ros-namespace":
      case "push_ros_namespace": {
        if (!this.enabled(el, s)) return;
        const ns = this.required(el, "namespace", s);
        s.namespace = this.joinNamespace(s.namespace, ns, el);
        return;
      }
      case "set_remap":
      case "set-remap": {
        if (!this.enabled(el, s)) return;
        s.remaps.push({ from: this.required(el, "from", s), to: this.required(el, "to", s) });
        return;
      }
      case "set_parameter":
      case "set-parameter": {
        if (!this.enabled(el, s)) return;
        const name = this.required(el, "name", s);
        s.params.push([name, this.typedValue(name, this.required(el, "value", s), el)]);
        return;
      }
      case "log": {
        if (!this.enabled(el, s)) return;
        this.loader.plan.warnings.push(`${this.shown}:${el.line}: ${this.required(el, "message", s)}`);
        return;
      }
      case "include":
        this.evalInclude(el, s);
        return;
      case "node":
        this.evalNode(el, s);
        return;
      default:
        throw new LaunchFileError(this.shown, el.line, `unsupported element <${el.name}> (supported: ${Object.keys(ATTRIBUTES).filter((t) => t !== "launch" && t !== "param" && t !== "remap").join(", ")})`);
    }
  }

  private evalArg(el: XmlElement, s: Scope): void {
    const name = this.required(el, "name", s);
    if (!this.enabled(el, s)) return;
    this.loader.declared.add(name);
    const description = this.attr(el, "description", s);
    if (!s.configs.has(name)) {
      const def = this.attr(el, "default", s);
      if (def === undefined) {
        throw new LaunchFileError(this.shown, el.line, `argument "${name}" is required (no default): pass ${name}:=<value>${description === undefined ? "" : ` (${description})`}`);
      }
      s.configs.set(name, def);
    }
    const entry: LaunchArgument = { name, value: s.configs.get(name) ?? "", file: this.shown };
    if (description !== undefined) entry.description = description;
    this.loader.plan.arguments.push(entry);
  }

  private joinNamespace(base: string, ns: string, el: XmlElement): string {
    const tokens = ns.split("/").filter((t) => t !== "");
    for (const t of tokens) {
      if (!NAMESPACE_TOKEN_RE.test(t)) throw new LaunchFileError(this.shown, this.lineOf(el, "namespace"), `<${el.name}> attribute "namespace": "${ns}" is not a valid ROS namespace (tokens must match [A-Za-z_][A-Za-z0-9_]*)`);
    }
    const joined = tokens.length === 0 ? "" : `/${tokens.join("/")}`;
    return ns.startsWith("/") ? joined : `${base}${joined}`;
  }

  private typedValue(name: string, value: string, el: XmlElement): TypedParameterValue {
    try {
      return parseParameterValue(name, value);
    } catch (err) {
      throw new LaunchFileError(this.shown, this.lineOf(el, "value"), `<${el.name}> attribute "value": ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private evalInclude(el: XmlElement, s: Scope): void {
    if (!this.enabled(el, s)) return;
    const { loader, shown } = this;
    let target: string;
    try {
      target = this.required(el, "file", s);
    } catch (err) {
      if (err instanceof ForeignPackageError) {
        loader.plan.skipped.push({ file: shown, line: el.line, what: `<include file="${el.attributes.get("file")?.value ?? ""}">`, reason: `package "${err.pkg}" is not drone_harness; it runs only under ros2 launch` });
        return;
      }
      throw err;
    }
    const resolved = isAbsolute(target) ? target : resolve(dirname(this.file), target);
    if (!loader.insideRoot(resolved)) {
      if (!isAbsolute(target)) {
        throw new LaunchFileError(shown, this.lineOf(el, "file"), `<include> attribute "file": "${target}" escapes the package root ${loader.packageRoot}`);
      }
      if (!loader.allowAbsoluteIncludes) {
        throw new LaunchFileError(shown, this.lineOf(el, "file"), `<include> attribute "file": "${target}" is outside the package root ${loader.packageRoot} (pass --allow-absolute-includes to allow it)`);
      }
    }
    if (!resolved.endsWith(".launch.xml") && !resolved.endsWith(".xml")) {
      loader.plan.skipped.push({ file: shown, line: el.line, what: `<include file="${target}">`, reason: "only XML launch files can be evaluated by the embedded launcher" });
      return;
    }
    if (this.depth + 1 > MAX_INCLUDE_DEPTH) throw new LaunchFileError(shown, el.line, `<include> nesting deeper than ${MAX_INCLUDE_DEPTH} (recursive include?)`);
    const child = copyScope(s);
    for (const a of el.children) {
      if (a.name !== "arg") throw new LaunchFileError(shown, a.line, `<include> may only contain <arg name value>, found <${a.name}>`);
      checkAttributesOf(a, shown, ["name", "value"]);
      child.configs.set(this.required(a, "name", s), this.required(a, "value", s));
    }
    try {
      evaluateFile(loader, resolved, child, this.depth + 1);
    } catch (err) {
      // An unreadable included file is the including file's error, at its <include> line
      // (found by test/fuzz/textParsers.fuzz.test.ts: it was "<included file>:0").
      if (err instanceof LaunchFileError && err.line === 0 && err.file === loader.display(resolved)) {
        throw new LaunchFileError(shown, this.lineOf(el, "file"), `<include> attribute "file": "${target}": ${err.reason}`);
      }
      throw err;
    }
  }

  private evalNode(el: XmlElement, s: Scope): void {
    if (!this.enabled(el, s)) return;
    const shown = this.shown;
    const pkg = this.required(el, "pkg", s);
    const exec = this.required(el, "exec", s);
    if (pkg !== PACKAGE_NAME) {
      this.loader.plan.skipped.push({ file: shown, line: el.line, what: `<node pkg="${pkg}" exec="${exec}">`, reason: `package "${pkg}" is not drone_harness: the embedded launcher starts only drone_harness nodes (ros2 launch runs it on a ROS 2 machine)` });
      return;
    }
    const name = this.attr(el, "name", s) ?? exec;
    if (!NODE_NAME_RE.test(name)) throw new LaunchFileError(shown, this.lineOf(el, "name"), `<node> attribute "name": "${name}" is not a valid node name ([A-Za-z_][A-Za-z0-9_]*)`);
    const nsAttr = this.attr(el, "namespace", s);
    const nsJoined = nsAttr === undefined ? s.namespace : this.joinNamespace(s.namespace, nsAttr, el);
    const namespace = nsJoined === "" ? "/" : nsJoined;
    const fqn = namespace === "/" ? `/${name}` : `${namespace}/${name}`;
    const respawnDelayText = this.attr(el, "respawn_delay", s);
    const respawnDelaySec = respawnDelayText === undefined ? 0 : Number(respawnDelayText);
    if (!Number.isFinite(respawnDelaySec) || respawnDelaySec < 0) {
      throw new LaunchFileError(shown, this.lineOf(el, "respawn_delay"), `<node> attribute "respawn_delay" must be a number of seconds >= 0, got "${respawnDelayText ?? ""}"`);
    }
    const parameters = new Map<string, TypedParameterValue>(s.params);
    const remappings: LaunchRemap[] = [...s.remaps];
    for (const c of el.children) {
      switch (c.name) {
        case "param":
          this.evalParam(c, "", s, fqn, parameters);
          break;
        case "remap":
          checkAttributes(c, shown);
          remappings.push({ from: this.required(c, "from", s), to: this.required(c, "to", s) });
          break;
        default:
          throw new LaunchFileError(shown, c.line, `<node> may only contain <param> and <remap>, found <${c.name}>`);
      }
    }
    const argsText = this.attr(el, "args", s);
    const node: NodeLaunchDescription = {
      package: pkg,
      executable: exec,
      name,
      namespace,
      fullyQualifiedName: fqn,
      parameters: Object.fromEntries(parameters),
      remappings,
      respawn: this.bool(el, "respawn", s, false),
      respawnDelaySec,
      output: this.attr(el, "output", s) ?? "log",
      args: argsText === undefined ? [] : argsText.split(/\s+/).filter((a) => a !== ""),
      source: { file: shown, line: el.line },
    };
    this.loader.plan.nodes.push(node);
  }

  /** A node's `<param>` (nested under `prefix`, or `from` a parameter file for node `fqn`) into `parameters`. */
  private evalParam(p: XmlElement, prefix: string, s: Scope, fqn: string, parameters: Map<string, TypedParameterValue>): void {
    const shown = this.shown;
    checkAttributes(p, shown);
    const from = this.attr(p, "from", s);
    if (from !== undefined) {
      if (prefix !== "" || p.attributes.has("name")) throw new LaunchFileError(shown, p.line, `<param from> cannot be combined with "name" or nested`);
      const path = isAbsolute(from) ? from : resolve(from);
      let text: string;
      try {
        text = this.loader.readFile(path);
      } catch (err) {
        throw new LaunchFileError(shown, this.lineOf(p, "from"), `<param> attribute "from": cannot read "${from}": ${err instanceof Error ? err.message : String(err)}`);
      }
      try {
        for (const [k, v] of parametersForNode(parseParameterFile(text, this.loader.display(path)), fqn)) parameters.set(k, v);
      } catch (err) {
        if (err instanceof ParameterFileError) throw new LaunchFileError(shown, this.lineOf(p, "from"), `<param> attribute "from": ${err.message}`);
        throw err;
      }
      return;
    }
    const pname = this.required(p, "name", s);
    const full = prefix === "" ? pname : `${prefix}.${pname}`;
    if (p.children.length > 0) {
      for (const c of p.children) {
        if (c.name !== "param") throw new LaunchFileError(shown, c.line, `<param> may only contain <param>, found <${c.name}>`);
        this.evalParam(c, full, s, fqn, parameters);
      }
      return;
    }
    parameters.set(full, this.typedValue(full, this.required(p, "value", s), p));
  }
}

function checkAttributes(el: XmlElement, file: string): void {
  const allowed = ATTRIBUTES[el.name];
  if (allowed !== undefined) checkAttributesOf(el, file, allowed);
}

function checkAttributesOf(el: XmlElement, file: string, allowed: readonly string[]): void {
  for (const [name, a] of el.attributes) {
    if (!allowed.includes(name)) throw new LaunchFileError(file, a.line, `<${el.name}> has unknown attribute "${name}" (valid: ${allowed.join(", ")})`);
  }
}

/** Path of a launch file given as `launch/x.launch.xml` or just `x.launch.xml` (looked up in launch/). */
export function resolveLaunchPath(packageRoot: string, given: string): string {
  if (isAbsolute(given) || given.includes("/")) return resolve(given);
  return join(packageRoot, "launch", given);
}
