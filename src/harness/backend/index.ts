export { initBackend } from "./initBackend";
export type { BackendInfo, BackendName, InitBackendOptions } from "./initBackend";
