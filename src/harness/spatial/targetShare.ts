/**
 * Where the Correction Generator's push lands inside a risky region (fourteenth session). With a
 * perfect risk (r = 1 on the regions a contact-type target marks) a region's delta is proportional
 * to S_c . |ds/dt| over its cells (spatialCorrection.ts), so the share of ||delta_region||^2 that
 * falls on the target's own cells is
 *
 *   share = sum_{c in target} (S_c . |rates|)^2 / sum_{c in region} (S_c . |rates|)^2,
 *
 * whatever lambda and the clip are. A target cell of a region with share s and k target cells gets
 * about clip * sqrt(s / k) on its logit; `uniform` is k / cells per region, the share of a
 * correction spread evenly. A share above `uniform` means S points the push at the target's cells.
 */
import { NUM_SENSITIVITY_DIMS, REGION_CELLS, regionOfCell } from "./SpatialHarness";

export type TargetShareSample = { targetCells?: Uint8Array; rates: ArrayLike<number>; sgt: ArrayLike<number> };

export type TargetShare = {
  /** Risky regions counted (those holding a target cell). */
  regions: number;
  /** Of them, regions where S . |rates| is 0 on every cell (the form pushes nothing there). */
  silentRegions: number;
  /** Mean share of ||delta_region||^2 on the target cells (silent regions count 0). */
  meanShare: number;
  /** Mean share of cells that are target cells (an evenly spread push). */
  meanUniform: number;
};

/** The share for every sample holding targetCells; `sensitivity(i)` replaces sample i's S_gt (e.g. the harness's predicted S). */
export function targetShare(samples: readonly TargetShareSample[], rows: number, cols: number, sensitivity?: (i: number) => ArrayLike<number>): TargetShare {
  const cells = rows * cols;
  const regions = cells / (REGION_CELLS * REGION_CELLS);
  const onTarget = new Float64Array(regions);
  const total = new Float64Array(regions);
  const k = new Uint16Array(regions);
  const out: TargetShare = { regions: 0, silentRegions: 0, meanShare: 0, meanUniform: 0 };
  samples.forEach((smp, i) => {
    const t = smp.targetCells;
    if (t === undefined) return;
    const s = sensitivity === undefined ? smp.sgt : sensitivity(i);
    if (t.length !== cells || s.length !== cells * NUM_SENSITIVITY_DIMS || smp.rates.length !== NUM_SENSITIVITY_DIMS) {
      throw new RangeError(`targetShare: sample ${i} has ${t.length} target cells and ${s.length} sensitivities for a ${rows}x${cols} grid`);
    }
    onTarget.fill(0);
    total.fill(0);
    k.fill(0);
    for (let c = 0; c < cells; c++) {
      let push = 0;
      for (let j = 0; j < NUM_SENSITIVITY_DIMS; j++) push += s[c * NUM_SENSITIVITY_DIMS + j]! * Math.abs(smp.rates[j]!);
      const g = regionOfCell(c, cols);
      total[g]! += push * push;
      if (t[c] === 1) {
        onTarget[g]! += push * push;
        k[g]!++;
      }
    }
    for (let g = 0; g < regions; g++) {
      if (k[g] === 0) continue;
      out.regions++;
      out.meanUniform += k[g]! / (REGION_CELLS * REGION_CELLS);
      if (total[g] === 0) out.silentRegions++;
      else out.meanShare += onTarget[g]! / total[g]!;
    }
  });
  if (out.regions > 0) {
    out.meanShare /= out.regions;
    out.meanUniform /= out.regions;
  } else {
    out.meanShare = NaN;
    out.meanUniform = NaN;
  }
  return out;
}
