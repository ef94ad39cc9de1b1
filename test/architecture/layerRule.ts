/**
 * The layer rule of docs/architecture.md as data: which layer a file belongs to, which layers it
 * may import, and which files may touch the file system. Keep this table and the page in step.
 */
import type { ImportEdge } from "./importGraph";

export type Layer =
  | "util"
  | "control"
  | "vision"
  | "sim"
  | "sim/io"
  | "sim/index"
  | "sim/faults"
  | "harness"
  | "ros"
  | "bag"
  | "nodes"
  | "app"
  | "cli";

/** Path prefix -> layer, most specific first. */
const LAYER_OF_PREFIX: readonly (readonly [string, Layer])[] = [
  ["sim/index.ts", "sim/index"], // the public face of sim/: the pure model plus the fs scenario loader
  ["sim/io/", "sim/io"],
  ["sim/faults/io/", "sim/io"],
  ["sim/faults/", "sim/faults"],
  ["sim/", "sim"],
  ["src/util/", "util"],
  ["src/control/", "control"],
  ["src/vision/", "vision"],
  ["src/harness/", "harness"],
  ["src/ros/", "ros"],
  ["src/bag/", "bag"],
  ["nodes/", "nodes"],
  ["src/app/", "app"],
  ["src/cli/", "cli"],
];

const SIM_ALL: readonly Layer[] = ["sim", "sim/io", "sim/index", "sim/faults"];

/** What each layer may import besides itself and src/util. */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  util: [],
  control: [],
  vision: [],
  sim: ["control"],
  "sim/io": ["sim", "sim/faults", "control"], // the fs loaders of scenarios, fault blocks, PNGs
  "sim/index": ["sim", "sim/io", "control"],
  "sim/faults": ["sim", "sim/io", "control", "ros"], // wraps a RosGraph to inject sensor faults
  harness: ["control", "vision"],
  ros: [],
  bag: ["ros"],
  nodes: ["control", "vision", "harness", "ros"], // sim only in the sim-facing nodes below
  app: ["control", "vision", "harness", "ros", "bag", "nodes", ...SIM_ALL],
  cli: ["control", "vision", "harness", "ros", "bag", "nodes", "app", ...SIM_ALL],
};

/** Named files (or folders, ending in "/") allowed more than their layer, each with its reason. */
const EXTRA: readonly { prefix: string; may: readonly Layer[]; why: string }[] = [
  { prefix: "src/harness/data/simEnvironment.ts", may: ["sim"], why: "the DroneEnvironment adapter over the pure simulator" },
  { prefix: "src/harness/data/simViews.ts", may: ["sim"], why: "overhead views rendered by the pure simulator (detector data)" },
  { prefix: "src/harness/data/node/", may: ["sim", "sim/index"], why: "worker-thread frame generation (Node adapter)" },
  { prefix: "src/bag/imagesToBag.ts", may: ["sim"], why: "the ideal pinhole camera of sim/Camera.ts for photo bags" },
  { prefix: "nodes/sim.ts", may: SIM_ALL, why: "the simulator node" },
  { prefix: "nodes/faultySim.ts", may: SIM_ALL, why: "the simulator node with faults" },
  { prefix: "nodes/odom_to_gps_vel.ts", may: ["sim"], why: "the Gazebo odometry bridge" },
  { prefix: "nodes/index.ts", may: SIM_ALL, why: "the node registry (sim nodes and the faults loader)" },
];

/** Layers that are pure computation: no file system, no processes, no ROS client library. */
const PURE: readonly Layer[] = ["util", "control", "vision", "sim", "harness"];
const IMPURE_MODULES = /^(node:)?(fs|fs\/promises|child_process|worker_threads|net|http|https|dgram)$|^rclnodejs$/;
/** The named I/O adapters inside pure layers. */
const IO_ADAPTERS: readonly string[] = [
  "src/harness/modelfile/modelFiles.ts",
  "src/harness/modelfile/atomicWrite.ts",
  "src/harness/training/node/",
  "src/harness/data/node/",
];

export function layerOf(file: string): Layer | undefined {
  return LAYER_OF_PREFIX.find(([prefix]) => file.startsWith(prefix))?.[1];
}

/** Every import of `edges` that breaks the rule, as "from -> to (layer -> layer)" lines. */
export function layerBreaks(edges: readonly ImportEdge[]): string[] {
  const breaks: string[] = [];
  for (const e of edges) {
    const from = layerOf(e.from);
    if (from === undefined) throw new Error(`${e.from}: no layer (add it to test/architecture/layerRule.ts)`);
    if (e.to === undefined) {
      if (PURE.includes(from) && IMPURE_MODULES.test(e.specifier) && !IO_ADAPTERS.some((p) => e.from.startsWith(p))) {
        breaks.push(`${e.from} -> ${e.specifier} (${from} is pure: no file system, processes or ROS)`);
      }
      continue;
    }
    const to = layerOf(e.to);
    if (to === undefined) throw new Error(`${e.from} imports ${e.to}, outside the layers`);
    if (to === from || to === "util" || MAY_IMPORT[from].includes(to)) continue;
    if (EXTRA.some((x) => e.from.startsWith(x.prefix) && x.may.includes(to))) continue;
    breaks.push(`${e.from} -> ${e.to} (${from} may not import ${to})`);
  }
  return breaks;
}
