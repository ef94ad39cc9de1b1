export { FoxgloveBridge, FoxgloveListenError, FOXGLOVE_DEFAULT_PORT } from "./FoxgloveBridge";
export type { FoxgloveBridgeOptions } from "./FoxgloveBridge";
