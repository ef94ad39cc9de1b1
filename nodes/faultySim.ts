/**
 * The sim node (nodes/sim.ts) with a fault schedule applied to its sensor streams. The faults
 * come from `options.faults`, else from the scenario file's `faults:` block.
 */
import { createSimNode, type SimLaunchedNode, type SimNodeDeps } from "./sim";
import type { NodeFactory } from "../src/ros/launch/NodeFactory";
import type { Fault } from "../sim/faults/FaultSpec";
import { injectFaults, type FaultInjector } from "../sim/faults/faultyGraph";

export type FaultySimLaunchedNode = SimLaunchedNode & { faults: FaultInjector };

export type FaultySimOptions = SimNodeDeps & {
  /** The schedule; when undefined, `loadFaults(scenario parameter)` is used. */
  faults?: readonly Fault[];
  /** Reads the `faults:` block of a scenario by name or path (sim/faults/io/loadScenarioFaults.ts). */
  loadFaults?: (nameOrPath: string) => Fault[];
  /** Seed of the injector's random choices (default: the node's seed parameter override, else 1). */
  seed?: number;
};

export function createFaultySimNode(options: FaultySimOptions = {}): NodeFactory {
  const inner = createSimNode(options);
  return async (graph, factoryOptions): Promise<FaultySimLaunchedNode> => {
    const scenario = factoryOptions.parameterOverrides.scenario;
    const seedParam = factoryOptions.parameterOverrides.seed;
    const faults = options.faults ?? options.loadFaults?.(typeof scenario === "string" ? scenario : "default") ?? [];
    const injector = injectFaults(graph, faults, { seed: options.seed ?? (typeof seedParam === "number" ? seedParam : 1) });
    const launched = (await inner(injector.graph, factoryOptions)) as SimLaunchedNode;
    return Object.assign(launched, { faults: injector });
  };
}
