/**
 * ROS 2 name validation, expansion and remapping, following rcl and rmw:
 * - rmw_validate_node_name / rmw_validate_namespace / rmw_validate_full_topic_name
 *   (ros2/rmw rmw/src/validate_*.c),
 * - rcl_expand_topic_name (ros2/rcl rcl/src/rcl/expand_topic_name.c): "~" is the node's fully
 *   qualified name, "{node}" / "{ns}" / "{namespace}" substitutions, relative names are prefixed
 *   with the namespace,
 * - rcl_remap_topic_name (ros2/rcl rcl/src/rcl/remap.c): rules "from:=to" (optionally
 *   "nodename:from:=to"), both sides expanded for the node; node-local rules are tried before
 *   global ones and the first match wins; "__node:=name" and "__ns:=/ns" rename the node.
 *   design.ros2.org/articles/static_remapping.html describes the same rules.
 */

const TOKEN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** rmw_validate_node_name: [A-Za-z_][A-Za-z0-9_]*, at most 255 characters. */
export function validateNodeName(name: string): void {
  if (name.length === 0) throw new Error(`invalid node name "": must not be empty`);
  if (name.length > 255) throw new Error(`invalid node name "${name}": longer than 255 characters`);
  if (!TOKEN.test(name)) {
    throw new Error(`invalid node name "${name}": use letters, digits and "_" only, not starting with a digit`);
  }
}

/** rmw_validate_namespace: "/" or "/tok(/tok)*". Relative namespaces get a leading "/" (as rclcpp). */
export function normalizeNamespace(namespace: string | undefined): string {
  let ns = namespace ?? "";
  if (ns === "" || ns === "/") return "/";
  if (!ns.startsWith("/")) ns = `/${ns}`;
  if (ns.endsWith("/")) throw new Error(`invalid namespace "${namespace ?? ""}": must not end with "/"`);
  for (const token of ns.slice(1).split("/")) {
    if (!TOKEN.test(token)) {
      throw new Error(`invalid namespace "${namespace ?? ""}": token "${token}" must be letters, digits and "_", not starting with a digit`);
    }
  }
  return ns;
}

export function fullyQualifiedName(namespace: string, name: string): string {
  return namespace === "/" ? `/${name}` : `${namespace}/${name}`;
}

/** rmw_validate_full_topic_name on an already expanded name; throws naming the problem. */
export function validateFullTopicName(name: string, original: string = name): void {
  const where = original === name ? `"${name}"` : `"${original}" (expanded to "${name}")`;
  if (!name.startsWith("/")) throw new Error(`invalid topic name ${where}: must be absolute after expansion`);
  if (name.length > 1 && name.endsWith("/")) throw new Error(`invalid topic name ${where}: must not end with "/"`);
  if (name === "/") throw new Error(`invalid topic name ${where}: "/" is not a topic`);
  for (const token of name.slice(1).split("/")) {
    if (token === "") throw new Error(`invalid topic name ${where}: must not contain "//"`);
    if (!TOKEN.test(token)) {
      throw new Error(`invalid topic name ${where}: token "${token}" must be letters, digits and "_", not starting with a digit`);
    }
  }
}

/**
 * rcl_expand_topic_name: "~" and "~/x" -> node FQN (+ "/x"); "{node}", "{ns}", "{namespace}"
 * substitutions; relative names prefixed with the namespace. The result is validated.
 */
export function expandTopicName(topic: string, nodeName: string, namespace: string): string {
  if (topic.length === 0) throw new Error(`invalid topic name "": must not be empty`);
  if (topic.includes("~") && !(topic === "~" || topic.startsWith("~/"))) {
    throw new Error(`invalid topic name "${topic}": "~" is allowed only at the start, followed by "/"`);
  }
  let expanded = topic;
  if (expanded === "~") expanded = fullyQualifiedName(namespace, nodeName);
  else if (expanded.startsWith("~/")) expanded = `${fullyQualifiedName(namespace, nodeName)}/${expanded.slice(2)}`;
  expanded = expanded.replace(/\{([^}]*)\}/g, (_m, key: string) => {
    switch (key) {
      case "node":
        return nodeName;
      case "ns":
      case "namespace":
        // rcl substitutes the whole namespace, leading "/" included ("{ns}" -> "/my_ns").
        return namespace;
      default:
        throw new Error(`invalid topic name "${topic}": unknown substitution "{${key}}" (valid: {node}, {ns}, {namespace})`);
    }
  });
  if (!expanded.startsWith("/")) expanded = namespace === "/" ? `/${expanded}` : `${namespace}/${expanded}`;
  validateFullTopicName(expanded, topic);
  return expanded;
}

/** One parsed remapping rule. */
export type RemapRule = {
  /** Applies only to the node with this name, when given ("talker:chatter:=out"). */
  nodeName?: string;
  kind: "topic" | "node_name" | "namespace";
  from: string;
  to: string;
};

/** Parses rules given as a record {from: to} (keys may carry a "node:" prefix). */
export function parseRemapRules(rules: Readonly<Record<string, string>> | undefined): RemapRule[] {
  const out: RemapRule[] = [];
  for (const [rawFrom, to] of Object.entries(rules ?? {})) {
    let from = rawFrom;
    let nodeName: string | undefined;
    const colon = from.indexOf(":");
    if (colon >= 0) {
      nodeName = from.slice(0, colon);
      from = from.slice(colon + 1);
      validateNodeName(nodeName);
    }
    if (from.length === 0 || to.length === 0) throw new Error(`invalid remapping rule "${rawFrom}:=${to}": both sides must be non-empty`);
    const kind = from === "__node" || from === "__name" ? "node_name" : from === "__ns" ? "namespace" : "topic";
    out.push(nodeName === undefined ? { kind, from, to } : { nodeName, kind, from, to });
  }
  return out;
}

/** Parses "from:=to" command-line style rules into a record. */
export function remapArgsToRecord(args: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of args) {
    const i = arg.indexOf(":=");
    if (i <= 0) throw new Error(`invalid remapping rule "${arg}": expected "from:=to"`);
    out[arg.slice(0, i)] = arg.slice(i + 2);
  }
  return out;
}

/** Node name and namespace after "__node:=" / "__ns:=" rules (local rules first, then global). */
export function remapNodeIdentity(
  name: string,
  namespace: string,
  local: readonly RemapRule[],
  global: readonly RemapRule[],
): { name: string; namespace: string } {
  let newName: string | undefined;
  let newNs: string | undefined;
  for (const rule of [...local, ...global]) {
    if (rule.nodeName !== undefined && rule.nodeName !== name) continue;
    if (rule.kind === "node_name" && newName === undefined) newName = rule.to;
    if (rule.kind === "namespace" && newNs === undefined) newNs = rule.to;
  }
  const outName = newName ?? name;
  validateNodeName(outName);
  return { name: outName, namespace: newNs === undefined ? namespace : normalizeNamespace(newNs) };
}

/**
 * Expands a topic name and applies the first matching remapping rule (node-local rules, then
 * global). Both sides of a rule are expanded with the node's name and namespace, as rcl does.
 */
export function resolveTopicName(
  topic: string,
  nodeName: string,
  namespace: string,
  local: readonly RemapRule[],
  global: readonly RemapRule[],
): string {
  const expanded = expandTopicName(topic, nodeName, namespace);
  for (const rule of [...local, ...global]) {
    if (rule.kind !== "topic") continue;
    if (rule.nodeName !== undefined && rule.nodeName !== nodeName) continue;
    if (expandTopicName(rule.from, nodeName, namespace) === expanded) {
      return expandTopicName(rule.to, nodeName, namespace);
    }
  }
  return expanded;
}
