/** The control core: pure logic behind the perception, controller and safety nodes. */
export * from "./actions";
export * from "./visionTypes";
export * from "./cellsToDetections";
export * from "./Controller";
export * from "./px4";
export * from "./SafetyWatchdog";
export * from "./imageDigest";
export * from "./FrozenImageDetector";
export * from "./LocalPlanner";
export * from "./navigation";
export * from "./geodesy";
export * from "./NavigationState";
