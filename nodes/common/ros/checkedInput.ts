/**
 * A subscription callback for an input message: ignored while the node is not active, validated
 * by `check` (a rejected message is dropped and counted with its reason), then handed to `apply`;
 * an exception in `apply` is counted as callback_error, never thrown into the executor.
 */
import type { InputHealth } from "./InputHealth";
import type { InputCheck } from "../sensors/inputValidation";

export function checkedInput<T>(health: InputHealth, topic: string, isActive: () => boolean, check: (m: T) => InputCheck, apply: (m: T) => void): (msg: T) => void {
  return (msg: T): void => {
    if (!isActive()) return;
    try {
      const c = check(msg);
      if (c.type === "reject") {
        health.drop(topic, c.reason, c.detail);
        return;
      }
      apply(msg);
    } catch (err) {
      health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
    }
  };
}
