/**
 * Domain transfer (SPEC "Transfer"; seed 5.4): move only the State Encoder to a new domain and
 * retrain Policy Diagnostics (and the Correction Generator, which has no weights) with a fresh
 * 16-unit adapter after the encoder. Fine-tune with
 * `optimizer.minimize(loss, false, next.trainableVariables("transfer"))` so the moved encoder
 * stays frozen.
 */
import { HarnessNet } from "./HarnessNet";

export type TransferOptions = {
  /** Seed for the fresh adapter and diagnostics weights. Default 101. */
  seed?: number;
  /**
   * "fresh" (default): a new identity-initialised adapter; "copy": start from the old domain's
   * adapter (it is still trained in the "transfer" scope).
   */
  adapter?: "fresh" | "copy";
};

/** A new harness whose encoder is a copy of `source`'s; diagnostics are fresh, the adapter per `options.adapter`. */
export function transferHarness(source: HarnessNet, options: TransferOptions = {}): HarnessNet {
  const next = new HarnessNet({ seed: options.seed ?? 101 });
  next.params.copyFrom(source.params, source.encoderWeightNames());
  if (options.adapter === "copy") {
    next.params.copyFrom(source.params, source.params.names().filter((n) => n.startsWith("adapter/")));
  }
  return next;
}
