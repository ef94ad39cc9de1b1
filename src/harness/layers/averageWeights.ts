/**
 * The uniform average of several weight sets of one architecture ("model soup": Wortsman et al.
 * 2022, "Model soups: averaging weights of multiple fine-tuned models improves accuracy without
 * increasing inference time", the uniform soup). Meant for fine-tunes of one initialisation;
 * averaging unrelated networks gives a broken one, so the caller states where they came from.
 * Pure: weights in, weights out.
 */
import type { NamedWeight } from "./ParamStore";

export function averageWeights(sets: readonly (readonly NamedWeight[])[]): NamedWeight[] {
  if (sets.length < 2) throw new RangeError(`averageWeights: ${sets.length} weight set(s), expected at least 2`);
  const first = sets[0]!;
  const describe = (ws: readonly NamedWeight[]): string => ws.map((w) => `${w.name}[${w.shape.join(",")}]`).join(" ");
  sets.forEach((ws, i) => {
    if (ws.length !== first.length || ws.some((w, k) => w.name !== first[k]!.name || w.shape.join(",") !== first[k]!.shape.join(","))) {
      throw new RangeError(`averageWeights: set ${i} has weights ${describe(ws)}, set 0 has ${describe(first)}: not one architecture`);
    }
    for (const w of ws) if (!w.values.every(Number.isFinite)) throw new RangeError(`averageWeights: set ${i}'s weight "${w.name}" holds a non-finite value`);
  });
  return first.map((w, k) => {
    const values = new Float32Array(w.values.length);
    for (const ws of sets) {
      const v = ws[k]!.values;
      for (let i = 0; i < values.length; i++) values[i]! += v[i]!;
    }
    for (let i = 0; i < values.length; i++) values[i]! /= sets.length;
    return { name: w.name, shape: w.shape.slice(), values };
  });
}
