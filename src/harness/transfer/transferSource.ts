/**
 * The architecture check of a transfer source (SPEC "Transfer"; seed 5.4): only a State Encoder
 * of exactly this HarnessNet's layout can be moved. The source's weight list (names and shapes,
 * as read from its model.json before any weights are loaded) must contain every encoder weight of
 * `target` with the same shape, and no other encoder weight; otherwise the run stops with an
 * error that names the first mismatch.
 */
import type { HarnessNet } from "../models/HarnessNet";

export class TransferSourceError extends Error {
  override readonly name = "TransferSourceError";
}

export type WeightShape = { name: string; shape: readonly number[] };

export function assertTransferSource(sourceLabel: string, sourceKind: string, source: readonly WeightShape[], target: HarnessNet): void {
  if (sourceKind !== "harness") {
    throw new TransferSourceError(`${sourceLabel}: kind "${sourceKind}", expected "harness" (only a harness's State Encoder can be transferred)`);
  }
  const have = new Map(source.map((w) => [w.name, w.shape]));
  const want = target.encoderWeightNames();
  for (const name of want) {
    const expected = target.params.get(name).shape;
    const got = have.get(name);
    if (got === undefined) {
      throw new TransferSourceError(`${sourceLabel}: encoder weight "${name}" is missing; expected shape [${expected.join(",")}] (another harness architecture)`);
    }
    if (got.length !== expected.length || got.some((d, i) => d !== expected[i])) {
      throw new TransferSourceError(`${sourceLabel}: encoder weight "${name}" has shape [${got.join(",")}], expected [${expected.join(",")}] (another harness architecture)`);
    }
  }
  const wanted = new Set(want);
  const extra = source.find((w) => w.name.startsWith("encoder/") && !wanted.has(w.name));
  if (extra !== undefined) {
    throw new TransferSourceError(`${sourceLabel}: unexpected encoder weight "${extra.name}" [${extra.shape.join(",")}]; this harness's encoder has ${want.length} weights (another harness architecture)`);
  }
}
