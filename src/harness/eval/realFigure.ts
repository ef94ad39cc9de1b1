/**
 * A documentation figure for real photographs (docs/real.md): one row per photo with three panels
 * side by side, photo | ground truth (wire pixels white) | wire probability map (grey), each at the
 * photo's own size, rows left-aligned on a black canvas with 4 px gaps.
 */
import type { RgbImage } from "../data/imageCodec";

export type FigureRow = { image: RgbImage; wire: Uint8Array; map: Float32Array };

const GAP = 4;

export function realFigure(rows: readonly FigureRow[]): RgbImage {
  if (rows.length === 0) throw new RangeError("rows.length=0, expected at least one row");
  const width = Math.max(...rows.map((r) => 3 * r.image.width + 2 * GAP));
  const height = rows.reduce((h, r) => h + r.image.height, 0) + GAP * (rows.length - 1);
  const rgb = new Uint8Array(width * height * 3);
  let top = 0;
  for (const r of rows) {
    const { width: W, height: H } = r.image;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        const row = (top + y) * width;
        const g = r.wire[i]! > 0 ? 255 : 0;
        const m = Math.round(255 * Math.min(1, Math.max(0, r.map[i]!)));
        for (let c = 0; c < 3; c++) {
          rgb[3 * (row + x) + c] = r.image.rgb[3 * i + c]!;
          rgb[3 * (row + W + GAP + x) + c] = g;
          rgb[3 * (row + 2 * (W + GAP) + x) + c] = m;
        }
      }
    }
    top += H + GAP;
  }
  return { width, height, rgb };
}
