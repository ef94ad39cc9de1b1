/**
 * Line support on a detector's wire-probability cell map (issue 14, zero-shot on real photos;
 * rule in docs/results/line-support-decision-rule.txt). A power line is long and straight across
 * the image; facade joints, kerbs and foliage shadows that also fire are mostly short. For each
 * cell c the support is the best mean of p along a straight segment through c:
 *
 *   LS(c) = max_k mean_{t = -h..h} p(c + t u_k),  u_k = (cos theta_k, sin theta_k) / max(|cos|, |sin|),
 *   theta_k = k pi / K,
 *
 * the step u_k being one cell along the direction's dominant axis, so every sample lies on a
 * cell row or column and is interpolated linearly along the other axis only (a unit step would
 * land between four cells and blur a diagonal line to about 0.6 of its value); samples outside
 * the grid are left out of the mean (a wire leaving the image is not penalised),
 * h = max(1, round(F max(rows, cols))). The score is
 * sqrt(p LS) ("geo": local evidence and line evidence both needed) or LS alone ("ls"). Pure
 * arithmetic on the cell grid (68 x 45 cells for a 540 x 360 photo), no training.
 */

/** How the support enters the score. */
export type LineSupportCombine = "geo" | "ls";

export type LineSupportSpec = {
  /** Segment half-length as a fraction of the grid's longer side. */
  fraction: number;
  combine: LineSupportCombine;
  /** Orientations over [0, pi). */
  orientations: number;
};

export const LINE_SUPPORT_ORIENTATIONS = 12;

/** "F:geo" or "F:ls" (F in (0, 1]); names the problem on anything else. */
export function parseLineSupportSpec(text: string): LineSupportSpec {
  const m = /^([0-9]*\.?[0-9]+):(geo|ls)$/.exec(text.trim());
  if (m === null) throw new RangeError(`line support "${text}": expected F:geo or F:ls with F a fraction of the grid's longer side, e.g. 0.2:geo`);
  const fraction = Number(m[1]);
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`line support "${text}": fraction ${m[1]} outside (0, 1]`);
  return { fraction, combine: m[2] as LineSupportCombine, orientations: LINE_SUPPORT_ORIENTATIONS };
}

/** The spec as "F:combine", the name used in result tables. */
export function formatLineSupportSpec(s: LineSupportSpec): string {
  return `${s.fraction}:${s.combine}`;
}

/** Segment half-length in cells for a rows x cols grid. */
export function lineSupportHalfLength(spec: LineSupportSpec, rows: number, cols: number): number {
  return Math.max(1, Math.round(spec.fraction * Math.max(rows, cols)));
}

function bilinear(p: ArrayLike<number>, rows: number, cols: number, y: number, x: number): number {
  const r0 = Math.floor(y);
  const c0 = Math.floor(x);
  const fy = y - r0;
  const fx = x - c0;
  const r1 = Math.min(r0 + 1, rows - 1);
  const c1 = Math.min(c0 + 1, cols - 1);
  const top = (1 - fx) * p[r0 * cols + c0]! + fx * p[r0 * cols + c1]!;
  const bottom = (1 - fx) * p[r1 * cols + c0]! + fx * p[r1 * cols + c1]!;
  return (1 - fy) * top + fy * bottom;
}

/** LS(c) of the file comment for every cell; `p` rows x cols, row-major. */
export function lineSupport(p: ArrayLike<number>, rows: number, cols: number, halfLength: number, orientations = LINE_SUPPORT_ORIENTATIONS): Float32Array {
  if (!(rows > 0 && cols > 0) || p.length !== rows * cols) throw new RangeError(`p.length=${p.length}, expected rows*cols=${rows * cols} with rows, cols > 0`);
  if (!(Number.isInteger(halfLength) && halfLength >= 1)) throw new RangeError(`halfLength=${halfLength}, expected an integer >= 1`);
  if (!(Number.isInteger(orientations) && orientations >= 1)) throw new RangeError(`orientations=${orientations}, expected an integer >= 1`);
  const out = new Float32Array(rows * cols);
  const dirs = Array.from({ length: orientations }, (_, k) => {
    const dy = Math.sin((k * Math.PI) / orientations);
    const dx = Math.cos((k * Math.PI) / orientations);
    const m = Math.max(Math.abs(dy), Math.abs(dx));
    return [dy / m, dx / m] as const;
  });
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let best = 0;
      for (const [dy, dx] of dirs) {
        let sum = 0;
        let n = 0;
        for (let t = -halfLength; t <= halfLength; t++) {
          const y = r + t * dy;
          const x = c + t * dx;
          // A small tolerance keeps samples that land on the border by rounding.
          if (y < -1e-9 || x < -1e-9 || y > rows - 1 + 1e-9 || x > cols - 1 + 1e-9) continue;
          sum += bilinear(p, rows, cols, Math.min(Math.max(y, 0), rows - 1), Math.min(Math.max(x, 0), cols - 1));
          n++;
        }
        const mean = sum / n;
        if (mean > best) best = mean;
      }
      out[r * cols + c] = best;
    }
  }
  return out;
}

/** The score of the file comment (same layout as `p`), values in [0, 1] when p is. */
export function lineSupportScore(p: ArrayLike<number>, rows: number, cols: number, spec: LineSupportSpec): Float32Array {
  const ls = lineSupport(p, rows, cols, lineSupportHalfLength(spec, rows, cols), spec.orientations);
  if (spec.combine === "ls") return ls;
  const out = new Float32Array(ls.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.sqrt(Math.max(0, p[i]!) * ls[i]!);
  return out;
}
