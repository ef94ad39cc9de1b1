import { parseParameterValue, type TypedParameterValue } from "../params";

/**
 * The ROS-specific command-line arguments of a node process, as rcl parses them (ros2/rcl,
 * rcl/src/rcl/arguments.c; design.ros2.org "ROS Command Line Arguments"): everything between
 * `--ros-args` and `--` (or the end), possibly in several `--ros-args` sections.
 */
export type RosArgs = {
  /** `-r __node:=name` (also the legacy `__name:=`). */
  nodeName?: string;
  /** `-r __ns:=/ns`. */
  namespace?: string;
  /** `-r from:=to` rules in order; a rule prefixed `node:` applies only to that node name. */
  remappings: Array<{ node?: string; from: string; to: string }>;
  /** `-p name:=value` (later ones win), typed as rcl types YAML values. */
  parameters: Array<{ node?: string; name: string; value: TypedParameterValue }>;
  /** `--params-file path`, in order. */
  paramsFiles: string[];
  /** `--log-level [logger:=]level`. */
  logLevels: Array<{ logger?: string; level: string }>;
  /** `-e`/`--enclave`. */
  enclave?: string;
  /** Arguments outside the --ros-args sections (the node's own arguments). */
  unparsed: string[];
};

const FLAGS_WITH_VALUE = new Set(["-r", "--remap", "-p", "--param", "--params-file", "--log-level", "-e", "--enclave", "--log-config-file"]);
const FLAGS_WITHOUT_VALUE = new Set([
  "--enable-rosout-logs",
  "--disable-rosout-logs",
  "--enable-stdout-logs",
  "--disable-stdout-logs",
  "--enable-external-lib-logs",
  "--disable-external-lib-logs",
]);
const LOG_LEVELS = new Set(["debug", "info", "warn", "error", "fatal", "unset"]);

/** Splits `[node:]lhs:=rhs` (rcl allows a node-name prefix on remaps and params). */
function splitRule(flag: string, rule: string): { node?: string; lhs: string; rhs: string } {
  const sep = rule.indexOf(":=");
  if (sep <= 0) throw new RangeError(`${flag} "${rule}": expected [node:]name:=value`);
  let lhs = rule.slice(0, sep);
  const rhs = rule.slice(sep + 2);
  let node: string | undefined;
  // "node:from" (a single ':' before ':='), but not "rosservice://..." style URLs.
  const colon = lhs.indexOf(":");
  if (colon > 0 && !lhs.slice(colon).startsWith("://")) {
    node = lhs.slice(0, colon);
    lhs = lhs.slice(colon + 1);
  }
  if (lhs === "") throw new RangeError(`${flag} "${rule}": the name before ":=" is empty`);
  return node === undefined ? { lhs, rhs } : { node, lhs, rhs };
}

/** Parses a process's argv (without `node script`) into ROS arguments and the rest. */
export function parseRosArgs(argv: readonly string[]): RosArgs {
  const out: RosArgs = { remappings: [], parameters: [], paramsFiles: [], logLevels: [], unparsed: [] };
  let inRosArgs = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!inRosArgs) {
      if (arg === "--ros-args") inRosArgs = true;
      else out.unparsed.push(arg);
      continue;
    }
    if (arg === "--") {
      inRosArgs = false;
      continue;
    }
    if (arg === "--ros-args") continue;
    if (FLAGS_WITHOUT_VALUE.has(arg)) continue;
    if (!FLAGS_WITH_VALUE.has(arg)) {
      throw new RangeError(`--ros-args: unknown argument "${arg}" (valid: ${[...FLAGS_WITH_VALUE, ...FLAGS_WITHOUT_VALUE].join(", ")}; end the ROS arguments with "--")`);
    }
    const value = argv[i + 1];
    if (value === undefined) throw new RangeError(`--ros-args: ${arg} needs a value`);
    i++;
    switch (arg) {
      case "-r":
      case "--remap": {
        const { node, lhs, rhs } = splitRule(arg, value);
        if (lhs === "__node" || lhs === "__name") {
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(rhs)) throw new RangeError(`${arg} ${value}: node name "${rhs}" must match [A-Za-z_][A-Za-z0-9_]*`);
          out.nodeName = rhs;
        } else if (lhs === "__ns") {
          if (!rhs.startsWith("/")) throw new RangeError(`${arg} ${value}: namespace "${rhs}" must be absolute (start with "/")`);
          out.namespace = rhs;
        } else {
          out.remappings.push(node === undefined ? { from: lhs, to: rhs } : { node, from: lhs, to: rhs });
        }
        break;
      }
      case "-p":
      case "--param": {
        const { node, lhs, rhs } = splitRule(arg, value);
        const typed = parseParameterValue(lhs, rhs);
        out.parameters.push(node === undefined ? { name: lhs, value: typed } : { node, name: lhs, value: typed });
        break;
      }
      case "--params-file":
        out.paramsFiles.push(value);
        break;
      case "--log-level": {
        const sep = value.indexOf(":=");
        const level = (sep >= 0 ? value.slice(sep + 2) : value).toLowerCase();
        if (!LOG_LEVELS.has(level)) throw new RangeError(`--log-level "${value}": level must be one of ${[...LOG_LEVELS].join(", ")}`);
        out.logLevels.push(sep >= 0 ? { logger: value.slice(0, sep), level } : { level });
        break;
      }
      case "-e":
      case "--enclave":
        out.enclave = value;
        break;
      case "--log-config-file":
        break;
      default:
        throw new RangeError(`--ros-args: unhandled argument "${arg}"`);
    }
  }
  return out;
}
