/**
 * Per-cell class probabilities on a grid -> vision_msgs/Detection2D boxes.
 *
 * The detector scores a grid of cells over the image (SPEC "How results are measured": e.g.
 * 32x32 cells of 8x8 px over 256x256) for each class. For every non-background class, cells whose
 * probability is >= `scoreThreshold` are grouped into connected components (4- or 8-connected);
 * each component becomes one Detection2D whose bbox is the component's cell-aligned bounding
 * rectangle in pixels of the ORIGINAL image (the image the header belongs to), and whose single
 * hypothesis carries the class name and a score:
 *   - "max":  the largest cell probability in the component (default; a thin wire one cell wide
 *             is as confident as its best cell, so long faint wires are not averaged away);
 *   - "mean": the mean cell probability over the component.
 * Classes are thresholded independently (a cell may belong to a wire and a branch component).
 *
 * Allocation: the labelling scratch (visited marks and the flood-fill stack) is preallocated for
 * the grid size given at construction; per frame only the output records are created (they are
 * handed to a publisher, which may queue them, so they are not reused).
 */
import type { Detection2D, Header } from "./visionTypes";

export type Connectivity = 4 | 8;
export type ScoreMode = "max" | "mean";
/** "hwc": probs[(row * cols + col) * numClasses + class]; "chw": probs[class * rows * cols + row * cols + col]. */
export type GridLayout = "hwc" | "chw";

export type CellGridShape = {
  rows: number;
  cols: number;
  /** Number of classes including background at `backgroundClass`. */
  numClasses: number;
};

export type CellsToDetectionsOptions = CellGridShape & {
  /** Class names by index; the background entry is skipped. */
  classNames: readonly string[];
  /** Index of the background class, never reported. Default 0. */
  backgroundClass?: number;
  /** Default 8. */
  connectivity?: Connectivity;
  /** Cell probability threshold in [0, 1]. Default 0.5. */
  scoreThreshold?: number;
  /** Default "max". */
  scoreMode?: ScoreMode;
  /** Components with fewer cells are dropped. Default 1. */
  minCells?: number;
  /** Default "hwc". */
  layout?: GridLayout;
};

function checkInt(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${name}=${value}, expected an integer >= ${min}`);
  }
}

export class CellsToDetections {
  readonly rows: number;
  readonly cols: number;
  readonly numClasses: number;
  private readonly classNames: readonly string[];
  private readonly backgroundClass: number;
  private readonly connectivity: Connectivity;
  private scoreThreshold: number;
  private readonly scoreMode: ScoreMode;
  private readonly minCells: number;
  private readonly layout: GridLayout;
  /** Per-cell visit mark for the current class: stores (class + 1) so it needs no clearing. */
  private readonly visited: Uint8Array;
  private readonly stack: Int32Array;

  constructor(options: CellsToDetectionsOptions) {
    checkInt("rows", options.rows, 1);
    checkInt("cols", options.cols, 1);
    checkInt("numClasses", options.numClasses, 1);
    if (options.numClasses > 254) {
      throw new RangeError(`numClasses=${options.numClasses}, expected <= 254`);
    }
    if (options.classNames.length !== options.numClasses) {
      throw new RangeError(`classNames.length=${options.classNames.length}, expected numClasses=${options.numClasses}`);
    }
    const bg = options.backgroundClass ?? 0;
    if (!Number.isInteger(bg) || bg < -1 || bg >= options.numClasses) {
      throw new RangeError(`backgroundClass=${bg}, expected -1 (none) or an integer in [0, ${options.numClasses - 1}]`);
    }
    const connectivity = options.connectivity ?? 8;
    if (connectivity !== 4 && connectivity !== 8) {
      throw new RangeError(`connectivity=${String(connectivity)}, expected 4 or 8`);
    }
    const minCells = options.minCells ?? 1;
    checkInt("minCells", minCells, 1);
    this.rows = options.rows;
    this.cols = options.cols;
    this.numClasses = options.numClasses;
    this.classNames = options.classNames;
    this.backgroundClass = bg;
    this.connectivity = connectivity;
    this.scoreThreshold = 0.5;
    this.setScoreThreshold(options.scoreThreshold ?? 0.5);
    this.scoreMode = options.scoreMode ?? "max";
    this.minCells = minCells;
    this.layout = options.layout ?? "hwc";
    const n = this.rows * this.cols;
    this.visited = new Uint8Array(n);
    this.stack = new Int32Array(n);
  }

  /** Threshold in [0, 1] (can be changed at run time, e.g. by a parameter callback). */
  setScoreThreshold(threshold: number): void {
    if (!(threshold >= 0 && threshold <= 1)) {
      throw new RangeError(`scoreThreshold=${threshold}, expected a number in [0, 1]`);
    }
    this.scoreThreshold = threshold;
  }

  /**
   * Labels `probs` and appends one Detection2D per component to `out` (which is cleared first).
   * `imageWidth`/`imageHeight` are the original image's pixel size; cell (r, c) covers
   * x in [c * W / cols, (c + 1) * W / cols) and likewise for y. Returns `out`.
   */
  run(probs: ArrayLike<number>, imageWidth: number, imageHeight: number, header: Header, out: Detection2D[] = []): Detection2D[] {
    const n = this.rows * this.cols;
    if (probs.length !== n * this.numClasses) {
      throw new RangeError(
        `probs.length=${probs.length}, expected rows*cols*numClasses=${this.rows}*${this.cols}*${this.numClasses}=${n * this.numClasses}`,
      );
    }
    if (!(imageWidth > 0 && imageHeight > 0)) {
      throw new RangeError(`image size ${imageWidth}x${imageHeight}, expected positive width and height`);
    }
    out.length = 0;
    const cellW = imageWidth / this.cols;
    const cellH = imageHeight / this.rows;
    this.visited.fill(0);
    for (let k = 0; k < this.numClasses; k++) {
      if (k === this.backgroundClass) continue;
      const mark = k + 1;
      for (let seed = 0; seed < n; seed++) {
        if (this.visited[seed] === mark || !(this.prob(probs, seed, k) >= this.scoreThreshold)) continue;
        // Flood fill from `seed` with an explicit stack (no recursion, no allocation).
        let top = 0;
        this.stack[top++] = seed;
        this.visited[seed] = mark;
        let minR = this.rows, maxR = -1, minC = this.cols, maxC = -1;
        let count = 0, sum = 0, max = 0;
        while (top > 0) {
          const cell = this.stack[--top]!;
          const r = (cell / this.cols) | 0;
          const c = cell - r * this.cols;
          const p = this.prob(probs, cell, k);
          count++;
          sum += p;
          if (p > max) max = p;
          if (r < minR) minR = r;
          if (r > maxR) maxR = r;
          if (c < minC) minC = c;
          if (c > maxC) maxC = c;
          for (let dr = -1; dr <= 1; dr++) {
            const rr = r + dr;
            if (rr < 0 || rr >= this.rows) continue;
            for (let dc = -1; dc <= 1; dc++) {
              if (dr === 0 && dc === 0) continue;
              if (this.connectivity === 4 && dr !== 0 && dc !== 0) continue;
              const cc = c + dc;
              if (cc < 0 || cc >= this.cols) continue;
              const nb = rr * this.cols + cc;
              if (this.visited[nb] !== mark && this.prob(probs, nb, k) >= this.scoreThreshold) {
                this.visited[nb] = mark;
                this.stack[top++] = nb;
              }
            }
          }
        }
        if (count < this.minCells) continue;
        const x0 = minC * cellW, x1 = (maxC + 1) * cellW;
        const y0 = minR * cellH, y1 = (maxR + 1) * cellH;
        const score = this.scoreMode === "max" ? max : sum / count;
        out.push(makeDetection(header, this.classNames[k] ?? String(k), score, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, out.length));
      }
    }
    return out;
  }

  private prob(probs: ArrayLike<number>, cell: number, k: number): number {
    return (this.layout === "hwc" ? probs[cell * this.numClasses + k] : probs[k * this.rows * this.cols + cell]) as number;
  }
}

function makeDetection(header: Header, classId: string, score: number, cx: number, cy: number, w: number, h: number, index: number): Detection2D {
  return {
    header: { stamp: { sec: header.stamp.sec, nanosec: header.stamp.nanosec }, frame_id: header.frame_id },
    results: [
      {
        hypothesis: { class_id: classId, score },
        pose: {
          pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
          covariance: new Array<number>(36).fill(0),
        },
      },
    ],
    bbox: { center: { position: { x: cx, y: cy }, theta: 0 }, size_x: w, size_y: h },
    id: String(index),
  };
}
