/**
 * An rgb8 frame of w x h copied into the top-left of a pw x ph buffer (pw >= w, ph >= h), the
 * frame's last column and last row repeated into the rest: how the pipeline detector
 * (ThreatDetector, to whole 8 px cells) and the spatial harness (SpatialCorrector, to whole
 * regions of cells) pad a frame, so the cells near the edge see the edge continued, not black.
 */
export function padRgb8EdgeRepeat(rgb: Uint8Array, w: number, h: number, out: Uint8Array, pw: number, ph: number): Uint8Array {
  if (!(pw >= w && ph >= h && w > 0 && h > 0)) throw new RangeError(`padRgb8EdgeRepeat: ${w}x${h} into ${pw}x${ph}, expected the frame to fit`);
  if (rgb.length !== w * h * 3 || out.length !== pw * ph * 3) throw new RangeError(`padRgb8EdgeRepeat: rgb ${rgb.length}, out ${out.length}, expected ${w * h * 3} and ${pw * ph * 3}`);
  for (let y = 0; y < ph; y++) {
    const sy = Math.min(y, h - 1);
    out.set(rgb.subarray(sy * w * 3, (sy + 1) * w * 3), y * pw * 3);
    const last = (sy * w + w - 1) * 3;
    for (let x = w; x < pw; x++) out.set(rgb.subarray(last, last + 3), (y * pw + x) * 3);
  }
  return out;
}
