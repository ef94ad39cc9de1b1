/** The message users see when --middleware ros2 is chosen but rclnodejs cannot be loaded. */
export const RCLNODEJS_UNAVAILABLE = "rclnodejs could not be loaded: source your ROS 2 setup.bash, then npm rebuild rclnodejs";

/**
 * Loads rclnodejs with a plain `require` inside a function, so the module (an optional dependency
 * that builds only where ROS 2's rcl is installed) is touched only when the ros2 middleware is
 * chosen. `requireFn` is injectable for tests.
 */
export function loadRclnodejs<T = unknown>(requireFn: (id: string) => unknown = require): T {
  try {
    return requireFn("rclnodejs") as T;
  } catch (error) {
    // Duck-typed: errors from another realm (e.g. jest's module registry) fail `instanceof Error`.
    const message = (error as { message?: unknown } | null)?.message;
    const cause = (typeof message === "string" ? message : String(error)).split("\n")[0];
    throw new Error(`${RCLNODEJS_UNAVAILABLE} (cause: ${cause ?? "unknown"})`, { cause: error });
  }
}
