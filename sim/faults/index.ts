/** Fault injection for the simulator (issue 8): the public face of sim/faults. */
export { FAULT_BOUNDS, FAULT_KINDS, FaultSpecError, parseFaults, type Fault, type FaultKind, type FloodTopic } from "./FaultSpec";
export { parseScenarioFaults } from "./parseScenarioFaults";
export { injectFaults, type FaultCounters, type FaultInjector } from "./faultyGraph";
