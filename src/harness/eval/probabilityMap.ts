/**
 * Per-pixel probability map of one class at an image's original size, from the detector's cell
 * grid: bilinear interpolation between cell centres (cell (r, c) has its centre at model pixel
 * ((c + 0.5) * cell, (r + 0.5) * cell)), clamped at the border, mapped to the original image by
 * the same centre-aligned scaling as the resize (model u = (x + 0.5) * modelW / W). Written as
 * 8-bit grey: round(255 * p).
 */
export type ProbabilityMapSpec = {
  /** Cell-major probabilities, `numClasses` per cell. */
  probs: ArrayLike<number>;
  rows: number;
  cols: number;
  numClasses: number;
  classIndex: number;
  /** Model input size in pixels (cells are modelWidth / cols wide). */
  modelWidth: number;
  modelHeight: number;
  /** Output size (the original image's). */
  width: number;
  height: number;
};

export function probabilityMap(spec: ProbabilityMapSpec, out: Uint8Array = new Uint8Array(spec.width * spec.height)): Uint8Array {
  const { probs, rows, cols, numClasses: k, classIndex, width: W, height: H } = spec;
  if (probs.length !== rows * cols * k) throw new RangeError(`probs.length=${probs.length}, expected rows*cols*numClasses=${rows * cols * k}`);
  if (!(classIndex >= 0 && classIndex < k)) throw new RangeError(`classIndex=${classIndex}, expected [0, ${k - 1}]`);
  if (out.length !== W * H) throw new RangeError(`out.length=${out.length}, expected ${W * H}`);
  const cellW = spec.modelWidth / cols;
  const cellH = spec.modelHeight / rows;
  const at = (r: number, c: number): number => probs[(r * cols + c) * k + classIndex]!;
  for (let y = 0; y < H; y++) {
    const v = ((y + 0.5) * spec.modelHeight) / H;
    const gy = Math.min(Math.max(v / cellH - 0.5, 0), rows - 1);
    const r0 = Math.floor(gy);
    const r1 = Math.min(r0 + 1, rows - 1);
    const fy = gy - r0;
    for (let x = 0; x < W; x++) {
      const u = ((x + 0.5) * spec.modelWidth) / W;
      const gx = Math.min(Math.max(u / cellW - 0.5, 0), cols - 1);
      const c0 = Math.floor(gx);
      const c1 = Math.min(c0 + 1, cols - 1);
      const fx = gx - c0;
      const p = (1 - fy) * ((1 - fx) * at(r0, c0) + fx * at(r0, c1)) + fy * ((1 - fx) * at(r1, c0) + fx * at(r1, c1));
      out[y * W + x] = Math.round(255 * Math.min(1, Math.max(0, p)));
    }
  }
  return out;
}

/** A probability map as 8-bit grey, round(255 p) with p clamped to [0, 1] (detect's .wire.png, the node's wire_map). */
export function probabilityToGrey(map: ArrayLike<number>, out: Uint8Array = new Uint8Array(map.length)): Uint8Array {
  if (out.length !== map.length) throw new RangeError(`out.length=${out.length}, expected the map's ${map.length} pixels`);
  for (let i = 0; i < map.length; i++) out[i] = Math.round(255 * Math.min(1, Math.max(0, map[i]!)));
  return out;
}
